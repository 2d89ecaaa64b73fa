#!/usr/bin/env bash
# Sample feature server benchmark: startup time and memory with the full 2,400,000 parcels, then small-extent
# queries per second on ONE core, against the 5,000 queries/s target and against nginx serving a static file of
# the same body size from one worker on the same core. Not run by CI.
#
#   Benchmarks/run-sample-server-benchmark.sh
#
# Environment: PARCELS (default 2400000), DURATION seconds per wrk run (default 10), RUNS per scenario (default 3;
# the median is reported, with the range), CONNECTIONS (default 16), EXTENTS (distinct query extents, default 200),
# SKIP_BUILD=1 to reuse the last release build.
#
# Builds `sample-feature-server` in release into .build-bench-server (from the repository root), starts it pinned to
# core 0 (taskset -c 0), and drives it with wrk pinned to core 1 (taskset -c 1), one wrk thread. The queries are
# small extents (about 150 m x 100 m of Web Mercator, tens of parcels each) scattered around the seed viewpoint
# (34.03 N, 118.805 W), picked in turn by a wrk Lua script:
#   json  f=json, outFields=*, returnGeometry=true (the default) - the map-view query;
#   ids   returnIdsOnly=true.
# nginx (one worker, pinned to core 0 as well) then serves a static file as large as the average response of each
# scenario, with the same wrk settings: the peer figure for "what a fast server does with these bytes".
# Needs: swift, wrk, nginx, taskset, python3, curl (scripts/setup-deps installs wrk and nginx).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PARCELS="${PARCELS:-2400000}"
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-16}"
EXTENTS="${EXTENTS:-200}"
RUNS="${RUNS:-3}"
TARGET=5000

log() { printf 'run-sample-server-benchmark: %s\n' "$*" >&2; }

NGINX="$(command -v nginx || true)"
[[ -n "$NGINX" ]] || NGINX=/usr/sbin/nginx
[[ -x "$NGINX" ]] || { log "nginx is missing: run scripts/setup-deps (Debian package nginx)"; exit 1; }
WRK="$(command -v wrk || true)"
[[ -n "$WRK" && -x "$WRK" ]] || { log "wrk is missing: run scripts/setup-deps (Debian package wrk)"; exit 1; }
command -v taskset >/dev/null || { log "taskset is missing (Debian package util-linux)"; exit 1; }
[[ "$(nproc)" -ge 2 ]] || log "warning: fewer than 2 cores; server and wrk will share core 0"

BIN="$ROOT/.build-bench-server/release/sample-feature-server"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building sample-feature-server (release, .build-bench-server)"
    (cd "$ROOT" && swift build -c release --product sample-feature-server --scratch-path .build-bench-server >&2)
fi
[[ -x "$BIN" ]] || { log "missing $BIN (run without SKIP_BUILD=1)"; exit 1; }

