#!/usr/bin/env bash
# OGC API Features download benchmark on the sample feature server's OGC face, every side measured in the same
# run. Not run by CI.
#
#   Benchmarks/run-ogc-benchmark.sh [--repetitions N] [--warmups N] [--strict] [--server-cpus LIST]
#
# The whole of a 100,000-feature collection (the parcels, with geometry) at 20 ms latency per request, through
# our engine (`query-worker export --ogc`, a fresh process per run), GDAL's ogr2ogr OAPIF driver (Debian's
# gdal-bin, PAGE_SIZE = the server's maximum limit) and OWSLib (following `next` links page by page, the same
# page size). Prints each side's median time and peak RSS, and the ratio. Goal: the engine >= 5x faster than
# ogr2ogr. Every side must return the same 100,000 feature ids, or the script fails (exit 1); a missed goal
# fails it only with --strict.
#
# Builds sample-feature-server and query-worker in release with scratch path .build-bench-ogc, and installs
# Benchmarks/requirements-bench.txt (OWSLib, ...) into the repository's .venv. SKIP_BUILD=1 reuses them.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="$ROOT/.build-bench-ogc"
VENV="$ROOT/.venv"
REQUIREMENTS="$BENCH/requirements-bench.txt"
HASH_FILE="$VENV/.requirements-bench.sha256"
COLLECTION="${OGC_BENCH_COLLECTION:-LA_County_Parcels}"
LIMIT="${OGC_BENCH_LIMIT:-10000}"

log() { printf 'run-ogc-benchmark: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

REPETITIONS=3
WARMUPS=1
STRICT=()
CPU_COUNT="$(nproc 2>/dev/null || echo 1)"
SERVER_CPUS=""
(( CPU_COUNT >= 2 )) && SERVER_CPUS="$((CPU_COUNT - 1))"
while (( $# > 0 )); do
    case "$1" in
        --repetitions) REPETITIONS="${2:?--repetitions needs a number}"; shift 2 ;;
        --warmups) WARMUPS="${2:?--warmups needs a number}"; shift 2 ;;
        --strict) STRICT=(--strict); shift ;;
        --server-cpus) SERVER_CPUS="${2?--server-cpus needs a CPU list (empty: unpinned)}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done

command -v ogr2ogr >/dev/null || die "ogr2ogr is missing: apt-get install gdal-bin (scripts/setup-deps installs it)"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building sample-feature-server and query-worker (release, scratch path $SCRATCH)"
    (cd "$ROOT" && swift build -c release --product sample-feature-server --scratch-path "$SCRATCH" >&2)
    (cd "$ROOT" && swift build -c release --product query-worker --scratch-path "$SCRATCH" >&2)
    if ! [[ -x "$VENV/bin/python" ]]; then
        python3 -m venv "$VENV" >&2 || die "python3 -m venv failed (apt-get install python3-venv)"
    fi
    wanted_hash="$(sha256sum "$REQUIREMENTS" | cut -d ' ' -f 1)"
    if [[ "$wanted_hash" != "$(cat "$HASH_FILE" 2>/dev/null || true)" ]] || ! "$VENV/bin/python" -c 'import owslib' 2>/dev/null; then
        log "installing $REQUIREMENTS into $VENV"
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQUIREMENTS" >&2
        printf '%s\n' "$wanted_hash" >"$HASH_FILE"
    fi
fi
SERVER="$SCRATCH/release/sample-feature-server"
WORKER="$SCRATCH/release/query-worker"
PYTHON="$VENV/bin/python"
for binary in "$SERVER" "$WORKER" "$PYTHON"; do [[ -x "$binary" ]] || die "missing $binary (run without SKIP_BUILD=1)"; done

WORK="$(mktemp -d /tmp/ogc-benchmark.XXXXXX)"
source "$BENCH/lib/sample-server.sh"
log "$(swift --version 2>/dev/null | head -n 1); $(ogr2ogr --version); $("$PYTHON" -c 'import owslib; print("OWSLib", owslib.__version__)'); CPUs idle: $(idle_percent)%"
start_server ogc --parcels 100000 --latency-ms 20
LANDING="${SERVER_URL%/arcgis/rest/services}/ogc"
"$PYTHON" "$BENCH/python/ogc_benchmark.py" --landing "$LANDING" --collection "$COLLECTION" --query-worker "$WORKER" \
    --python "$PYTHON" --peers "$BENCH/python" --limit "$LIMIT" --repetitions "$REPETITIONS" --warmups "$WARMUPS" "${STRICT[@]}"
