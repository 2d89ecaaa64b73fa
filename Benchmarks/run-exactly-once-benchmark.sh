#!/usr/bin/env bash
# The throughput cost of --exactly-once. Not run by CI.
#
#   Benchmarks/run-exactly-once-benchmark.sh
#
# Starts the transactional embedded cluster (`query-worker embedded-kafka` with scripts/build-transactional-kafka's
# librdkafka on LD_LIBRARY_PATH) and `sample-feature-server --parcels 20000`, queues REQUESTS count requests, then
# Benchmarks/python/exactly_once_cost.py runs a fresh `query-worker run` over all of them REPETITIONS times per
# side, with and without --exactly-once (sides alternating; each run a new group and its own results topic),
# reading outcomes with isolation.level=read_committed. The peer is the at-least-once worker, measured in the
# same run on the same cluster. Prints requests/s and worker CPU µs/request per run, the medians and the ratios.
# These are the embedded cluster's figures: a transaction costs it a few loopback round trips, a real broker
# more (EndTxn writes markers to each partition and to the transaction log).
#
# Environment: REQUESTS (5000), REPETITIONS (3), MAX_IN_FLIGHT (64), PYTHON (default: the repository's .venv),
# WORKER_SCRATCH (release builds, default .build-bench-worker), SKIP_BUILD=1, WORK (the run's directory).
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="${WORKER_SCRATCH:-$ROOT/.build-bench-worker}"
REQUESTS="${REQUESTS:-5000}"
REPETITIONS="${REPETITIONS:-3}"
MAX_IN_FLIGHT="${MAX_IN_FLIGHT:-64}"

log() { printf 'run-exactly-once-benchmark: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0; }

source "$(dirname "${BASH_SOURCE[0]}")/lib/worker-binaries.sh"
worker_binaries "$ROOT" "$SCRATCH"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
"$PYTHON" -c 'import aiokafka' 2>/dev/null || die "$PYTHON has no aiokafka (pip install -r Benchmarks/requirements-bench.txt)"
LIBRARY="$(cd "$ROOT" && scripts/build-transactional-kafka | tail -n 1)"
[[ -f "$LIBRARY" ]] || die "scripts/build-transactional-kafka did not build the library"

WORK="${WORK:-$(mktemp -d /tmp/exactly-once-cost.XXXXXX)}"
mkdir -p "$WORK"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ "${KEEP:-0}" == 1 ]] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
source "$BENCH/lib/first-line.sh"

topics=(--topic cost-requests:6)
for ((run = 1; run <= 2 * REPETITIONS; run++)); do topics+=(--topic "cost-results-$run:6" --topic "cost-errors-$run:1"); done
LD_LIBRARY_PATH="$(dirname "$LIBRARY")" "$QUERY_WORKER" embedded-kafka --brokers 3 "${topics[@]}" \
    >"$WORK/kafka.out" 2>"$WORK/kafka.err" &
PIDS+=($!)
BOOTSTRAP="$(first_line "$WORK/kafka.out" "${PIDS[-1]}")"
"$SERVER" --log-level warning --parcels 20000 >"$WORK/server.out" 2>"$WORK/server.err" &
PIDS+=($!)
SERVER_URL="$(first_line "$WORK/server.out" "${PIDS[-1]}")"
log "Kafka $BOOTSTRAP (transactional build), server $SERVER_URL, $REQUESTS requests, $REPETITIONS runs per side"

"$PYTHON" "$BENCH/python/exactly_once_cost.py" --bootstrap "$BOOTSTRAP" --query-worker "$QUERY_WORKER" \
    --layer-url "$SERVER_URL/LA_County_Parcels/FeatureServer/0" --work "$WORK" --requests "$REQUESTS" \
    --repetitions "$REPETITIONS" --max-in-flight "$MAX_IN_FLIGHT"
