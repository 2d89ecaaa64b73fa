# Shared by the benchmark scripts that run the sample feature server. Source it after defining `log`, and
# after setting WORK (a scratch directory, removed on exit), SERVER (the sample-feature-server binary) and
# SERVER_CPUS (a taskset CPU list, or empty for unpinned).

SERVER_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=""
}
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_server NAME ARGS...: starts the sample server (pinned to $SERVER_CPUS if set), waits for the base URL
# it prints as its first line of standard output, and sets SERVER_PID and SERVER_URL.
start_server() {
    local name="$1"
    shift
    local pin=()
    [[ -n "$SERVER_CPUS" ]] && pin=(taskset -c "$SERVER_CPUS")
    "${pin[@]}" "$SERVER" --log-level warning "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
    SERVER_PID=$!
    local started=$SECONDS
    until [[ -f "$WORK/$name.out" ]] && (( $(wc -l <"$WORK/$name.out") >= 1 )); do  # a whole first line
        kill -0 "$SERVER_PID" 2>/dev/null || { log "the $name server exited at start:"; cat "$WORK/$name.err" >&2; exit 2; }
        (( SECONDS - started < 300 )) || { log "the $name server printed no URL in 300 s"; exit 2; }
        sleep 0.1
    done
    SERVER_URL="$(head -n 1 "$WORK/$name.out")"
    [[ "$SERVER_URL" == http://*/arcgis/rest/services ]] || { log "the $name server printed '$SERVER_URL', not a base URL"; exit 2; }
    log "$name server: pid $SERVER_PID, ${*:-default options (2,400,000 parcels)} (CPUs: ${SERVER_CPUS:-unpinned}), started in $((SECONDS - started)) s at $SERVER_URL"
}

# How idle the CPUs are over one second, in percent: other work on this machine makes the figures noisy.
idle_percent() {
    local a b
    read -r -a a < <(grep '^cpu ' /proc/stat)
    sleep 1
    read -r -a b < <(grep '^cpu ' /proc/stat)
    local total=0 i
    for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
    (( total > 0 )) && echo $(( 100 * (b[4] - a[4]) / total )) || echo 100
}
