#!/usr/bin/env bash
# Checks the transactions patch end to end: builds the patched librdkafka (scripts/build-transactional-kafka),
# builds txn_check.c against the system librdkafka 2.0.2 (the client side), starts
#   LD_LIBRARY_PATH=<patched lib dir> query-worker embedded-kafka --brokers 3 ... --fault-commands
# and runs: txn_check (checks A..J), one transaction with injected EndTxn/AddPartitionsToTxn errors, one with every
# broker down for 3 s, and aiokafka read_committed/read_uncommitted with CRC checks on. Prints PASS/FAIL per check;
# exits non-zero if any failed.
#
#   check.sh [QUERY_WORKER_BINARY]     default: $QUERY_WORKER_BIN, else <repo>/.build/debug/query-worker
#                                      (build it with `swift build --product query-worker`)
# Env: QUERY_WORKER_PYTHON  a Python with aiokafka (default <repo>/.venv/bin/python, else python3)
#      TXN_CHECK_UNPATCHED=1  run against the system librdkafka's mock instead (to see the checks fail there)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BIN="${1:-${QUERY_WORKER_BIN:-$ROOT/.build/debug/query-worker}}"
PYTHON="${QUERY_WORKER_PYTHON:-}"
if [[ -z "$PYTHON" ]]; then
    if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi
[[ -x "$BIN" ]] || { echo "check.sh: no query-worker binary at $BIN (swift build --product query-worker)" >&2; exit 2; }

WORK="$(mktemp -d)"
cluster_pid=""
cleanup() {
    exec 3>&- 2>/dev/null || true # end of fault-command input stops the cluster
    if [[ -n "$cluster_pid" ]]; then
        for _ in $(seq 50); do kill -0 "$cluster_pid" 2>/dev/null || break; sleep 0.1; done
        kill "$cluster_pid" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

if [[ "${TXN_CHECK_UNPATCHED:-}" == 1 ]]; then
    libdir=""
    echo "check.sh: UNPATCHED run (system librdkafka's mock cluster)"
else
    lib="$("$ROOT/scripts/build-transactional-kafka" | tail -1)"
    libdir="$(dirname "$lib")"
fi
gcc -O1 -Wall -o "$WORK/txn_check" "$HERE/txn_check.c" -lrdkafka

mkfifo "$WORK/faults"
LD_LIBRARY_PATH="$libdir" "$BIN" embedded-kafka --brokers 3 --topic txn-multi:4 --topic txn-errors:1 \
    --topic txn-down:1 --topic txn-aiokafka:1 --fault-commands < "$WORK/faults" > "$WORK/cluster.out" \
    2> "$WORK/cluster.err" &
cluster_pid=$!
exec 3> "$WORK/faults"
for _ in $(seq 300); do [[ -s "$WORK/cluster.out" ]] && break; sleep 0.1; done
BOOT="$(head -1 "$WORK/cluster.out")"
[[ -n "$BOOT" ]] || { echo "check.sh: cluster did not start" >&2; cat "$WORK/cluster.err" >&2; exit 2; }
if [[ -n "$libdir" ]] && ! grep -q "$libdir/librdkafka.so.1" "/proc/$cluster_pid/maps"; then
    echo "check.sh: the cluster did not load $libdir/librdkafka.so.1" >&2
    exit 2
fi
echo "check.sh: cluster $BOOT (pid $cluster_pid, LD_LIBRARY_PATH=${libdir:-unset})"

# fault COMMAND...: send one fault command, wait for its answer line, fail unless it is "ok ...".
fault() {
    local before
    before="$(wc -l < "$WORK/cluster.out")"
    echo "$*" >&3
    for _ in $(seq 100); do
        (($(wc -l < "$WORK/cluster.out") > before)) && break
        sleep 0.1
    done
    tail -1 "$WORK/cluster.out" | grep -q '^ok' || { echo "check.sh: fault command '$*': $(tail -1 "$WORK/cluster.out")" >&2; exit 2; }
}

results="$WORK/results"
: > "$results"
run() { "$@" 2>> "$WORK/clients.err" | tee -a "$results" | grep -v '^  \[' || true; }

# J runs on txn-multi, whose partitions get leaders on all three brokers.
fault leader txn-multi 0 1
fault leader txn-multi 1 2
fault leader txn-multi 2 3
fault leader txn-multi 3 1
TXN_CHECK_MULTI_TOPIC=txn-multi run "$WORK/txn_check" "$BOOT"

# Fault injection still works with transactions: retriable errors on the transaction coordinator's requests
# (51 = CONCURRENT_TRANSACTIONS), then every broker down for 3 s while a transaction starts.
fault errors 24 51,51 # AddPartitionsToTxn
fault errors 26 51,51 # EndTxn
run "$WORK/txn_check" --one "$BOOT" txn-errors "K1 transaction committed through injected CONCURRENT_TRANSACTIONS errors"
fault down all
(sleep 3; echo "up all" >&3) &
up_pid=$!
run "$WORK/txn_check" --one "$BOOT" txn-down "K2 transaction committed after every broker was down for 3 s"
wait "$up_pid"

# aiokafka (CRC checks on) reads a partition with committed, aborted and open transactions.
"$WORK/txn_check" --seed "$BOOT" txn-aiokafka 15 > "$WORK/seed.out" 2>> "$WORK/clients.err" &
seed_pid=$!
for _ in $(seq 300); do grep -q OPEN "$WORK/seed.out" && break; sleep 0.1; done
run "$PYTHON" "$HERE/aiokafka_check.py" "$BOOT" txn-aiokafka 4
wait "$seed_pid" || echo "FAIL seed producer (txn_check --seed)" | tee -a "$results"

passed="$(grep -c '^PASS' "$results" || true)"
failed="$(grep -c '^FAIL' "$results" || true)"
echo "check.sh: $passed passed, $failed failed"
((failed == 0 && passed >= 16)) # A..G, H1 H2, I1 I2, J, K1 K2, 2 aiokafka
