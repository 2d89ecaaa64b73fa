#!/usr/bin/env bash
# Duplicates after crashes: how many requests are answered twice when a worker of a group is
# killed with SIGKILL and restarted, and which kill each duplicate belongs to. Not run by CI.
#
#   Benchmarks/run-crash-duplicates.sh
#
# Starts, as separate processes: `query-worker embedded-kafka` (the requests topic with PARTITIONS partitions,
# results 12, errors 3), `sample-feature-server --parcels 200000`, and WORKERS `query-worker run` processes in one
# group (w1, w2, ...; JSON logs, one file per process incarnation). Then Benchmarks/python/crash_duplicates.py
# publishes REQUESTS count requests (1=1 on LA_County_Parcels/FeatureServer/0, keyed by requestId) spread over
# PRODUCE_SECONDS, reads every outcome back from the results and errors topics (no group) and samples the group's
# committed offsets every 100 ms. Meanwhile worker VICTIM is killed with SIGKILL every INTERVAL seconds and
# restarted at once, KILLS times. The driver stops once every request has an outcome, the kills are over and
# SETTLE more seconds passed (late duplicates), or at TIMEOUT.
#
# Prints: requests, outcomes (by status), distinct requests answered, lost, duplicated requests (count and % of
# requests) and the status sequences of the duplicates; per kill: the request partitions the killed worker held
# (from its log's assigned/revoked lines; also all it was assigned in its life: a rebalance may have taken them before
# the kill), the duplicates attributed to it (first answer before the kill, second
# after), how many of those were in its partitions, first answered by it, and not yet covered by the group's
# committed offset at the kill, how long before the kill their first answer was published, and the committed
# offsets at the kill, when the restarted worker was assigned partitions again, when the partitions it held were
# answered again, and how often the other workers were revoked meanwhile (rebalances). Then "recovery:" (median and
# max time to answers on the killed worker's partitions). The last line is "duplicates: N of M requests (P%)".
# The run's files stay in WORK (printed at the end; KEEP=0 removes them): requests.jsonl (partition/offset of
# each request), outcomes.jsonl, commits.jsonl, kills.jsonl, duplicates.jsonl, logs/wN.K.jsonl, kafka.err.
#
# Environment: REQUESTS (2000), KILLS (8), INTERVAL (3 s), WORKERS (3), VICTIM (1), PARTITIONS (6),
# PRODUCE_SECONDS (default KILLS*INTERVAL, so every kill meets traffic; 0 publishes everything at once), SETTLE
# (15 s), TIMEOUT (300 s), SERVER_LATENCY_MS (0: the sample server's --latency-ms), WORKER_ARGS (more `run`
# options, say "--kafka session.timeout.ms=6000"; applied to every worker), STATIC=1 (`--static-membership true`:
# group.instance.id is the worker id wN, so a restart within the session timeout takes its old place without a
# rebalance; the transactional cluster's coordinator implements it, the stock mock ignores it), LOG_LEVEL (info; debug adds librdkafka's own rebalance lines), PYTHON (default: the repository's .venv, with
# aiokafka from Benchmarks/requirements-bench.txt), WORKER_SCRATCH (scratch path of the release builds, default
# .build-bench-worker), SKIP_BUILD=1 (use what is built there), WORK (the run's directory).
# CLUSTER=transactional serves the embedded cluster from scripts/build-transactional-kafka's librdkafka (loaded
# with LD_LIBRARY_PATH; KAFKA_LIB_DIR names another build's folder): it keeps transactional offset commits, and
# its group coordinator accepts commits of the current generation during a join round, as a broker does (the
# stock mock refuses them for the whole round). EXACTLY_ONCE=1 runs the workers with --exactly-once on it and
# reads outcomes with isolation.level=read_committed.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="${WORKER_SCRATCH:-$ROOT/.build-bench-worker}"
REQUESTS="${REQUESTS:-2000}"
KILLS="${KILLS:-8}"
INTERVAL="${INTERVAL:-3}"
WORKERS="${WORKERS:-3}"
VICTIM="${VICTIM:-1}"
PARTITIONS="${PARTITIONS:-6}"
PRODUCE_SECONDS="${PRODUCE_SECONDS:-$((KILLS * INTERVAL))}"
SETTLE="${SETTLE:-15}"
TIMEOUT="${TIMEOUT:-300}"
SERVER_LATENCY_MS="${SERVER_LATENCY_MS:-0}"
LOG_LEVEL="${LOG_LEVEL:-info}"
GROUP="crash-duplicates-$$"
EXACTLY_ONCE="${EXACTLY_ONCE:-0}"
CLUSTER="${CLUSTER:-stock}"
[[ "$EXACTLY_ONCE" == 1 ]] && CLUSTER=transactional
[[ "$CLUSTER" == stock || "$CLUSTER" == transactional ]] || die "CLUSTER must be stock or transactional"

