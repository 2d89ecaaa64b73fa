# Shared by the scripts that start the embedded cluster, the sample server and workers as processes of their
# own (Benchmarks/run-crash-duplicates.sh, Fuzz/run-request-fuzz-live.sh). Source it after defining `die`.

# first_line FILE PID: waits for a process's first line of standard output (its address) and prints it.
first_line() {
    local started=$SECONDS
    until [[ -s "$1" ]] && (( $(wc -l <"$1") >= 1 )); do
        kill -0 "$2" 2>/dev/null || die "$1: the process exited at start"
        (( SECONDS - started < 120 )) || die "$1: no first line in 120 s"
        sleep 0.1
    done
    head -n 1 "$1"
}
