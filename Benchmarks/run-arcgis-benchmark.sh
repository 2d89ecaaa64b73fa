#!/usr/bin/env bash
# ArcGIS engine benchmarks on the sample feature server, each side measured in the same run. Not run by CI.
#
#   Benchmarks/run-arcgis-benchmark.sh [--repetitions N] [--warmups N] [--only download|selection] [--strict]
#                                      [--server-cpus LIST] [--client-cpus LIST]
#
# 1. download: every feature of LA_County_Parcels/FeatureServer/0 on a server with --parcels 100000
#    --latency-ms 20 (all attributes, geometry in WGS 84, as GeoJSON) through ArcGISEngine + FeatureGeoJSON
#    and through esridump (politeness delay off: pause_seconds=0). Target: esridump's time / the engine's
#    >= 5x. Both sides' OBJECTIDs must be the same 100,000 ids, or the script fails.
# 2. selection: every object id of the same layer on a server with the default 2,400,000 parcels, without and
#    with a where clause, through ArcGISEngine (FeatureQuery(result: .ids)) and through a Python client doing
#    what ArcGIS API for Python does for query(return_ids_only=True). Target: the engine's peak RSS < 200 MB.
#    The selection must be complete (2,400,000 ids without a where clause) and equal on both sides.
#
# Medians over --repetitions (default 3) measured runs per side, after --warmups (default 1) uncounted ones;
# every run is a fresh client process. Wrong ids always fail the script (exit 1); a missed speed or memory
# target only with --strict.
#
# Builds, each in release: sample-feature-server (the main package) with scratch path .build-bench-server
# (not .build, so as not to collide with other builds of the main package), and arcgis-engine-benchmark
# (a target of the main package) in the same scratch path. Installs
# Benchmarks/requirements-bench.txt (esridump, requests) into the repository's .venv (created if missing, as
# scripts/setup-deps does) when that file changed. SKIP_BUILD=1 reuses what was built and installed last time.
#
# CPUs: the server stands in for a remote ArcGIS server, so by default it is pinned to one CPU (--server-cpus,
# default: the last CPU) and cannot take both cores from the client being measured; the clients are not pinned
# (--client-cpus), since the engine's design is to decode pages in parallel while esridump is single-threaded.
# The servers run in processes of their own and are stopped on exit.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SERVER_SCRATCH="$ROOT/.build-bench-server"
VENV="$ROOT/.venv"
REQUIREMENTS="$BENCH/requirements-bench.txt"
HASH_FILE="$VENV/.requirements-bench.sha256"
LAYER_PATH="LA_County_Parcels/FeatureServer/0"

log() { printf 'run-arcgis-benchmark: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

REPETITIONS=3
WARMUPS=1
ONLY=""
STRICT=()
CPU_COUNT="$(nproc 2>/dev/null || echo 1)"
SERVER_CPUS=""
(( CPU_COUNT >= 2 )) && SERVER_CPUS="$((CPU_COUNT - 1))"
CLIENT_CPUS=""
while (( $# > 0 )); do
    case "$1" in
        --repetitions) REPETITIONS="${2:?--repetitions needs a number}"; shift 2 ;;
        --warmups) WARMUPS="${2:?--warmups needs a number}"; shift 2 ;;
        --only) ONLY="${2:?--only needs download or selection}"; shift 2 ;;
        --strict) STRICT=(--strict); shift ;;
        --server-cpus) SERVER_CPUS="${2?--server-cpus needs a CPU list (empty: unpinned)}"; shift 2 ;;
        --client-cpus) CLIENT_CPUS="${2?--client-cpus needs a CPU list (empty: unpinned)}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
[[ "$REPETITIONS" =~ ^[1-9][0-9]*$ ]] || die "--repetitions must be a positive number"
[[ "$WARMUPS" =~ ^[0-9]+$ ]] || die "--warmups must be a number"
[[ -z "$ONLY" || "$ONLY" == download || "$ONLY" == selection ]] || die "--only takes download or selection"

