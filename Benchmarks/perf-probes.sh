#!/usr/bin/env bash
# Defines the uprobes the CPU benchmark's --events can count (as root; idempotent): calls of the C allocator,
# the Swift runtime's reference counting and object allocation, and the concurrency runtime's task creation,
# executor switches (`swift_task_switch`) and job enqueueing, in the libraries the release worker links
# dynamically. Counts per request are steady where this machine's CPU times are not (see EventCounter.swift):
#
#   Benchmarks/perf-probes.sh
#   CPU_ARGS="--kinds count --sides worker,floor --events context-switches,raw_syscalls:sys_enter,probe_libc:malloc" \
#       Benchmarks/run-worker-benchmark.sh --only cpu
#
# Prints the events it defined, to paste into --events. `perf probe -d 'probe_*:*'` removes them.
set -euo pipefail

log() { printf 'perf-probes: %s\n' "$*" >&2; }
command -v perf >/dev/null || { log "perf is missing (Debian package linux-perf)"; exit 2; }
(( EUID == 0 )) || { log "defining uprobes needs root"; exit 2; }

SWIFT_LIB="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux"
LIBC="$(ldconfig -p | awk '/libc\.so\.6 .*x86-64/ {print $NF; exit}')"
declare -A PROBES=(
    ["$LIBC"]="malloc free realloc calloc"
    ["$SWIFT_LIB/libswiftCore.so"]="swift_retain swift_release swift_allocObject"
    ["$SWIFT_LIB/libswift_Concurrency.so"]="swift_task_create swift_task_enqueueGlobal swift_continuation_resume swift_task_switch swift_task_enqueue"
)
defined=()
for library in "${!PROBES[@]}"; do
    [[ -f "$library" ]] || { log "missing $library"; exit 2; }
    group="probe_$(basename "$library" | sed 's/\.so.*//; s/[^A-Za-z0-9_]/_/g')"
    for symbol in ${PROBES[$library]}; do
        if ! perf probe -l 2>/dev/null | grep -q "^ *$group:$symbol "; then
            perf probe -q -x "$library" --add "$symbol" >/dev/null 2>&1 || { log "cannot probe $symbol in $library"; exit 2; }
        fi
        defined+=("$group:$symbol")
    done
done
(IFS=,; echo "${defined[*]}")
