#!/usr/bin/env bash
# Kafka throughput benchmark: the Swift bridge (module Kafka) against the C client (librdkafka) alone, on the
# embedded (mock) cluster in a process of its own. Not run by CI.
#
#   Benchmarks/run-kafka-benchmark.sh [kafka-benchmark options]
#   e.g. Benchmarks/run-kafka-benchmark.sh --messages 100000 --repetitions 5
#
# Builds, each in release and in its own build folder:
#   - query-worker (serves the cluster: `query-worker embedded-kafka`) in .build-bench
#     (not .build, so as not to collide with other builds of the main package),
#   - the C baseline Benchmarks/c/kafka_bench.c into Benchmarks/bin/kafka_bench,
#   - kafka-benchmark (a target of the main package) in the same scratch path,
# then runs kafka-benchmark, which prints each run and a table with the Swift/C ratios.
# Set SKIP_BUILD=1 to reuse what was built last time.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="$ROOT/.build-bench"

log() { printf 'run-kafka-benchmark: %s\n' "$*" >&2; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    command -v swift >/dev/null || { log "no swift on PATH"; exit 1; }
    pkg-config --exists rdkafka || { log "librdkafka is missing: apt-get install librdkafka-dev (or run scripts/setup-deps)"; exit 1; }

    log "building query-worker (release, scratch path $SCRATCH)"
    (cd "$ROOT" && swift build -c release --product query-worker --scratch-path "$SCRATCH")

    log "compiling the C client benchmark"
    mkdir -p "$BENCH/bin"
    cc -O2 -Wall -o "$BENCH/bin/kafka_bench" "$BENCH/c/kafka_bench.c" $(pkg-config --cflags --libs rdkafka)

    log "building kafka-benchmark (release)"
    (cd "$ROOT" && swift build -c release --product kafka-benchmark --scratch-path "$SCRATCH")
fi

QUERY_WORKER="$SCRATCH/release/query-worker"
KAFKA_BENCHMARK="$SCRATCH/release/kafka-benchmark"
C_CLIENT="$BENCH/bin/kafka_bench"
for binary in "$QUERY_WORKER" "$KAFKA_BENCHMARK" "$C_CLIENT"; do
    [[ -x "$binary" ]] || { log "missing $binary (run without SKIP_BUILD=1)"; exit 1; }
done

log "running: kafka-benchmark $*"
exec "$KAFKA_BENCHMARK" --c-client "$C_CLIENT" --query-worker "$QUERY_WORKER" "$@"
