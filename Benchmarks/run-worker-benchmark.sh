#!/usr/bin/env bash
# Query worker benchmarks, end to end (Kafka in, the sample feature server, Kafka out), each against a peer
# measured in the same run. Not run by CI.
#
#   Benchmarks/run-worker-benchmark.sh [--repetitions N]
#                                      [--only throughput|supersession|memory|credentials|cpu|scale|latency]
#                                      [--strict] [--server-cpus LIST] [--worker-cpus LIST] [--requests N]
#                                      [--supersessions N] [--parcels N] [--revocation-in-flight N]
#                                      [--scale-servers N]
#
# 1. throughput: --requests (default 20,000) small ids queries (where + a 200 m envelope) queued on the
#    request topic, then a fresh `query-worker run` at max-in-flight 64 works through them while the driver
#    reads the outcomes back: requests/s over the steady state. Peer: wrk (one thread, 64 connections)
#    replaying the engine's own two HTTP requests per ids query (returnIdsOnly and returnCountOnly, captured
#    from the engine), one pair of responses counted as one request, against the same server process.
#    Target: worker >= 0.8x wrk. Also CPU time per request of the worker (utime+stime from /proc/PID/stat),
#    of wrk and of the server.
# 2. supersession: a chain of requests for one task, each superseding the one before while its queries are
#    held at the server; from the superseding request's arrival at the worker (its "received" log line) to
#    the server seeing the old query's transfers aborted: p50/p99 over --supersessions (default 500).
#    Target: p99 < 5 ms. Peer: the same cancellation done on the engine directly (Task.cancel()).
# 3. memory: 100,000 requests published on the request topic before the worker starts
#    (on enough partitions that each holds at most 2 MiB: librdkafka's mock cluster keeps about 5 MiB per
#    partition), then a fresh `query-worker run` at max-in-flight 1000 starts 1,000 of them, the server delaying
#    every query: peak RSS (VmHWM) and RSS, and where it sits (/proc/PID/smaps: heap, malloc arenas, other
#    anonymous memory). Also the RSS of a worker joined to an empty topic after 5 s. Target: <= 150 MB peak,
#    <= 60 MB idle. Peer: the same worker with librdkafka's defaults for the consumer's prefetch and the
#    producer's queue (librdkafka's defaults), in the same run. MEMORY_ARGS="..." adds options (say
#    "--queued 20000"; see `worker-benchmark memory --help`).
# 4. credentials: a `--secure` server (a portal) serves LA_County_Parcels publicly and behind a token
#    in its Secured folder; workers get a credentials file with one token credential for the Secured folder.
#    (a) requests/s of --requests ids queries on the secured layer against the same queries on the public one
#    (same server, same worker settings, fresh worker per run, sides alternating). Target: secured >= 0.95x
#    public. Also CPU per request and the token calls per run. (b) on a second server that holds every query
#    of the secured layer 1 s: --revocation-in-flight (default 1,000) count queries in flight (max-in-flight
#    as many) when every token is revoked (POST /_sample/security revokeAll=true; the token is 12 s old by
#    then, the ordinary case of a token revoked in mid-life): tokens obtained (target 1; each is a generateToken and
#    an exchange, the portal's own server being federated with it), requests answered 498, time until all
#    succeed, every outcome succeeded.
#    The servers generate --parcels parcels (default 2,400,000); the memory benchmark always uses 100,000.
# 5. cpu: CPU per request of the worker against a plain Python worker
#    (Benchmarks/python/peer_worker.py: aiokafka + aiohttp, the same contract subset, 64 in flight, JSON log
#    lines at info, offsets committed) on the same queued requests: count (10,000 per run) and features (100
#    features with geometry; 3,000 per run); ids (~20,000 ids per request; 1,000 per run) only with
#    CPU_ARGS="--kinds ids" (its outcomes can overrun the mock cluster's 5 MiB partitions); against one server
#    with 200,000 parcels (always: the selections are sized for it). Fresh process per run, sides
#    alternating. Prints requests/s, worker CPU µs/request (utime+stime over the steady state), server CPU
#    µs/request and the ratios. Targets (count): peer CPU / ours >= 8x, our requests/s / peer's >= 1.0.
#    A third side, the C floor (Benchmarks/c/floor_worker.c, compiled into Benchmarks/bin/floor_worker:
#    librdkafka + libcurl multi on one thread, the worker's Kafka settings, the engine's HTTP requests for each
#    of count, ids and features, the same outcomes (ids ascending; features transcoded from the server's Esri
#    JSON to GeoJSON in one pass), JSON log lines, offsets stored after delivery; no validation, cancellation or
#    errors topic): what the two libraries cost per request under the leanest C program, printed per kind as
#    "floor CPU / ours" (a reference, not a target). After each run the driver checks every side's outcomes
#    against the worker's, request by request (count, complete, objectIds, the features' ids, geometry and
#    properties). CPU_ARGS="..." adds options (say "--kinds count --count-requests 20000",
#    "--kinds count,ids,features --sides worker,floor", or "--sides floor" to run one side alone; see
#    `worker-benchmark cpu --help`).
#    Issue 15's cost of operations: CPU_ARGS="--kinds count --sides worker,metrics" runs the worker beside itself
#    with --ops-port on and /metrics scraped every second, and prints "metrics CPU / query-worker's" (goal <=
#    1.05). OTLP=1 starts Benchmarks/python/otlp_sink.py and passes its endpoint, so
#    "--sides worker,metrics,tracing" adds the worker exporting every span (goal <= 1.10). OTEL_TRACES_SAMPLER
#    and OTEL_TRACES_SAMPLER_ARG, when set, reach the workers.
# 6. scale: 1, 2 and 3 `query-worker run` processes in one group (12 partitions) on the
#    driver's mock cluster, --requests count queries per run spread over --scale-servers (default 3) sample
#    servers of 200,000 parcels each (pinned like the other servers); total requests/s, partitions and
#    outcomes per worker. SCALE_ARGS="..." adds options (say "--workers 1,2 --partitions 6").
# The cpu benchmark installs Benchmarks/requirements-bench.txt (aiokafka, aiohttp, ...) into the repository's
# .venv (created if missing) when that file changed; PYTHON=PATH uses another interpreter that has them.
# 7. latency: the README's own commands as child processes (`query-worker
#    embedded-kafka` with the README's topics, `query-worker run --bootstrap-servers B --allowed-hosts
#    127.0.0.1`, nothing else set). Pairs of requests on one task (the older one held at the server, the newer a
#    parcels count the server answers in 20 ms): supersession = the newer request's Kafka timestamp to the older
#    one's `superseded` outcome's (target p99 <= 25 ms); request -> outcome above the server's own time (target
#    p50 <= 5 ms). Peer: the same worker with --fetch-wait-max 500ms (librdkafka's default, the worker's
#    before it recognized the embedded cluster). Then `query-worker query --wait` processes: outcome published ->
#    printed (target <= 100 ms); PEER_QUERY_WORKER=PATH also times that build's query (say, main's) against the same worker.
#
# Medians over --repetitions (default 3) runs per side; every worker run is a fresh process. Wrong outcomes
# always fail the script (exit 1); a missed target only with --strict.
#
# Builds, each in release: query-worker and sample-feature-server (the main package) with scratch path
# .build-bench-worker (not .build, so as not to collide with other builds of the main package), and
# worker-benchmark (a target of the main package) in the same scratch path. WORKER_SCRATCH moves the scratch
# path (for builds of two trees side by side).
# THROUGHPUT_ARGS="..." adds options to the throughput driver (say "--max-in-flight 256 --sides worker"; see
# `worker-benchmark throughput --help`), CREDENTIALS_ARGS="..." to the credentials driver (say "--skip 200"). SKIP_BUILD=1 reuses what was built last time; QUERY_WORKER=PATH measures that query-worker binary instead of
# building one (a build of another tree, say). Needs wrk (scripts/setup-deps installs it).
#
# CPUs: the sample server stands in for a remote ArcGIS server, so for throughput and memory it runs as its own
# process pinned to one CPU (--server-cpus, default: the last CPU); the worker, the driver (which serves the
# mock Kafka cluster and reads the outcomes) and wrk run on the others (--worker-cpus, default: all but the
# server's). The supersession benchmark keeps the server in the driver's process (for comparable clocks) and
# pins nothing: it measures latency one request at a time, not capacity.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="${WORKER_SCRATCH:-$ROOT/.build-bench-worker}"

