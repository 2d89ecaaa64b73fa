#!/usr/bin/env bash
# HTTP client benchmark: requests/s and p50/p99 latency of CurlHTTP against wrk and AsyncHTTPClient, all three
# against one local nginx, at concurrency 64 and 1, in one run. Not run by CI.
#
#   Benchmarks/run-http-benchmark.sh [http-benchmark options]
#   e.g. Benchmarks/run-http-benchmark.sh --repetitions 3 --duration 10
#
# Installs nothing: nginx and wrk come from scripts/setup-deps (Debian's packages). Builds, in release:
#   - http-benchmark (a target of the main package) with the `AsyncHTTPClientPeer` trait, the only build that
#     compiles AsyncHTTPClient, in scratch path .build-bench-http (the first build compiles SwiftNIO,
#     BoringSSL and AsyncHTTPClient: several minutes on 2 cores),
#   - the libcurl-alone reference Benchmarks/c/curl_multi_bench.c into Benchmarks/bin/curl_multi_bench: two
#     more rows, "libcurl (C)" (--libcurl-loop/--libcurl-handles, by default perform + reset: the reference
#     of the CurlHTTP/libcurl targets) and "libcurl sock (C)" (curl_multi_socket_action + epoll with
#     handles reused, libcurl's fastest loop: for information),
# starts
# nginx in a temporary folder on a free loopback port (1 worker, no access log, keep-alive), runs
# http-benchmark against it, and stops nginx on exit. Set SKIP_BUILD=1 to reuse what was built last time.
#
# QUERY=count appends a ~350-byte ArcGIS count query string (escapes and `+` included) to the URL every client
# requests, as the worker's count requests carry; QUERY='?a=b...' appends that string. Default: no query.
#
# The targets (see http-benchmark --help): at concurrency 64, CurlHTTP >= 1.5x AsyncHTTPClient, >= 0.9x
# libcurl (C) and >= 0.7x wrk in requests/s; at concurrency 1, CurlHTTP's p99 within 0.05 ms of libcurl
# (C)'s and within 0.2 ms of wrk's.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="${HTTP_SCRATCH:-$ROOT/.build-bench-http}"
QUERY_PATH="/arcgis/rest/services/LA_County_Parcels/FeatureServer/0/query"

log() { printf 'run-http-benchmark: %s\n' "$*" >&2; }

NGINX="$(command -v nginx || true)"
[[ -n "$NGINX" ]] || NGINX=/usr/sbin/nginx  # /usr/sbin may be missing from a non-root PATH
[[ -x "$NGINX" ]] || { log "nginx is missing: run scripts/setup-deps (Debian package nginx)"; exit 1; }
WRK="$(command -v wrk || true)"
[[ -n "$WRK" && -x "$WRK" ]] || { log "wrk is missing: run scripts/setup-deps (Debian package wrk)"; exit 1; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    command -v swift >/dev/null || { log "no swift on PATH"; exit 1; }
    pkg-config --exists libcurl || { log "libcurl is missing: apt-get install libcurl4-openssl-dev (or run scripts/setup-deps)"; exit 1; }
    log "compiling the libcurl-alone reference"
    mkdir -p "$BENCH/bin"
    cc -O2 -Wall -o "$BENCH/bin/curl_multi_bench" "$BENCH/c/curl_multi_bench.c" $(pkg-config --cflags --libs libcurl) -lm

    log "building http-benchmark (release, scratch path $SCRATCH)"
    (cd "$ROOT" && swift build -c release --product http-benchmark --traits AsyncHTTPClientPeer --scratch-path "$SCRATCH")
fi
HTTP_BENCHMARK="${HTTP_BENCHMARK:-$SCRATCH/release/http-benchmark}"  # another build (e.g. main's) for an A/B
LIBCURL_BENCH="$BENCH/bin/curl_multi_bench"
for binary in "$HTTP_BENCHMARK" "$LIBCURL_BENCH"; do
    [[ -x "$binary" ]] || { log "missing $binary (run without SKIP_BUILD=1)"; exit 1; }
done

# The server: nginx in a folder of its own, serving a fixed ~1.5 KB JSON body shaped like an ArcGIS
# returnIdsOnly query response.
WORK="$(mktemp -d /tmp/http-benchmark.XXXXXX)"
NGINX_PID=""
cleanup() {
    if [[ -n "$NGINX_PID" ]] && kill -0 "$NGINX_PID" 2>/dev/null; then
        kill -TERM "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ids="$(seq 2004001 7 $((2004001 + 7 * 179)) | paste -sd, -)"
BODY="{\"objectIdFieldName\":\"OBJECTID\",\"objectIds\":[$ids]}"
mkdir -p "$WORK/logs" "$WORK/tmp"
cat >"$WORK/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 100000;
    keepalive_timeout 75s;
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT;
        location = $QUERY_PATH {
            default_type application/json;
            return 200 '$BODY';
        }
    }
}
EOF
"$NGINX" -p "$WORK" -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    kill -0 "$NGINX_PID" 2>/dev/null || { log "nginx exited at start:"; cat "$WORK/logs/error.log" >&2; exit 1; }
    sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || { log "nginx does not listen on 127.0.0.1:$PORT"; exit 1; }
# The worker (nginx -g 'daemon off;' keeps the master in the foreground; its one child is the worker).
WORKER_PID="$(cat "/proc/$NGINX_PID/task/$NGINX_PID/children" 2>/dev/null | awk '{print $1}')"
SERVER_ARGS=()
[[ -n "$WORKER_PID" ]] && SERVER_ARGS=(--server-pid "$WORKER_PID")

URL="http://127.0.0.1:$PORT$QUERY_PATH"
COUNT_QUERY="?f=json&where=STATUS%20%3D%20%27OPEN%27%20AND%20ZONE%20IN%20(%27R1%27%2C%27R2%27)&geometry=%7B%22xmin%22%3A-118.5%2C%22ymin%22%3A33.9%2C%22xmax%22%3A-118.2%2C%22ymax%22%3A34.1%2C%22spatialReference%22%3A%7B%22wkid%22%3A4326%7D%7D&geometryType=esriGeometryEnvelope&spatialRel=esriSpatialRelIntersects&inSR=4326&returnCountOnly=true&outFields=*&token=abc-_.~+x&time=1700000000000%2C1800000000000"
case "${QUERY:-}" in
    "") ;;
    count) URL+="$COUNT_QUERY" ;;
    \?*) URL+="$QUERY" ;;
    *) log "QUERY is count or a string starting with '?'"; exit 1 ;;
esac
log "nginx $("$NGINX" -v 2>&1 | sed 's/.*version: //') (pid $NGINX_PID, worker ${WORKER_PID:-?}) at $URL (${#URL} bytes), body ${#BODY} B; $("$WRK" --version 2>&1 | head -1 | awk '{print $1, $2}'); load:$(uptime | sed 's/.*load average://')"
log "running: http-benchmark $*"
"$HTTP_BENCHMARK" --url "$URL" --expected-body-bytes "${#BODY}" --wrk "$WRK" --libcurl-bench "$LIBCURL_BENCH" \
    "${SERVER_ARGS[@]}" "$@"
log "load after the run:$(uptime | sed 's/.*load average://')"
