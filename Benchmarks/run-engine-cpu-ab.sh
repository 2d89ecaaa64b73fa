#!/usr/bin/env bash
# The ArcGIS engine's CPU per count / ids / features query, two builds side by side: engine-cpu-benchmark of
# build A and of build B, alternating round by round against one sample server, so that a change to the engine
# (or to what it runs on) is judged against the code before it in the same conditions. Not run by CI.
#
#   Benchmarks/run-engine-cpu-ab.sh A_ENGINE_CPU_BENCHMARK B_ENGINE_CPU_BENCHMARK [--rounds N] [--queries N]
#
# Each binary is an `engine-cpu-benchmark` built in release (`swift build -c release --product
# engine-cpu-benchmark` in each tree; a tree from before the benchmarks joined the main package builds it in its
# Benchmarks/ folder). The server (`sample-feature-server`, 200,000 parcels, this tree's release build in
# .build-bench-worker, built if missing) runs on the last CPU, the benchmark on CPU 0. Prints each round's table
# (median of 3 runs per kind) and, at the end, the median over the rounds per side and B / A.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf 'run-engine-cpu-ab: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

(( $# >= 2 )) || die "usage: $0 A_ENGINE_CPU_BENCHMARK B_ENGINE_CPU_BENCHMARK [--rounds N] [--queries N]"
A="$1"; B="$2"; shift 2
ROUNDS=5
QUERIES=3000
while (( $# > 0 )); do
    case "$1" in
        --rounds) ROUNDS="$2"; shift 2 ;;
        --queries) QUERIES="$2"; shift 2 ;;
        *) die "unknown argument $1" ;;
    esac
done
for binary in "$A" "$B"; do [[ -x "$binary" ]] || die "not an executable: $binary"; done
SCRATCH="${WORKER_SCRATCH:-$ROOT/.build-bench-worker}"
SERVER="$SCRATCH/release/sample-feature-server"
if [[ ! -x "$SERVER" ]]; then
    log "building sample-feature-server (release, scratch path $SCRATCH)"
    (cd "$ROOT" && swift build -c release --product sample-feature-server --scratch-path "$SCRATCH" >&2)
fi
LAST_CPU=$(( $(nproc) - 1 ))
WORK="$(mktemp -d /tmp/engine-cpu-ab.XXXXXX)"
taskset -c "$LAST_CPU" "$SERVER" --parcels 200000 --port 0 >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
SERVICES=""
for _ in $(seq 1 120); do
    SERVICES="$(grep -oE 'http://127\.0\.0\.1:[0-9]+/arcgis/rest/services' "$WORK/server.log" | head -n 1 || true)"
    [[ -n "$SERVICES" ]] && break
    sleep 0.5
done
[[ -n "$SERVICES" ]] || die "the sample server did not say where it listens (log: $WORK/server.log)"
LAYER="$SERVICES/LA_County_Parcels/FeatureServer/0"
log "server $LAYER (CPU $LAST_CPU); benchmark on CPU 0; $ROUNDS rounds of $QUERIES queries per kind"

for ((round = 1; round <= ROUNDS; round++)); do
    for side in A B; do
        binary="$A"; [[ "$side" == B ]] && binary="$B"
        echo "=== round $round: $side"
        taskset -c 0 "$binary" --layer "$LAYER" --kind all --queries "$QUERIES" --warmups 300 --repetitions 3 \
            | tee -a "$WORK/$side.txt" | grep -E '^(kind|count|ids|features) '
    done
done

echo
echo "median over $ROUNDS rounds, CPU µs/query"
python3 - "$WORK/A.txt" "$WORK/B.txt" <<'PY'
import statistics, sys
def medians(path):
    values = {}
    for line in open(path):
        parts = line.split()
        if parts and parts[0] in ("count", "ids", "features"):
            values.setdefault(parts[0], []).append(float(parts[1]))
    return {kind: statistics.median(v) for kind, v in values.items()}
a, b = medians(sys.argv[1]), medians(sys.argv[2])
print(f"{'kind':<10}{'A':>10}{'B':>10}{'B / A':>10}")
for kind in ("count", "ids", "features"):
    if kind in a and kind in b:
        print(f"{kind:<10}{a[kind]:>10.1f}{b[kind]:>10.1f}{b[kind] / a[kind]:>10.2f}")
PY
