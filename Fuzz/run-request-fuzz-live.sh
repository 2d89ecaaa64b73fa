#!/usr/bin/env bash
# The request fuzzer through a live worker: hostile messages on the requests topic of a
# running `query-worker run`; every message answered exactly once, every invalid one `rejected` with the code
# the decoder gives it, and the worker never crashes. Not run by CI (WorkerHostileInputEndToEndTests runs a
# small version there).
#
#   Fuzz/run-request-fuzz-live.sh                 30,000 messages, seed 16016
#   MESSAGES=50000 SEED=3 Fuzz/run-request-fuzz-live.sh
#
# Starts, as separate processes from release builds: `query-worker embedded-kafka` (requests 6 partitions,
# results 12, errors 3), `sample-feature-server`, and one `query-worker run` (allowedHosts 127.0.0.1, outcomes
# uncompressed for aiokafka). `RequestFuzz generate` writes MESSAGES messages (seed SEED, unique ids, the
# examples' services moved to the sample server, values at most MAX_BYTES) with the answer the decoder gives
# each offline. embedded-kafka keeps only the last ~5 MiB of a partition, so the driver publishes in windows
# of 1 MiB, each once the outcomes due for the earlier ones arrived (else the cluster drops messages unread)
# Benchmarks/python/request_fuzz_live.py publishes them and
# reads every outcome back (see its docstring for the checks). Then the worker must still be the first
# process started (never restarted, `kill -0`); its peak RSS (VmHWM) is printed.
#
# Environment: MESSAGES (30000), SEED (16016), MAX_BYTES (200000), TIMEOUT (900 s), SETTLE (10 s), PARCELS (1000:
# the sample server's, small so that the examples' whole-layer queries finish in seconds), PYTHON
# (default: the repository's .venv with aiokafka, Benchmarks/requirements-bench.txt), WORKER_SCRATCH (scratch
# path of query-worker and sample-feature-server, default .build-bench-worker), FUZZ_SCRATCH (RequestFuzz's,
# default .build-request-fuzz), SKIP_BUILD=1 (use what is built), WORK (the run's directory, kept).
set -euo pipefail

FUZZ="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$FUZZ")"
SCRATCH="${WORKER_SCRATCH:-$ROOT/.build-bench-worker}"
FUZZ_SCRATCH="${FUZZ_SCRATCH:-$ROOT/.build-request-fuzz}"
MESSAGES="${MESSAGES:-30000}"
SEED="${SEED:-16016}"
MAX_BYTES="${MAX_BYTES:-200000}"
TIMEOUT="${TIMEOUT:-900}"
SETTLE="${SETTLE:-10}"
PARCELS="${PARCELS:-1000}"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"

log() { printf 'run-request-fuzz-live: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building query-worker, sample-feature-server (scratch $SCRATCH) and RequestFuzz (scratch $FUZZ_SCRATCH), release"
    (cd "$ROOT" && swift build -c release --product query-worker --scratch-path "$SCRATCH" \
        && swift build -c release --product sample-feature-server --scratch-path "$SCRATCH" \
        && swift build -c release --product RequestFuzz --scratch-path "$FUZZ_SCRATCH") >&2
fi
QUERY_WORKER="$SCRATCH/release/query-worker"
SERVER="$SCRATCH/release/sample-feature-server"
TOOL="$FUZZ_SCRATCH/release/RequestFuzz"
for binary in "$QUERY_WORKER" "$SERVER" "$TOOL"; do [[ -x "$binary" ]] || die "missing $binary (run without SKIP_BUILD=1)"; done
"$PYTHON" -c 'import aiokafka' 2>/dev/null || die "$PYTHON has no aiokafka (pip install -r Benchmarks/requirements-bench.txt)"

WORK="${WORK:-$(mktemp -d /tmp/request-fuzz-live.XXXXXX)}"
mkdir -p "$WORK"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

source "$ROOT/Benchmarks/lib/first-line.sh"

"$QUERY_WORKER" embedded-kafka --topic feature-queries:6 --topic feature-query-results:12 \
    --topic feature-query-errors:3 >"$WORK/kafka.out" 2>"$WORK/kafka.err" &
PIDS+=($!)
BOOTSTRAP="$(first_line "$WORK/kafka.out" "${PIDS[-1]}")"
"$SERVER" --log-level warning --parcels "$PARCELS" >"$WORK/server.out" 2>"$WORK/server.err" &
PIDS+=($!)
SERVER_URL="$(first_line "$WORK/server.out" "${PIDS[-1]}")"
log "Kafka $BOOTSTRAP, server $SERVER_URL, work $WORK"

"$TOOL" generate --count "$MESSAGES" --seed "$SEED" --id-prefix "fz$SEED" --url-base "$SERVER_URL" \
    --max-bytes "$MAX_BYTES" --out "$WORK/messages.jsonl" >&2

"$QUERY_WORKER" run --bootstrap-servers "$BOOTSTRAP" --allowed-hosts 127.0.0.1 --group-id "request-fuzz-$$" \
    --worker-id fuzz-1 --kafka compression.type=none >"$WORK/worker.jsonl" 2>&1 &
WORKER=$!
PIDS+=("$WORKER")
started=$SECONDS
until grep -q '"message":"partitions assigned"' "$WORK/worker.jsonl" 2>/dev/null; do
    kill -0 "$WORKER" 2>/dev/null || die "the worker exited at start (see $WORK/worker.jsonl)"
    (( SECONDS - started < 60 )) || die "the worker was assigned no partitions in 60 s"
    sleep 0.2
done

status=0
"$PYTHON" "$ROOT/Benchmarks/python/request_fuzz_live.py" --messages "$WORK/messages.jsonl" --bootstrap "$BOOTSTRAP" \
    --timeout "$TIMEOUT" --settle "$SETTLE" --work "$WORK" | tee "$WORK/report.txt" || status=$?
if kill -0 "$WORKER" 2>/dev/null; then
    log "worker: alive, never restarted (pid $WORKER), $(grep -c '"level":"error"' "$WORK/worker.jsonl" || true) error lines"
    log "worker max RSS: $(awk '/VmHWM/ {printf "%.1f MiB", $2 / 1024}' "/proc/$WORKER/status")"
else
    log "the worker DIED (see $WORK/worker.jsonl)"
    status=1
fi
log "files: $WORK"
exit "$status"
