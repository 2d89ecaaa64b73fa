#!/usr/bin/env bash
# Grouped statistics the worker computes itself, against GDAL's SQL over the same service, every side measured
# in the same run. Not run by CI.
#
#   Benchmarks/run-statistics-benchmark.sh [--repetitions N] [--parcels N] [--latency-ms N]
#
# SUM, AVG and percentile_cont(0.5) of Roll_LandValue grouped by UseType over every parcel (100,000) of the sample
# feature server at 20 ms latency per request, with the worker computing: the ArcGIS layer with
# `supportsStatistics` off (statistics-benchmark --kind arcgis) and the OGC collection (--kind ogc, OGC API
# Features has no aggregation). The peer: `ogrinfo -dialect SQLite -sql "SELECT UseType, TOTAL(..), AVG(..) ...
# GROUP BY UseType"` through GDAL's ESRIJSON and OAPIF drivers (Debian's gdal-bin; SQLite has no percentile, so
# GDAL computes two statistics to our three). Both read with the server's page size (2,000).
#
# Prints each side's median wall time, CPU and peak RSS, the ratio GDAL / ours (goal: >= 5), and whether the
# sums and averages agree per group (relative 1e-9; exit 1 when they do not). The worker's peak RSS is also
# printed for a quarter of the features (OBJECTID <= N/4 as a where clause): it must not grow with the features
# read, only with the groups.
#
# Builds sample-feature-server and statistics-benchmark in release with scratch path .build-bench-stats;
# SKIP_BUILD=1 reuses them.
set -euo pipefail
BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH/.." && pwd)"
SCRATCH="$ROOT/.build-bench-stats"
log() { printf 'run-statistics-benchmark: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

REPETITIONS=3
PARCELS=100000
LATENCY_MS=20
while (( $# > 0 )); do
    case "$1" in
        --repetitions) REPETITIONS="${2:?}"; shift 2 ;;
        --parcels) PARCELS="${2:?}"; shift 2 ;;
        --latency-ms) LATENCY_MS="${2:?}"; shift 2 ;;
        *) die "unknown argument $1" ;;
    esac
done
command -v ogrinfo >/dev/null || die "ogrinfo (gdal-bin) is not installed: scripts/setup-deps installs it"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building sample-feature-server and statistics-benchmark (release, $SCRATCH)"
    for product in sample-feature-server statistics-benchmark; do
        (cd "$ROOT" && swift build -c release --product "$product" --scratch-path "$SCRATCH" >&2)
    done
fi
SERVER="$SCRATCH/release/sample-feature-server"
OURS="$SCRATCH/release/statistics-benchmark"
WORK="$(mktemp -d /tmp/statistics-benchmark.XXXXXX)"
"$SERVER" --parcels "$PARCELS" --port 0 --log-level warning --fault "latency:ms=$LATENCY_MS" \
    --query-option "LA_County_Parcels/FeatureServer/0=supportsStatistics=false" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
BASE=""
for _ in $(seq 1 240); do
    BASE="$(head -n 1 "$WORK/server.out" 2>/dev/null || true)"
    [[ "$BASE" == http* ]] && break
    sleep 0.5
done
[[ "$BASE" == http* ]] || die "the sample server did not start (log: $WORK/server.err)"
LAYER="$BASE/LA_County_Parcels/FeatureServer/0"
OGC="${BASE%/arcgis/rest/services}/ogc"
log "server $BASE: $PARCELS parcels, $LATENCY_MS ms per request; $REPETITIONS runs per side"

# TOTAL, not SUM: GDAL types SUM of an Integer field as a 32-bit Integer and clamps it at 2,147,483,647.
SQL="SELECT UseType, TOTAL(Roll_LandValue) AS total, AVG(Roll_LandValue) AS mean, COUNT(*) AS n FROM %s GROUP BY UseType"
ESRI_URL="ESRIJSON:$LAYER/query?where=1%3D1&outFields=UseType,Roll_LandValue&returnGeometry=false&f=json"

# Runs "$@" REPETITIONS times under /usr/bin/time; keeps the last run's output in $WORK/$1.out and one
# "wall cpu rss_kib" line per run in $WORK/$1.times.
measure() {
    local name="$1"; shift
    : >"$WORK/$name.times"
    for ((run = 1; run <= REPETITIONS; run++)); do
        /usr/bin/time -f '%e %U %S %M' -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" \
            || die "$name failed: $(tail -n 5 "$WORK/$name.err")"
        awk '{ printf "%s %.3f %s\n", $1, $2 + $3, $4 }' "$WORK/$name.time" >>"$WORK/$name.times"
    done
}

