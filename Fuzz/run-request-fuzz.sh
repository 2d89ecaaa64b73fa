#!/usr/bin/env bash
# The request fuzzer at scale: a million hostile messages through the worker's decoder.
# Not run by CI (ContractHostileInputTests runs the same generator 20,000 times there).
#
#   Fuzz/run-request-fuzz.sh                      1,000,000 messages, seed 16005
#   COUNT=100000 SEED=7 Fuzz/run-request-fuzz.sh
#
# Builds the RequestFuzz tool (Fuzz/RequestFuzz, the generator of Tests/RequestFuzzing) in release with the
# scratch path FUZZ_SCRATCH (default .build-request-fuzz; SKIP_BUILD=1 uses what is built there), then:
# 1. `RequestFuzz decode`: COUNT messages from the contract's examples (mutated bytes, values and fields, huge
#    numbers, deep nesting, long strings, bad UTF-8, wrong shapes, random bytes; seed SEED) through the decoder
#    as a worker without a credentials file runs it. Prints messages/s, the outcomes by kind and by rejection
#    code, the ill-formed answers (an unknown code, a message not starting with its path, ...) and max RSS;
#    a crash ends the script with the signal's status. Reproduce message I with
#    `$FUZZ_SCRATCH/release/RequestFuzz show --index I --seed SEED`.
# 2. Fuzz/request_fuzz_schema_check.py: every accepted message and every SAMPLE_EVERY-th rejected one against
#    the contract's JSON Schema (accepted must be schema-valid; a schema-valid one rejected only with a code
#    the schema cannot check). SCHEMA=0 skips it. PYTHON: the repository's .venv (jsonschema,
#    rfc3339-validator: scripts/setup-deps).
# Exits non-zero on a crash or any violation. The run's files stay in WORK (printed).
set -euo pipefail

FUZZ="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$FUZZ")"
SCRATCH="${FUZZ_SCRATCH:-$ROOT/.build-request-fuzz}"
COUNT="${COUNT:-1000000}"
SEED="${SEED:-16005}"
SAMPLE_EVERY="${SAMPLE_EVERY:-50}"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
WORK="${WORK:-$(mktemp -d /tmp/request-fuzz.XXXXXX)}"

log() { printf 'run-request-fuzz: %s\n' "$*" >&2; }
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building RequestFuzz (release, scratch path $SCRATCH)"
    (cd "$ROOT" && swift build -c release --product RequestFuzz --scratch-path "$SCRATCH") >&2
fi
TOOL="$SCRATCH/release/RequestFuzz"
[[ -x "$TOOL" ]] || { log "missing $TOOL (run without SKIP_BUILD=1)"; exit 2; }

log "decoding $COUNT messages (seed $SEED); files in $WORK"
SAMPLE_ARGS=()
[[ "${SCHEMA:-1}" == 1 ]] && SAMPLE_ARGS=(--schema-sample "$WORK/schema-sample.jsonl" --sample-every "$SAMPLE_EVERY")
status=0
"$TOOL" decode --count "$COUNT" --seed "$SEED" "${SAMPLE_ARGS[@]}" | tee "$WORK/decode.txt" || status=$?
if (( status > 128 )); then log "the decoder CRASHED (signal $((status - 128))); see above for the last message"; exit "$status"; fi
if [[ "${SCHEMA:-1}" == 1 ]]; then
    "$PYTHON" "$FUZZ/request_fuzz_schema_check.py" "$WORK/schema-sample.jsonl" | tee "$WORK/schema.txt" || status=$?
fi
log "files: $WORK"
exit "$status"
