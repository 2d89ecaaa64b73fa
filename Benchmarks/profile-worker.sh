#!/usr/bin/env bash
# Where the query worker spends its CPU at load: a measured run and a profiled run of `query-worker run`
# working through `count` requests at 64 in flight against the sample server, then its folded stacks.
#
#   Benchmarks/profile-worker.sh [--label NAME] [--requests N] [--parcels N] [--result count|ids|features] [--envelope M]
#                                [--repetitions N] [--frequency HZ] [--call-graph fp|dwarf] [--no-profile]
#                                [--slice N] [--event EVENT [--period N]]
#
# Driver: Benchmarks/profile/drive_worker.py, per run a fresh `query-worker embedded-kafka` (3-partition
# request, result and error topics), --requests requests queued with kcat, then a fresh `query-worker run`
# (max-in-flight 64, maxRequestsPerHost 64, info-level JSON logs to a file, as the throughput benchmark starts
# it) whose log it follows. CPU per request: the worker's utime+stime (/proc/PID/stat) from outcome 1,000 to
# the last, over the outcomes delivered in between. Self-contained on purpose: it needs the two products
# query-worker and sample-feature-server only, not worker-benchmark (the same figure as
# `worker-benchmark throughput --result count --sides worker`).
#
# 1. measure: --repetitions runs (default 3), no profiler: the figure to compare, and its median.
#    --slice N also prints CPU per request for every N outcomes of each run: does the cost drift as a run goes on?
#    --envelope M sets the map view's side (meters, default 200); 60000 gives ~20,000 ids an `ids` request, as the
#    CPU benchmark's ids kind; `--result features --envelope 1200` is its features kind (maxFeatures 100, geometry).
# 2. profile: one more run with `perf record -g -F --frequency` attached to the worker from outcome 1,000 to
#    the last (the steady state only). `perf script` -> `swift demangle` -> Benchmarks/profile/folded_stacks.py
#    gives folded stacks (first frame: the thread's name), the top frames and the split by part of the code.
#    A flame graph is drawn from the folded stacks by any renderer (FlameGraph's flamegraph.pl, inferno);
#    Debian packages none, so this script draws none:
#        flamegraph.pl --title "query-worker NAME" /tmp/profile-worker-NAME/stacks.folded > worker-NAME.svg
#
# --event EVENT records every hit of EVENT instead of sampling the CPU: with a uprobe from Benchmarks/perf-probes.sh
# (probe_libc:malloc, probe_libswiftCore:swift_retain, ...) the folded stacks say where each call comes from, and
# its share of the samples is its share of the calls (`--event probe_libc:malloc --call-graph dwarf`). --period N
# records every Nth hit only (dwarf stacks are 16 KB a sample).
#
# The sample server (--parcels, default 200,000) runs pinned to the last CPU; the worker, the cluster, kcat and
# perf on the others (CPU 0 on a 2-CPU machine). Needs linux-perf and kcat; perf_event_paranoid 2 is enough
# (own processes). Builds query-worker and sample-feature-server in release with scratch path
# .build-bench-worker (SKIP_BUILD=1 reuses the last build; QUERY_WORKER=PATH and SAMPLE_SERVER=PATH measure
# other binaries, say main's). Outputs go to PROFILE_OUT (default /tmp/profile-worker-NAME, --label's NAME,
# default "current").
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="${WORKER_SCRATCH:-$ROOT/.build-bench-worker}"