log() { printf 'run-worker-benchmark: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

REPETITIONS=3
ONLY=""
STRICT=()
REQUESTS=20000
SUPERSESSIONS=500
PARCELS=""
REVOCATION_IN_FLIGHT=1000
REVOCATION_LATENCY_MS=1000
SCALE_SERVERS=3
CPU_COUNT="$(nproc 2>/dev/null || echo 1)"
SERVER_CPUS=""
WORKER_CPUS=""
if (( CPU_COUNT >= 2 )); then
    SERVER_CPUS="$((CPU_COUNT - 1))"
    WORKER_CPUS="0-$((CPU_COUNT - 2))"
    (( CPU_COUNT == 2 )) && WORKER_CPUS="0"
fi
while (( $# > 0 )); do
    case "$1" in
        --repetitions) REPETITIONS="${2:?--repetitions needs a number}"; shift 2 ;;
        --only) ONLY="${2:?--only needs throughput, supersession or memory}"; shift 2 ;;
        --strict) STRICT=(--strict); shift ;;
        --server-cpus) SERVER_CPUS="${2?--server-cpus needs a CPU list (empty: unpinned)}"; shift 2 ;;
        --worker-cpus) WORKER_CPUS="${2?--worker-cpus needs a CPU list (empty: unpinned)}"; shift 2 ;;
        --requests) REQUESTS="${2:?--requests needs a number}"; shift 2 ;;
        --supersessions) SUPERSESSIONS="${2:?--supersessions needs a number}"; shift 2 ;;
        --parcels) PARCELS="${2:?--parcels needs a number}"; shift 2 ;;
        --revocation-in-flight) REVOCATION_IN_FLIGHT="${2:?--revocation-in-flight needs a number}"; shift 2 ;;
        --scale-servers) SCALE_SERVERS="${2:?--scale-servers needs a number}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
