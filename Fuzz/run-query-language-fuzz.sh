#!/usr/bin/env bash
# Fuzzes the QueryLanguage parser (and the renderers, validator and evaluator behind it) with libFuzzer.
# Not run by CI: run it by hand after changing Sources/QueryLanguage.
#
#   Fuzz/run-query-language-fuzz.sh [libFuzzer options]       e.g. -jobs=2 -workers=2
#   FUZZ_SECONDS=60 Fuzz/run-query-language-fuzz.sh            (default 600: the 10-minute acceptance run)
#
# Builds Fuzz/QueryLanguage/main.swift together with Sources/QueryLanguage/*.swift as one module (SwiftPM
# can't build libFuzzer targets) with `swiftc -sanitize=fuzzer,address`; libFuzzer ships with the Swift
# toolchain. The working corpus grows in .build-fuzz/query-language/corpus (seeded from
# Fuzz/QueryLanguage/seeds); a crash leaves its input in .build-fuzz/query-language/artifacts and the script
# exits non-zero. Reproduce one with: .build-fuzz/query-language/query-language-fuzzer <artifact file>
set -euo pipefail

FUZZ="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$FUZZ")"
WORK="${FUZZ_WORK:-$ROOT/.build-fuzz/query-language}"
SECONDS_TO_RUN="${FUZZ_SECONDS:-600}"
BINARY="$WORK/query-language-fuzzer"

log() { printf 'run-query-language-fuzz: %s\n' "$*" >&2; }

command -v swiftc >/dev/null || { log "no swiftc on PATH"; exit 1; }
mkdir -p "$WORK/corpus" "$WORK/artifacts"
cp -n "$FUZZ/QueryLanguage/seeds/"* "$WORK/corpus/" 2>/dev/null || true

log "compiling $BINARY"
LINKER=()
if command -v ld.lld >/dev/null || [[ -x "$(dirname "$(command -v swiftc)")/ld.lld" ]]; then LINKER=(-use-ld=lld); fi
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -module-name QueryLanguageFuzz "${LINKER[@]}" \
    "$ROOT"/Sources/QueryLanguage/*.swift "$FUZZ"/QueryLanguage/main.swift \
    -o "$BINARY"

log "fuzzing for ${SECONDS_TO_RUN}s"
# Swift's own crash backtracer reads memory ASan considers off limits; let libFuzzer and ASan report alone.
export SWIFT_BACKTRACE=enable=no
# rss_limit_mb: the evaluator and parser must stay small; malloc_limit_mb catches a single huge allocation.
exec "$BINARY" \
    -max_total_time="$SECONDS_TO_RUN" \
    -max_len=4096 \
    -timeout=5 \
    -rss_limit_mb=2048 \
    -malloc_limit_mb=512 \
    -dict="$FUZZ/QueryLanguage/query-language.dict" \
    -artifact_prefix="$WORK/artifacts/" \
    -print_final_stats=1 \
    "$@" \
    "$WORK/corpus"
