# Shared by the scripts whose drivers are Python programs (Benchmarks/run-crash-duplicates.sh,
# Benchmarks/run-soak.sh). Source it after defining `log` and `die`.

# bench_python ROOT MODULE...: sets PYTHON to $PYTHON, else the repository's .venv; when that cannot import every
# MODULE, makes the .venv if needed and installs Benchmarks/requirements-bench.txt into it.
bench_python() {
    local root="$1"
    shift
    local imports
    imports="import $(IFS=,; echo "$*")"
    PYTHON="${PYTHON:-$root/.venv/bin/python}"
    if ! "$PYTHON" -c "$imports" >/dev/null 2>&1; then
        [[ -x "$root/.venv/bin/python" ]] || python3 -m venv "$root/.venv" >&2 || die "python3 -m venv failed"
        PYTHON="$root/.venv/bin/python"
        "$PYTHON" -m pip install -q --disable-pip-version-check -r "$root/Benchmarks/requirements-bench.txt" >&2
    fi
}