[[ "$REPETITIONS" =~ ^[1-9][0-9]*$ ]] || die "--repetitions must be a positive number"
[[ "$REQUESTS" =~ ^[1-9][0-9]*$ ]] || die "--requests must be a positive number"
[[ "$SUPERSESSIONS" =~ ^[1-9][0-9]*$ ]] || die "--supersessions must be a positive number"
[[ -z "$PARCELS" || "$PARCELS" =~ ^[1-9][0-9]*$ ]] || die "--parcels must be a positive number"
[[ "$REVOCATION_IN_FLIGHT" =~ ^[1-9][0-9]*$ ]] || die "--revocation-in-flight must be a positive number"
[[ "$SCALE_SERVERS" =~ ^[1-9][0-9]*$ ]] || die "--scale-servers must be a positive number"
case "$ONLY" in
    ""|throughput|supersession|memory|credentials|cpu|scale|latency) ;;
    *) die "--only takes throughput, supersession, memory, credentials, cpu, scale or latency" ;;
esac
PARCEL_ARGS=()
[[ -n "$PARCELS" ]] && PARCEL_ARGS=(--parcels "$PARCELS")
WRK="$(command -v wrk || true)"
[[ -n "$WRK" && -x "$WRK" ]] || die "wrk is missing: run scripts/setup-deps (Debian package wrk)"

# --- build --------------------------------------------------------------------------------
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    command -v swift >/dev/null || die "no swift on PATH"
    for library in rdkafka libcurl; do
        pkg-config --exists "$library" || die "$library is missing (run scripts/setup-deps)"
    done
    if [[ -z "${QUERY_WORKER:-}" ]]; then
        log "building query-worker (release, scratch path $SCRATCH)"
        (cd "$ROOT" && swift build -c release --product query-worker --scratch-path "$SCRATCH")
    fi
    log "building sample-feature-server (release, scratch path $SCRATCH)"
    (cd "$ROOT" && swift build -c release --product sample-feature-server --scratch-path "$SCRATCH")
    log "building worker-benchmark (release, scratch path $SCRATCH)"
    (cd "$ROOT" && swift build -c release --product worker-benchmark --scratch-path "$SCRATCH")