log() { printf 'profile-worker: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

LABEL=current
REQUESTS=20000
PARCELS=200000
RESULT=count
REPETITIONS=3
FREQUENCY=499
CALL_GRAPH=fp
PROFILE=1
SLICE=0
ENVELOPE=200
EVENT=""
PERIOD=1
while (( $# > 0 )); do
    case "$1" in
        --label) LABEL="${2:?--label needs a name}"; shift 2 ;;
        --requests) REQUESTS="${2:?--requests needs a number}"; shift 2 ;;
        --parcels) PARCELS="${2:?--parcels needs a number}"; shift 2 ;;
        --result) RESULT="${2:?--result needs count, ids or features}"; shift 2 ;;
        --repetitions) REPETITIONS="${2:?--repetitions needs a number}"; shift 2 ;;
        --frequency) FREQUENCY="${2:?--frequency needs a number}"; shift 2 ;;
        --call-graph) CALL_GRAPH="${2:?--call-graph needs fp or dwarf}"; shift 2 ;;
        --no-profile) PROFILE=0; shift ;;
        --slice) SLICE="${2:?--slice needs a number}"; shift 2 ;;
        --envelope) ENVELOPE="${2:?--envelope needs meters}"; shift 2 ;;
        --event) EVENT="${2:?--event needs a perf event}"; shift 2 ;;
        --period) PERIOD="${2:?--period needs a number}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
[[ "$LABEL" =~ ^[A-Za-z0-9_-]+$ ]] || die "--label takes letters, digits, - and _"
[[ "$REQUESTS" =~ ^[1-9][0-9]*$ && "$REQUESTS" -gt 1001 ]] || die "--requests must be a number above 1001"
[[ "$SLICE" =~ ^[0-9]+$ ]] || die "--slice must be a number (0: none)"
[[ "$PERIOD" =~ ^[1-9][0-9]*$ ]] || die "--period must be a number above 0"
[[ "$REPETITIONS" =~ ^[0-9]+$ ]] || die "--repetitions must be a number (0: profile only)"
[[ "$RESULT" == count || "$RESULT" == ids || "$RESULT" == features ]] || die "--result takes count, ids or features"
[[ "$CALL_GRAPH" == fp || "$CALL_GRAPH" == dwarf ]] || die "--call-graph takes fp or dwarf"
(( PROFILE == 0 )) || command -v perf >/dev/null || die "perf is missing (Debian package linux-perf)"

CPU_COUNT="$(nproc 2>/dev/null || echo 1)"
SERVER_CPUS=""
WORKER_CPUS=""
if (( CPU_COUNT >= 2 )); then
    SERVER_CPUS="$((CPU_COUNT - 1))"
    WORKER_CPUS="0-$((CPU_COUNT - 2))"
    (( CPU_COUNT == 2 )) && WORKER_CPUS="0"
fi

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    if [[ -z "${QUERY_WORKER:-}" ]]; then
        log "building query-worker (release, scratch path $SCRATCH)"
        (cd "$ROOT" && swift build -c release --product query-worker --scratch-path "$SCRATCH")
    fi
    if [[ -z "${SAMPLE_SERVER:-}" ]]; then
        log "building sample-feature-server (release, scratch path $SCRATCH)"
        (cd "$ROOT" && swift build -c release --product sample-feature-server --scratch-path "$SCRATCH")
    fi
fi
QUERY_WORKER="${QUERY_WORKER:-$SCRATCH/release/query-worker}"
SERVER="${SAMPLE_SERVER:-$SCRATCH/release/sample-feature-server}"
for binary in "$QUERY_WORKER" "$SERVER"; do
    [[ -x "$binary" ]] || die "missing $binary (run without SKIP_BUILD=1)"
done
command -v kcat >/dev/null || die "kcat is missing (Debian package kcat)"

OUT="${PROFILE_OUT:-/tmp/profile-worker-$LABEL}"
mkdir -p "$OUT"
WORK="$(mktemp -d /tmp/profile-worker.XXXXXX)"
source "$BENCH/lib/sample-server.sh"

CLUSTER_PID=""
stop_cluster() {
    if [[ -n "$CLUSTER_PID" ]] && kill -0 "$CLUSTER_PID" 2>/dev/null; then
        kill -TERM "$CLUSTER_PID" 2>/dev/null || true
        wait "$CLUSTER_PID" 2>/dev/null || true
    fi
    CLUSTER_PID=""
}
trap 'stop_cluster; cleanup' EXIT