measure ours-arcgis "$OURS" --kind arcgis --url "$LAYER" --repetitions 1
measure ours-quarter "$OURS" --kind arcgis --url "$LAYER" --where "OBJECTID <= $((PARCELS / 4))" --repetitions 1
measure ours-ogc "$OURS" --kind ogc --url "$OGC" --collection LA_County_Parcels --repetitions 1
# shellcheck disable=SC2059
measure gdal-esrijson ogrinfo -ro -q -dialect SQLite -sql "$(printf "$SQL" ESRIJSON)" "$ESRI_URL"
# shellcheck disable=SC2059
measure gdal-oapif ogrinfo -ro -q -dialect SQLite -sql "$(printf "$SQL" LA_County_Parcels)" -oo PAGE_SIZE=2000 "OAPIF:$OGC"

python3 - "$WORK" "$PARCELS" <<'PY'
import statistics, sys
work, parcels = sys.argv[1], int(sys.argv[2])

def times(name):
    rows = [line.split() for line in open(f"{work}/{name}.times")]
    return (statistics.median(float(r[0]) for r in rows), statistics.median(float(r[1]) for r in rows),
            max(int(r[2]) for r in rows) / 1024)

def ours(name):
    groups = {}
    for line in open(f"{work}/{name}.out"):
        if line.startswith("ROW "):
            group, total, mean, median = line[4:].rstrip("\n").split("\t")
            groups[group] = (float(total), float(mean))
    return groups

def gdal(name):
    groups, current = {}, {}
    for line in open(f"{work}/{name}.out"):
        line = line.strip()
        if line.startswith("UseType"):
            value = line.split("= ", 1)[1] if "= " in line else "NULL"
            current = {"group": "NULL" if value == "(null)" else value}
        elif line.startswith("total"):
            current["total"] = float(line.split("= ", 1)[1])
        elif line.startswith("mean"):
            current["mean"] = float(line.split("= ", 1)[1])
            groups[current["group"]] = (current["total"], current["mean"])
    return groups

def same(a, b):
    if a.keys() != b.keys():
        print(f"  groups differ: {sorted(a.keys() ^ b.keys())}")
        return False
    for g in a:
        for x, y in zip(a[g], b[g]):
            if abs(x - y) > 1e-9 * max(1.0, abs(x)):
                print(f"  {g}: ours {a[g]}, peer {b[g]}")
                return False
    return True

print(f"grouped statistics over {parcels} parcels (SUM, AVG{', percentile_cont(0.5)'} by UseType), median of runs")
print(f"{'side':<34}{'wall s':>9}{'CPU s':>9}{'peak RSS MiB':>14}{'groups':>8}")
figures = {}
for name, label in [("ours-arcgis", "worker, ArcGIS (no supportsStatistics)"), ("gdal-esrijson", "GDAL ESRIJSON + SQLite SQL"),
                    ("ours-ogc", "worker, OGC API Features"), ("gdal-oapif", "GDAL OAPIF + SQLite SQL")]:
    wall, cpu, rss = times(name)
    groups = ours(name) if name.startswith("ours") else gdal(name)
    figures[name] = (wall, cpu, rss, groups)
    print(f"{label:<34}{wall:>9.3f}{cpu:>9.3f}{rss:>14.1f}{len(groups):>8}")
ok = True
for mine, peer in [("ours-arcgis", "gdal-esrijson"), ("ours-ogc", "gdal-oapif")]:
    agree = same(figures[mine][3], figures[peer][3])
    ok = ok and agree and len(figures[mine][3]) > 0
    print(f"{peer} / {mine}: wall {figures[peer][0] / figures[mine][0]:.1f}x, CPU {figures[peer][1] / max(figures[mine][1], 1e-6):.1f}x; "
          f"same sums and averages: {'yes' if agree else 'NO'}")
quarter = times("ours-quarter")[2]
print(f"worker peak RSS: {quarter:.1f} MiB over {parcels // 4} features, {figures['ours-arcgis'][2]:.1f} MiB over {parcels} "
      f"(the groups and the percentile's values are held, not the features)")
sys.exit(0 if ok else 1)
PY
