#!/usr/bin/env bash
# The related records of 10,000 parcels (their assessments), read by the worker's engines against the peers'
# way, every side measured in the same run. Not run by CI.
#
#   Benchmarks/run-related-benchmark.sh [--repetitions N] [--latency-ms N] [--origins N] [--chunk N]
#
# The sample feature server (20,000 parcels, 20 ms latency per request) serves `Parcel_Assessments` (several
# per parcel; parcel 2 has 1,500, more than the table's transfer limit of 1,000). Sides, alternating, each run
# `--repetitions` times:
#   - ours: related-benchmark (`result: related`, relationship by name) on the layer as published (related
#     paging and counts: `supportsQueryRelatedPagination`, `supportsAdvancedQueryRelated`), and on a second
#     server where both are off (the worker splits cut answers and reads the big parcel by key);
#   - the peer: Benchmarks/python/related_peer.py, ArcGIS API for Python's / arcgis-rest-js's way: one
#     queryRelatedRecords POST per chunk of --chunk origins (250), in order, no paging, no split.
# The ground truth: related_peer.py --mode truth, both tables read with plain paged `query` and joined in Python.
#
# Prints each side's median wall time, CPU and peak RSS, the record counts, whether each equals the ground
# truth, and the peer / ours wall-time ratio (goal: >= 5, and complete where the peer is not). Exit 1 when
# ours differs from the ground truth.
#
# Builds sample-feature-server and related-benchmark in release with scratch path .build-bench-related;
# SKIP_BUILD=1 reuses them. The peer's `requests` comes from Benchmarks/requirements-bench.txt in .venv.
set -euo pipefail
BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="$ROOT/.build-bench-related"
VENV="$ROOT/.venv"
log() { printf 'run-related-benchmark: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

REPETITIONS=3
LATENCY_MS=20
ORIGINS=10000
CHUNK=250
while (( $# > 0 )); do
    case "$1" in
        --repetitions) REPETITIONS="${2:?}"; shift 2 ;;
        --latency-ms) LATENCY_MS="${2:?}"; shift 2 ;;
        --origins) ORIGINS="${2:?}"; shift 2 ;;
        --chunk) CHUNK="${2:?}"; shift 2 ;;
        *) die "unknown argument $1" ;;
    esac