# --- build --------------------------------------------------------------------------------
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    command -v swift >/dev/null || die "no swift on PATH"
    pkg-config --exists libcurl || die "libcurl is missing: apt-get install libcurl4-openssl-dev (or run scripts/setup-deps)"

    log "building sample-feature-server (release, scratch path $SERVER_SCRATCH)"
    (cd "$ROOT" && swift build -c release --product sample-feature-server --scratch-path "$SERVER_SCRATCH")

    log "building arcgis-engine-benchmark (release, scratch path $SERVER_SCRATCH)"
    (cd "$ROOT" && swift build -c release --product arcgis-engine-benchmark --scratch-path "$SERVER_SCRATCH")

    # The Python peers, into the repository's virtual environment (created as scripts/setup-deps does).
    if ! [[ -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
        log "creating the Python virtual environment $VENV"
        rm -rf "$VENV"
        python3 -m venv "$VENV" >&2 || { rm -rf "$VENV"; /usr/bin/python3 -m venv "$VENV" >&2; } \
            || die "python3 -m venv failed (apt-get install python3-venv)"
    fi
    wanted_hash="$(sha256sum "$REQUIREMENTS" | cut -d ' ' -f 1)"
    if [[ "$wanted_hash" != "$(cat "$HASH_FILE" 2>/dev/null || true)" ]] \
        || ! "$VENV/bin/python" -c 'import esridump, requests' >/dev/null 2>&1; then
        log "installing $REQUIREMENTS into $VENV"
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQUIREMENTS" >&2
        printf '%s\n' "$wanted_hash" >"$HASH_FILE"
    else
        log "Python benchmark requirements up to date"
    fi
fi

SERVER="$SERVER_SCRATCH/release/sample-feature-server"
BENCHMARK="$SERVER_SCRATCH/release/arcgis-engine-benchmark"
PYTHON="$VENV/bin/python"
for binary in "$SERVER" "$BENCHMARK" "$PYTHON"; do
    [[ -x "$binary" ]] || die "missing $binary (run without SKIP_BUILD=1)"
done
"$PYTHON" -c 'import esridump, requests' 2>/dev/null || die "esridump is not installed in $VENV (run without SKIP_BUILD=1)"

# --- servers ------------------------------------------------------------------------------
WORK="$(mktemp -d /tmp/arcgis-benchmark.XXXXXX)"
source "$(dirname "${BASH_SOURCE[0]}")/lib/sample-server.sh"

check_idle() {
    local idle
    idle="$(idle_percent)"
    if (( idle < 85 )); then
        log "WARNING: the CPUs are only $idle% idle before the $1 benchmark; other processes will distort the figures:"
        ps -eo pcpu,pid,comm --sort=-pcpu | sed -n '2,4p' | sed 's/^/    /' >&2
    else
        log "CPUs $idle% idle before the $1 benchmark"
    fi
}

COMMON=(--python "$PYTHON" --peers "$BENCH/python" --repetitions "$REPETITIONS" --warmups "$WARMUPS" "${STRICT[@]}")
[[ -n "$CLIENT_CPUS" ]] && COMMON+=(--client-cpus "$CLIENT_CPUS")
log "$(swift --version 2>/dev/null | head -n 1); $("$PYTHON" --version); $CPU_COUNT CPUs; load:$(uptime | sed 's/.*load average://')"

status=0
if [[ -z "$ONLY" || "$ONLY" == download ]]; then
    check_idle download
    start_server download --parcels 100000 --latency-ms 20
    "$BENCHMARK" download --layer "$SERVER_URL/$LAYER_PATH" --work-dir "$WORK/download" "${COMMON[@]}" || status=1
    stop_server
    echo
fi
if [[ -z "$ONLY" || "$ONLY" == selection ]]; then
    check_idle selection
    start_server selection
    "$BENCHMARK" selection --layer "$SERVER_URL/$LAYER_PATH" --work-dir "$WORK/selection" "${COMMON[@]}" || status=1
    stop_server
fi
log "load after the run:$(uptime | sed 's/.*load average://')"
(( status == 0 )) || log "FAILED (see above)"
exit "$status"