WORK="$(mktemp -d /tmp/sample-server-benchmark.XXXXXX)"
SERVER_PID=""
NGINX_PID=""
cleanup() {
    for pid in "$SERVER_PID" "$NGINX_PID"; do
        if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rss_mb() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
peak_mb() { awk '/^VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

LOAD="$(uptime | sed 's/.*load average://')"

# --- Startup -------------------------------------------------------------------------------------------------
log "starting the server with $PARCELS parcels on core 0"
START_NS="$(date +%s%N)"
taskset -c 0 "$BIN" --parcels "$PARCELS" --log-level warning >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
while [[ ! -s "$WORK/server.out" ]]; do
    kill -0 "$SERVER_PID" 2>/dev/null || { log "the server exited at start:"; cat "$WORK/server.err" >&2; exit 1; }
    sleep 0.02
done
READY_NS="$(date +%s%N)"
BASE="$(head -1 "$WORK/server.out")"
STARTUP_MS=$(((READY_NS - START_NS) / 1000000))
RSS_START="$(rss_mb "$SERVER_PID")"
ORIGIN="${BASE%%/arcgis/*}"
QUERY_PATH="/arcgis/rest/services/LA_County_Parcels/FeatureServer/0/query"

# --- Query extents and response sizes ------------------------------------------------------------------------
python3 - "$EXTENTS" "$WORK" "$QUERY_PATH" "$ORIGIN" <<'PYTHON'
import json, math, random, sys, urllib.request
count, work, path, origin = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
radius = 6378137.0
cx = math.radians(-118.805) * radius
cy = math.log(math.tan(math.pi / 4 + math.radians(34.03) / 2)) * radius
rng = random.Random(7)
extents = []
for _ in range(count):
    x, y = cx + rng.gauss(0, 2000), cy + rng.gauss(0, 1500)
    extents.append("%.2f%%2C%.2f%%2C%.2f%%2C%.2f" % (x - 75, y - 50, x + 75, y + 50))
scenarios = {
    "json": "&geometryType=esriGeometryEnvelope&spatialRel=esriSpatialRelIntersects&outFields=*&f=json",
    "ids": "&geometryType=esriGeometryEnvelope&spatialRel=esriSpatialRelIntersects&returnIdsOnly=true&f=json",
}
for name, tail in scenarios.items():
    paths = [path + "?geometry=" + e + tail for e in extents]
    sizes, features = [], []
    for p in paths:
        body = urllib.request.urlopen(origin + p).read()
        sizes.append(len(body))
        answer = json.loads(body)
        features.append(len(answer.get("features", answer.get("objectIds") or [])))
    with open(f"{work}/{name}.lua", "w") as lua:
        lua.write("local paths = {\n" + ",\n".join('  "%s"' % p for p in paths) + "\n}\n")
        lua.write("local i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format(\"GET\", paths[(i % #paths) + 1])\nend\n")
    with open(f"{work}/{name}.size", "w") as out:
        out.write("%d %.1f %d %d\n" % (sum(sizes) // len(sizes), sum(features) / len(features), min(features), max(features)))
PYTHON

run_wrk() {  # url, lua script -> requests/s of one run
    local output
    output="$(taskset -c 1 "$WRK" -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency ${2:+-s "$2"} "$1" 2>&1)"
    if grep -q "Non-2xx" <<<"$output"; then log "wrk saw non-2xx responses:"; echo "$output" >&2; exit 1; fi
    if grep -q "Socket errors" <<<"$output"; then log "wrk saw socket errors:"; grep "Socket errors" <<<"$output" >&2; fi
    awk '/^Requests\/sec:/ {print $2}' <<<"$output"
}

measure() {  # url, lua script -> "median min max" of RUNS runs, after a warm-up run
    local rates=()
    run_wrk "$1" "$2" >/dev/null
    for _ in $(seq "$RUNS"); do rates+=("$(run_wrk "$1" "$2")"); done
    printf '%s\n' "${rates[@]}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)], v[1], v[NR]}'
}

declare -A SERVER_RPS BODY_BYTES FEATURES
for scenario in json ids; do
    read -r bytes mean low high <"$WORK/$scenario.size"
    BODY_BYTES[$scenario]=$bytes
    FEATURES[$scenario]="$mean (min $low, max $high)"
    log "wrk: $scenario, $CONNECTIONS connections, $RUNS x ${DURATION}s, ~$bytes B per response"
    SERVER_RPS[$scenario]="$(measure "$ORIGIN" "$WORK/$scenario.lua")"
done
RSS_LOADED="$(rss_mb "$SERVER_PID")"
PEAK="$(peak_mb "$SERVER_PID")"
WHOLE_IDS="$(curl -s -o "$WORK/all-ids.json" -w '%{time_total} %{size_download}' "$ORIGIN$QUERY_PATH?where=1%3D1&returnIdsOnly=true&f=json")"
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || { log "the server did not exit 0 on SIGTERM"; exit 1; }
SERVER_PID=""

# --- nginx on the same core, same bytes --------------------------------------------------------------------
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$WORK/logs" "$WORK/tmp" "$WORK/www"
for scenario in json ids; do
    head -c "${BODY_BYTES[$scenario]}" /dev/zero | tr '\0' 'x' >"$WORK/www/$scenario.json"
done
# nginx's worker may run as another user (nobody when started as root): let it read the files.
chmod 755 "$WORK" "$WORK/www"
chmod 644 "$WORK/www/"*.json
cat >"$WORK/nginx.conf" <<NGINX_CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    sendfile on;
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT;
        root $WORK/www;
        default_type application/json;
    }
}
NGINX_CONF
taskset -c 0 "$NGINX" -p "$WORK" -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    sleep 0.05
done
declare -A NGINX_RPS
for scenario in json ids; do
    log "wrk: nginx, static ${BODY_BYTES[$scenario]} B"
    NGINX_RPS[$scenario]="$(measure "http://127.0.0.1:$PORT/$scenario.json" "")"
done

# --- Report --------------------------------------------------------------------------------------------------
echo
echo "Sample feature server benchmark ($PARCELS parcels, server and nginx on core 0, wrk -t1 -c$CONNECTIONS on core 1,"
echo "median of $RUNS runs of ${DURATION}s each, range in brackets; load before the runs:$LOAD)"
echo
printf '  %-34s %s\n' "startup (exec to first stdout line)" "$STARTUP_MS ms"
printf '  %-34s %s\n' "RSS after startup" "$RSS_START MB"
printf '  %-34s %s\n' "RSS after the query runs" "$RSS_LOADED MB (peak $PEAK MB)"
read -r ids_time ids_bytes <<<"$WHOLE_IDS"
printf '  %-34s %s\n' "returnIdsOnly, whole layer" "$(awk -v t="$ids_time" -v b="$ids_bytes" 'BEGIN {printf "%.0f ms, %.1f MB", t * 1000, b / 1e6}')"
echo
printf '  %-6s %24s %10s %24s %13s %8s %s\n' scenario "queries/s" "vs 5000/s" "nginx req/s (same bytes)" "server/nginx" "bytes" "features per response"
for scenario in json ids; do
    read -r server server_low server_high <<<"${SERVER_RPS[$scenario]}"
    read -r peer peer_low peer_high <<<"${NGINX_RPS[$scenario]}"
    printf '  %-6s %8.0f [%6.0f-%6.0f] %9.2fx %8.0f [%6.0f-%6.0f] %12.2fx %8s %s\n' "$scenario" \
        "$server" "$server_low" "$server_high" "$(awk -v s="$server" -v t="$TARGET" 'BEGIN {print s / t}')" \
        "$peer" "$peer_low" "$peer_high" "$(awk -v s="$server" -v p="$peer" 'BEGIN {print s / p}')" \
        "${BODY_BYTES[$scenario]}" "${FEATURES[$scenario]}"
done
echo