done

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building sample-feature-server and related-benchmark (release, $SCRATCH)"
    for product in sample-feature-server related-benchmark; do
        (cd "$ROOT" && swift build -c release --product "$product" --scratch-path "$SCRATCH" >&2)
    done
    [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV" >&2
    "$VENV/bin/python" -c 'import requests' 2>/dev/null \
        || "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$BENCH/requirements-bench.txt" >&2
fi
SERVER="$SCRATCH/release/sample-feature-server"
OURS="$SCRATCH/release/related-benchmark"
PYTHON="$VENV/bin/python"
WORK="$(mktemp -d /tmp/related-benchmark.XXXXXX)"
PIDS=()
trap 'for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT

# start NAME ARGS...: a sample server; prints its base URL.
start() {
    local name="$1"; shift
    "$SERVER" --parcels 20000 --seed 7 --port 0 --log-level warning --fault "latency:ms=$LATENCY_MS" "$@" \
        >"$WORK/$name.out" 2>"$WORK/$name.err" &
    PIDS+=($!)
    for _ in $(seq 1 600); do
        local base; base="$(head -n 1 "$WORK/$name.out" 2>/dev/null || true)"
        [[ "$base" == http* ]] && { printf '%s\n' "$base"; return; }
        sleep 0.1
    done
    die "the $name server did not start (log: $WORK/$name.err)"
}
PUBLISHED="$(start published)/LA_County_Parcels/FeatureServer/0"
PLAIN="$(start plain \
    --query-option "LA_County_Parcels/FeatureServer/0=supportsQueryRelatedPagination=false" \
    --query-option "LA_County_Parcels/FeatureServer/0=supportsAdvancedQueryRelated=false")/LA_County_Parcels/FeatureServer/0"
WHERE="OBJECTID <= $ORIGINS"
log "servers up: $LATENCY_MS ms per request; origins: $WHERE; $REPETITIONS runs per side"

"$PYTHON" "$BENCH/python/related_peer.py" --mode truth --layer "$PUBLISHED" --where "$WHERE" --pairs-out "$WORK/truth.pairs" \
    >"$WORK/truth.out" || die "the ground truth failed"

# measure NAME COMMAND...: one run under /usr/bin/time, appending "wall cpu rss_kib" to $WORK/NAME.times.
measure() {
    local name="$1"; shift
    /usr/bin/time -f '%e %U %S %M' -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" \
        || die "$name failed: $(tail -n 5 "$WORK/$name.err")"
    awk '{ printf "%s %.3f %s\n", $1, $2 + $3, $4 }' "$WORK/$name.time" >>"$WORK/$name.times"
    grep '^RESULT ' "$WORK/$name.out" >>"$WORK/$name.walls"
}
for ((run = 1; run <= REPETITIONS; run++)); do
    measure ours "$OURS" --url "$PUBLISHED" --where "$WHERE" --repetitions 1 --pairs-out "$WORK/ours.pairs"
    measure peer "$PYTHON" "$BENCH/python/related_peer.py" --layer "$PUBLISHED" --where "$WHERE" --chunk "$CHUNK" \
        --pairs-out "$WORK/peer.pairs"
    measure ours-plain "$OURS" --url "$PLAIN" --where "$WHERE" --repetitions 1 --pairs-out "$WORK/ours-plain.pairs"
done

python3 - "$WORK" "$ORIGINS" "$CHUNK" "$LATENCY_MS" <<'PY'
import statistics, sys
work, origins, chunk, latency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
truth = open(f"{work}/truth.pairs").read().split("\n")
truth = set(line for line in truth if line)

def pairs(name):
    lines = open(f"{work}/{name}.pairs").read().split("\n")
    return set(sorted(line for line in lines if line))

def result(name):
    line = next(l for l in open(f"{work}/{name}.out") if l.startswith("RESULT "))
    return dict(field.split("=", 1) for field in line.split()[1:])

def times(name):
    rows = [line.split() for line in open(f"{work}/{name}.times")]
    return (statistics.median(float(r[0]) for r in rows), statistics.median(float(r[1]) for r in rows),
            max(int(r[2]) for r in rows) / 1024)

def query_walls(name):
    # Each run's own figure for its query (the worker's RESULT wall_s; the peer's loop), without process start.
    return [float(dict(f.split("=", 1) for f in l.split()[1:])["wall_s"]) for l in open(f"{work}/{name}.walls")]

print(f"related records (Parcel_Assessments) of {origins} parcels at {latency} ms per request; ground truth: "
      f"{len(truth)} records; medians of runs: the process (wall, CPU, peak RSS) and the query alone")
print(f"{'side':<46}{'wall s':>8}{'query s':>9}{'CPU s':>8}{'RSS MiB':>9}{'records':>9}  complete")
figures = {}
ok = True
for name, label in [("ours", "worker (related paging and counts)"),
                    ("ours-plain", "worker (no related paging, no counts)"),
                    ("peer", f"peer: one call per {chunk} origins, in order")]:
    wall, cpu, rss = times(name)
    query = statistics.median(query_walls(name))
    got = pairs(name)
    same = got == truth
    extra = result(name)
    note = f"yes" if same else f"NO: {len(truth - got)} missing, {len(got - truth)} extra"
    if name != "peer":
        note += f" (worker says complete={extra.get('complete')}, relatedBy={extra.get('related_by')}, {extra.get('requests')} requests)"
        ok = ok and same and extra.get("complete") == "true"
    else:
        note += f" ({extra.get('cut_answers')} answers cut at the transfer limit, {extra.get('requests')} requests)"
    figures[name] = (wall, query)
    print(f"{label:<46}{wall:>8.3f}{query:>9.3f}{cpu:>8.3f}{rss:>9.1f}{len(got):>9}  {note}")
for mine, label in [("ours", "worker"), ("ours-plain", "worker without related paging or counts")]:
    print(f"peer / {label}: process {figures['peer'][0] / figures[mine][0]:.1f}x, query {figures['peer'][1] / figures[mine][1]:.1f}x"
          + (" (goal >= 5)" if mine == "ours" else ""))
sys.exit(0 if ok else 1)
PY
