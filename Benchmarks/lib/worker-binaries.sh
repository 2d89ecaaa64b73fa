# Shared by the scripts that run `query-worker` and `sample-feature-server` release builds as processes of their
# own (Benchmarks/run-crash-duplicates.sh, Benchmarks/run-exactly-once-benchmark.sh). Source it after defining
# `log` and `die`.

# worker_binaries ROOT SCRATCH: builds both products in release (unless SKIP_BUILD=1) with that scratch path, and
# sets QUERY_WORKER and SERVER to them.
worker_binaries() {
    local root="$1" scratch="$2"
    if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
        log "building query-worker and sample-feature-server (release, scratch path $scratch)"
        (cd "$root" && swift build -c release --product query-worker --scratch-path "$scratch" \
            && swift build -c release --product sample-feature-server --scratch-path "$scratch") >&2
    fi
    QUERY_WORKER="$scratch/release/query-worker"
    SERVER="$scratch/release/sample-feature-server"
    local binary
    for binary in "$QUERY_WORKER" "$SERVER"; do [[ -x "$binary" ]] || die "missing $binary (run without SKIP_BUILD=1)"; done
}
