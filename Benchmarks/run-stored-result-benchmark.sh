#!/usr/bin/env bash
# A whole layer into the object store through the worker, against ogr2ogr writing the same layer (issue 31).
# Not run by CI.
#
#   Benchmarks/run-stored-result-benchmark.sh [--parcels N] [--compression none|gzip|zstd] [--skip-ogr2ogr] [--strict]
#
# Starts moto's S3 server (the repository's .venv, from scripts/requirements-test.txt: run scripts/setup-deps
# test once), the embedded cluster (`query-worker embedded-kafka`), `sample-feature-server` (2,400,000 parcels by
# default) and one `query-worker run` with `--result-store s3://bench/results` on moto; then
# Benchmarks/python/stored_result_benchmark.py publishes one `features` request for the whole layer with
# geometry, `"delivery": "store"`, `"format": "ndjson"`, waits for its outcome, checks the object against the
# server's own list of ids (boto3, streamed), and runs `ogr2ogr -f GeoJSONSeq` on the same layer. Prints the
# worker's time and peak RSS, the object's size, ogr2ogr's time and peak RSS, and the ratios. Goals: the worker's
# peak RSS <= 250 MB while the object is gigabytes; the worker not slower than ogr2ogr.
#
# Environment: PYTHON (default: the repository's .venv), WORKER_SCRATCH (release builds, default
# .build-bench-worker), SKIP_BUILD=1, KEEP=1 (keep the run's directory and logs).
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="${WORKER_SCRATCH:-$ROOT/.build-bench-worker}"
PARCELS=2400000
EXTRA=()

log() { printf 'run-stored-result-benchmark: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }
while (( $# > 0 )); do
    case "$1" in
        --parcels) PARCELS="${2:?--parcels needs a number}"; shift 2 ;;
        --compression) EXTRA+=(--compression "${2:?--compression needs none, gzip or zstd}"); shift 2 ;;
        --skip-ogr2ogr) EXTRA+=(--skip-ogr2ogr); shift ;;
        --strict) EXTRA+=(--strict); shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done

source "$BENCH/lib/worker-binaries.sh"
worker_binaries "$ROOT" "$SCRATCH"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
"$PYTHON" -c 'import moto, boto3' 2>/dev/null || die "$PYTHON has no moto or boto3 (scripts/setup-deps test installs them)"
if ! "$PYTHON" -c 'import zstandard' 2>/dev/null; then
    "$PYTHON" -m pip install -q --disable-pip-version-check -r "$BENCH/requirements-bench.txt" >&2
fi
command -v ogr2ogr >/dev/null || die "ogr2ogr is missing: apt-get install gdal-bin (scripts/setup-deps test installs it)"

WORK="$(mktemp -d /tmp/stored-result-benchmark.XXXXXX)"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ "${KEEP:-0}" == 1 ]] && log "logs kept in $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
source "$BENCH/lib/first-line.sh"

# moto on a free port, any credentials (no signature checking: the tests check signatures; this measures).
PORT="$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
ENDPOINT="http://127.0.0.1:$PORT"
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_DEFAULT_REGION=us-east-1 AWS_REGION=us-east-1
"$PYTHON" -m moto.server -H 127.0.0.1 -p "$PORT" >"$WORK/moto.out" 2>"$WORK/moto.err" &
PIDS+=($!)
for _ in $(seq 1 300); do curl -fsS -o /dev/null "$ENDPOINT/moto-api/" 2>/dev/null && break; sleep 0.1; done
"$PYTHON" -c "import boto3; boto3.client('s3', endpoint_url='$ENDPOINT').create_bucket(Bucket='bench')"

"$QUERY_WORKER" embedded-kafka --topic feature-queries:3 --topic feature-query-results:3 --topic feature-query-errors:1 \
    --topic feature-query-progress:1 >"$WORK/kafka.out" 2>"$WORK/kafka.err" &
PIDS+=($!)
BOOTSTRAP="$(first_line "$WORK/kafka.out" "${PIDS[-1]}")"
"$SERVER" --log-level warning --parcels "$PARCELS" >"$WORK/server.out" 2>"$WORK/server.err" &
PIDS+=($!)
SERVER_URL="$(first_line "$WORK/server.out" "${PIDS[-1]}")"
"$QUERY_WORKER" run --bootstrap-servers "$BOOTSTRAP" --allowed-hosts 127.0.0.1 \
    --result-store s3://bench/results --result-store-endpoint "$ENDPOINT" --result-store-region us-east-1 \
    --request-timeout 3600s >"$WORK/worker.out" 2>"$WORK/worker.err" &
WORKER_PID=$!
PIDS+=("$WORKER_PID")
log "moto $ENDPOINT, Kafka $BOOTSTRAP, server $SERVER_URL ($PARCELS parcels), worker pid $WORKER_PID"

"$PYTHON" "$BENCH/python/stored_result_benchmark.py" --query-worker "$QUERY_WORKER" --worker-pid "$WORKER_PID" \
    --bootstrap "$BOOTSTRAP" --layer-url "$SERVER_URL/LA_County_Parcels/FeatureServer/0" --endpoint "$ENDPOINT" \
    --work "$WORK" "${EXTRA[@]}"