fi
# The Python peer's packages (cpu), into the repository's virtual environment, as run-arcgis-benchmark.sh does.
REQUIREMENTS="$BENCH/requirements-bench.txt"
VENV="$ROOT/.venv"
if [[ -z "${PYTHON:-}" && ( -z "$ONLY" || "$ONLY" == cpu ) ]]; then
    if ! [[ -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
        log "creating the Python virtual environment $VENV"
        rm -rf "$VENV"
        python3 -m venv "$VENV" >&2 || { rm -rf "$VENV"; /usr/bin/python3 -m venv "$VENV" >&2; } \
            || die "python3 -m venv failed (apt-get install python3-venv)"
    fi
    if ! "$VENV/bin/python" -c 'import aiokafka, aiohttp' >/dev/null 2>&1; then
        log "installing $REQUIREMENTS into $VENV"
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQUIREMENTS" >&2
    fi
fi
PYTHON="${PYTHON:-$VENV/bin/python}"
QUERY_WORKER="${QUERY_WORKER:-$SCRATCH/release/query-worker}"
SERVER="$SCRATCH/release/sample-feature-server"
BENCHMARK="$SCRATCH/release/worker-benchmark"
for binary in "$QUERY_WORKER" "$SERVER" "$BENCHMARK"; do
    [[ -x "$binary" ]] || die "missing $binary (run without SKIP_BUILD=1)"
done

# The C floor of the cpu benchmark: compiled here (a second) unless SKIP_BUILD=1 finds it newer than its source.
FLOOR="$BENCH/bin/floor_worker"
if [[ -z "$ONLY" || "$ONLY" == cpu ]]; then
    if [[ "${SKIP_BUILD:-0}" != 1 || ! -x "$FLOOR" || "$BENCH/c/floor_worker.c" -nt "$FLOOR" ]]; then
        pkg-config --exists rdkafka libcurl || die "librdkafka or libcurl is missing (run scripts/setup-deps)"
        log "compiling the C floor ($FLOOR)"
        mkdir -p "$BENCH/bin"
        cc -std=c11 -O2 -Wall -Wextra -o "$FLOOR" "$BENCH/c/floor_worker.c" $(pkg-config --cflags --libs rdkafka libcurl)
    fi
fi

# --- servers ------------------------------------------------------------------------------
WORK="$(mktemp -d /tmp/worker-benchmark.XXXXXX)"
source "$(dirname "${BASH_SOURCE[0]}")/lib/sample-server.sh"

# How idle the CPUs are over one second: other work on this machine makes the figures noisy.
check_idle() {
    local idle
    idle=$(idle_percent)
    if (( idle < 85 )); then
        log "WARNING: the CPUs are only $idle% idle before the $1 benchmark; other processes will distort the figures:"
        ps -eo pcpu,pid,comm --sort=-pcpu | sed -n '2,4p' | sed 's/^/    /' >&2
    else
        log "CPUs $idle% idle before the $1 benchmark"
    fi
}

# The driver, pinned to the worker CPUs when they are set (its mock Kafka cluster and reader belong to the
# worker's side).
driver() {
    local pin=()
    [[ -n "$WORKER_CPUS" ]] && pin=(taskset -c "$WORKER_CPUS")
    "${pin[@]}" "$BENCHMARK" "$@"
}

COMMON=(--query-worker "$QUERY_WORKER" --repetitions "$REPETITIONS" "${STRICT[@]}")
log "query-worker: $QUERY_WORKER"
log "$(swift --version 2>/dev/null | head -n 1); $("$WRK" --version 2>&1 | head -1 | awk '{print $1, $2}'); $CPU_COUNT CPUs; load:$(uptime | sed 's/.*load average://')"

status=0
if [[ -z "$ONLY" || "$ONLY" == throughput ]]; then
    check_idle throughput
    start_server throughput "${PARCEL_ARGS[@]}"
    driver throughput --server-url "$SERVER_URL" --server-pid "$SERVER_PID" --requests "$REQUESTS" --wrk "$WRK" \
        --worker-cpus "$WORKER_CPUS" "${COMMON[@]}" ${THROUGHPUT_ARGS:-} || status=1
    stop_server
    echo
fi
if [[ -z "$ONLY" || "$ONLY" == supersession ]]; then
    check_idle supersession
    "$BENCHMARK" supersession --supersessions "$SUPERSESSIONS" "${COMMON[@]}" || status=1
    echo
fi
if [[ -z "$ONLY" || "$ONLY" == memory ]]; then
    check_idle memory
    start_server memory --parcels 100000 --fault "latency:ms=600000,path=FeatureServer/0/query"
    driver memory --server-url "$SERVER_URL" --server-pid "$SERVER_PID" --worker-cpus "$WORKER_CPUS" "${COMMON[@]}" \
        ${MEMORY_ARGS:-} || status=1
    stop_server
    echo
fi
if [[ -z "$ONLY" || "$ONLY" == credentials ]]; then
    check_idle credentials
    # The revocation server first (its URL is only passed on), then the throughput server, whose CPU time counts.
    start_server revocation --secure "${PARCEL_ARGS[@]}" \
        --fault "latency:ms=$REVOCATION_LATENCY_MS,path=Secured/LA_County_Parcels/FeatureServer/0/query"
    REVOCATION_URL="$SERVER_URL"
    REVOCATION_PID="$SERVER_PID"
    SERVER_PID=""
    trap 'SERVER_PID="$REVOCATION_PID" stop_server; cleanup' EXIT
    start_server credentials --secure "${PARCEL_ARGS[@]}"
    driver credentials --server-url "$SERVER_URL" --server-pid "$SERVER_PID" --requests "$REQUESTS" \
        --revocation-server-url "$REVOCATION_URL" --revocation-latency-ms "$REVOCATION_LATENCY_MS" \
        --revocation-in-flight "$REVOCATION_IN_FLIGHT" --worker-cpus "$WORKER_CPUS" "${COMMON[@]}" ${CREDENTIALS_ARGS:-} || status=1
    stop_server
    SERVER_PID="$REVOCATION_PID"
    stop_server
    trap cleanup EXIT
fi
if [[ -z "$ONLY" || "$ONLY" == cpu ]]; then
    check_idle cpu
    start_server cpu --parcels 200000
    otlp=()
    if [[ "${OTLP:-0}" == 1 ]]; then
        # The tracing side's OTLP/HTTP sink, on the server's CPU (its work is the collector's, not the worker's).
        OTLP_PORT="${OTLP_PORT:-14318}"
        sink_pin=()
        [[ -n "$SERVER_CPUS" ]] && sink_pin=(taskset -c "$SERVER_CPUS")
        "${sink_pin[@]}" "$PYTHON" "$BENCH/python/otlp_sink.py" --port "$OTLP_PORT" &
        OTLP_PID=$!
        otlp=(--otlp-endpoint "http://127.0.0.1:$OTLP_PORT/v1/traces")
    fi
    driver cpu --server-url "$SERVER_URL" --server-pid "$SERVER_PID" --python "$PYTHON" \
        --peer-script "$BENCH/python/peer_worker.py" --floor-worker "$FLOOR" --worker-cpus "$WORKER_CPUS" "${COMMON[@]}" \
        "${otlp[@]}" ${CPU_ARGS:-} || status=1
    [[ -n "${OTLP_PID:-}" ]] && { kill "$OTLP_PID" 2>/dev/null; wait "$OTLP_PID" 2>/dev/null || true; }
    stop_server
    echo
fi
if [[ -z "$ONLY" || "$ONLY" == scale ]]; then
    check_idle scale
    SCALE_PIDS=()
    scale_args=()
    stop_scale_servers() {
        local pid
        for pid in "${SCALE_PIDS[@]}"; do SERVER_PID="$pid" stop_server; done
        SCALE_PIDS=()
    }
    trap 'stop_scale_servers; cleanup' EXIT
    for ((index = 1; index <= SCALE_SERVERS; index++)); do
        start_server "scale$index" --parcels 200000
        SCALE_PIDS+=("$SERVER_PID")
        scale_args+=(--server-url "$SERVER_URL" --server-pid "$SERVER_PID")
        SERVER_PID=""
    done
    driver scale "${scale_args[@]}" --requests "$REQUESTS" --worker-cpus "$WORKER_CPUS" "${COMMON[@]}" ${SCALE_ARGS:-} || status=1
    stop_scale_servers
    trap cleanup EXIT
    echo
fi
if [[ -z "$ONLY" || "$ONLY" == latency ]]; then
    check_idle latency
    "$BENCHMARK" latency --peer-query-worker "${PEER_QUERY_WORKER:-}" "${COMMON[@]}" || status=1
    echo
fi
log "load after the run:$(uptime | sed 's/.*load average://')"
(( status == 0 )) || log "FAILED (see above)"
exit "$status"