# run NAME ARGS...: a fresh embedded cluster, then one driven worker run; prints the driver's figure line.
run() {
    local name="$1" pin=()
    shift
    [[ -n "$WORKER_CPUS" ]] && pin=(taskset -c "$WORKER_CPUS")
    "${pin[@]}" "$QUERY_WORKER" embedded-kafka --log-level warning \
        --topic "$name-requests:3" --topic "$name-results:3" --topic "$name-errors:3" \
        >"$WORK/$name.cluster" 2>"$WORK/$name.cluster.err" &
    CLUSTER_PID=$!
    until [[ -s "$WORK/$name.cluster" ]] && (( $(wc -l <"$WORK/$name.cluster") >= 1 )); do
        kill -0 "$CLUSTER_PID" 2>/dev/null || { cat "$WORK/$name.cluster.err" >&2; die "the embedded cluster exited"; }
        sleep 0.1
    done
    "${pin[@]}" python3 "$BENCH/profile/drive_worker.py" --query-worker "$QUERY_WORKER" \
        --bootstrap-servers "$(head -n 1 "$WORK/$name.cluster")" --topic-prefix "$name" \
        --layer-url "$SERVER_URL/LA_County_Parcels/FeatureServer/0" --requests "$REQUESTS" --result "$RESULT" --envelope "$ENVELOPE" \
        --cpus "$WORKER_CPUS" --log "$WORK/$name.log" --slice "$SLICE" "$@"
    stop_cluster
}

log "query-worker: $QUERY_WORKER; $CPU_COUNT CPUs; $(idle_percent)% idle; load:$(uptime | sed 's/.*load average://')"
start_server profile --parcels "$PARCELS"

if (( REPETITIONS > 0 )); then
    log "measuring: $REPETITIONS runs of $REQUESTS $RESULT requests at 64 in flight (no profiler)"
    : >"$OUT/measure.txt"
    for repetition in $(seq "$REPETITIONS"); do
        run "m$repetition" | tee -a "$OUT/measure.txt"
    done
    sed -n 's/^worker:.*CPU \([0-9.]*\) us\/request.*/\1/p' "$OUT/measure.txt" | sort -n \
        | awk '{v[NR] = $1} END {printf "median worker CPU: %s us/request over %d runs (%s %s requests, 64 in flight)\n", v[int((NR + 1) / 2)], NR, "'"$REQUESTS"'", "'"$RESULT"'"}' \
        | tee -a "$OUT/measure.txt"
fi

if (( PROFILE == 1 )); then
    log "profiling: one run of $REQUESTS $RESULT requests, perf record $(if [[ -n "$EVENT" ]]; then echo "-e $EVENT -c $PERIOD"; else echo "-F $FREQUENCY"; fi) ($CALL_GRAPH call graphs)"
    run profiled --perf-data "$OUT/perf.data" --perf-frequency "$FREQUENCY" --perf-call-graph "$CALL_GRAPH" --perf-event "$EVENT" --perf-period "$PERIOD" \
        | tee "$OUT/profiled-run.txt"
    perf script -i "$OUT/perf.data" 2>/dev/null | swift demangle --simplified \
        | python3 "$BENCH/profile/folded_stacks.py" collapse >"$OUT/stacks.folded"
    python3 "$BENCH/profile/folded_stacks.py" top 60 <"$OUT/stacks.folded" >"$OUT/top-inclusive.txt"
    python3 "$BENCH/profile/folded_stacks.py" top --self 60 <"$OUT/stacks.folded" >"$OUT/top-self.txt"
    log "samples: $(awk '{s += $NF} END {print s}' "$OUT/stacks.folded"); folded stacks, top frames: $OUT"
    log "flame graph: render $OUT/stacks.folded with a folded-stacks renderer (flamegraph.pl, inferno-flamegraph)"
    python3 "$BENCH/profile/categorize.py" "$OUT/stacks.folded" >"$OUT/categories.txt"
    echo "where the samples went (first matching part of the code):"; cat "$OUT/categories.txt"
    echo "top frames, self time:"; head -30 "$OUT/top-self.txt"
fi
stop_server