log() { printf 'run-crash-duplicates: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0; }
for name in REQUESTS KILLS WORKERS VICTIM PARTITIONS; do
    [[ "${!name}" =~ ^[0-9]+$ ]] || die "$name must be a number"
done
(( VICTIM >= 1 && VICTIM <= WORKERS )) || die "VICTIM must be 1 to WORKERS"

source "$(dirname "${BASH_SOURCE[0]}")/lib/worker-binaries.sh"
worker_binaries "$ROOT" "$SCRATCH"
source "$BENCH/lib/bench-python.sh"
bench_python "$ROOT" aiokafka

WORK="${WORK:-$(mktemp -d /tmp/crash-duplicates.XXXXXX)}"
mkdir -p "$WORK/logs"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}" ${WORKER_PIDS[@]+"${WORKER_PIDS[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ "${KEEP:-1}" == 1 ]] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

source "$(dirname "${BASH_SOURCE[0]}")/lib/first-line.sh"

KAFKA_ENV=()
ISOLATION=read_uncommitted
if [[ "$CLUSTER" == transactional ]]; then
    KAFKA_LIB_DIR="${KAFKA_LIB_DIR:-$(cd "$ROOT" && scripts/build-transactional-kafka | tail -n 1 | xargs dirname)}"
    [[ -f "$KAFKA_LIB_DIR/librdkafka.so.1" ]] || die "no librdkafka.so.1 in $KAFKA_LIB_DIR"
    KAFKA_ENV=(env "LD_LIBRARY_PATH=$KAFKA_LIB_DIR")
fi
if [[ "$EXACTLY_ONCE" == 1 ]]; then
    ISOLATION=read_committed
    # A killed worker's open transaction blocks read_committed readers of its partitions until its restart
    # (same worker id, same transactional.id) fences it: at once here.
    WORKER_ARGS="--exactly-once true ${WORKER_ARGS:-}"
fi
"${KAFKA_ENV[@]}" "$QUERY_WORKER" embedded-kafka --topic "feature-queries:$PARTITIONS" --topic feature-query-results:12 \
    --topic feature-query-errors:3 >"$WORK/kafka.out" 2>"$WORK/kafka.err" &
PIDS+=($!)
BOOTSTRAP="$(first_line "$WORK/kafka.out" "${PIDS[-1]}")"
"$SERVER" --log-level warning --parcels 200000 --latency-ms "$SERVER_LATENCY_MS" >"$WORK/server.out" 2>"$WORK/server.err" &
PIDS+=($!)
SERVER_URL="$(first_line "$WORK/server.out" "${PIDS[-1]}")"
log "Kafka $BOOTSTRAP, server $SERVER_URL, work $WORK"

declare -a WORKER_PIDS INCARNATION
start_worker() {  # start_worker INDEX
    local index="$1"
    INCARNATION[$index]=$(( ${INCARNATION[$index]:-0} + 1 ))
    local static=()
    [[ "${STATIC:-0}" == 1 ]] && static=(--static-membership true)
    # Outcomes uncompressed: the driver's aiokafka has no zstd codec (compression has no part in redelivery).
    # shellcheck disable=SC2086
    "$QUERY_WORKER" run --bootstrap-servers "$BOOTSTRAP" --allowed-hosts 127.0.0.1 --group-id "$GROUP" \
        --worker-id "w$index" --log-level "$LOG_LEVEL" --kafka compression.type=none "${static[@]}" ${WORKER_ARGS:-} \
        >"$WORK/logs/w$index.${INCARNATION[$index]}.jsonl" 2>&1 &
    WORKER_PIDS[$index]=$!
}
for ((index = 1; index <= WORKERS; index++)); do start_worker "$index"; done
# Let the group form before the requests come (the first join waits for the others: a few seconds).
started=$SECONDS
until (( $(cat "$WORK"/logs/w*.1.jsonl | grep -c '"message":"partitions assigned"') >= WORKERS )) \
    || (( SECONDS - started > 60 )); do sleep 0.2; done

"$PYTHON" "$BENCH/python/crash_duplicates.py" collect --work "$WORK" --bootstrap "$BOOTSTRAP" --group "$GROUP" \
    --layer-url "$SERVER_URL/LA_County_Parcels/FeatureServer/0" --requests "$REQUESTS" --partitions "$PARTITIONS" \
    --produce-seconds "$PRODUCE_SECONDS" --isolation-level "$ISOLATION" --settle "$SETTLE" --timeout "$TIMEOUT" &
DRIVER=$!
: >"$WORK/kills.jsonl"
sleep "$INTERVAL"
for ((kill = 1; kill <= KILLS; kill++)); do
    pid="${WORKER_PIDS[$VICTIM]}"
    logfile="$WORK/logs/w$VICTIM.${INCARNATION[$VICTIM]}.jsonl"
    kill -KILL "$pid" 2>/dev/null || true
    at=$(date +%s%3N)
    wait "$pid" 2>/dev/null || true  # (bash reports the kill on standard error)
    printf '{"kill":%d,"tMs":%s,"worker":"w%d","pid":%d,"log":"%s"}\n' "$kill" "$at" "$VICTIM" "$pid" "$logfile" \
        >>"$WORK/kills.jsonl"
    start_worker "$VICTIM"
    log "kill $kill: w$VICTIM pid $pid killed, restarted as pid ${WORKER_PIDS[$VICTIM]}"
    (( kill < KILLS )) && sleep "$INTERVAL"
done
touch "$WORK/kills-done"
wait "$DRIVER" || log "the driver failed (status $?)"
"$PYTHON" "$BENCH/python/crash_duplicates.py" report --work "$WORK"
log "files: $WORK"
