"""Drives the OGC download benchmark: our engine (`query-worker export`), GDAL's ogr2ogr OAPIF driver and
OWSLib, each a fresh process per run, on the same collection of the same server. Prints each side's median
wall time and peak RSS, and the ratios; fails (exit 1) when the sides' feature ids differ.

Usage: ogc_benchmark.py --landing URL --collection ID --query-worker PATH --python PATH --peers DIR
                        --limit N --repetitions N --warmups N [--strict]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run_with_rss(command, env=None):
    """Runs `command`; returns (seconds, peak RSS KiB, stdout, stderr).

    The peak is the child's VmHWM, read from /proc every 10 ms while it runs (its own address space's high-water
    mark; wait4's ru_maxrss would include this driver's, which Linux carries across the spawn's exec).
    """
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        peak = 0
        while process.poll() is None:
            try:
                with open(f"/proc/{process.pid}/status") as status:
                    for line in status:
                        if line.startswith("VmHWM:"):
                            peak = max(peak, int(line.split()[1]))
            except (OSError, ValueError):
                pass
            time.sleep(0.01)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if process.returncode != 0:
        sys.stderr.write(f"{' '.join(command)} failed ({process.returncode}):\n{stderr[-4000:]}\n")
        raise SystemExit(1)
    return seconds, peak, stdout, stderr


def feature_ids(path):
    with open(path) as file:
        collection = json.load(file)
    ids = []
    for feature in collection["features"]:
        identifier = feature.get("id")
        if identifier is None:
            identifier = feature.get("properties", {}).get("OBJECTID")
        ids.append(identifier)
    return ids


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--landing", required=True)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--query-worker", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--peers", required=True)
    parser.add_argument("--limit", type=int, default=10000)
    parser.add_argument("--expected", type=int, default=100000)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--warmups", type=int, default=1)
    parser.add_argument("--strict", action="store_true")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="ogc-benchmark-")
    sides = {
        "engine (query-worker export)": lambda out: [options.query_worker, "export", "--ogc", options.landing,
                                                     "--collection", options.collection, "--output", out,
                                                     "--log-level", "warning"],
        "GDAL ogr2ogr (OAPIF)": lambda out: ["ogr2ogr", "-f", "GeoJSON", out, f"OAPIF:{options.landing}",
                                             options.collection, "-oo", f"PAGE_SIZE={options.limit}"],
        "OWSLib": lambda out: [options.python, os.path.join(options.peers, "owslib_download.py"), options.landing,
                               options.collection, str(options.limit), out],
    }
    env = dict(os.environ, PYTHONPATH=options.peers, CPL_LOG="/dev/null")
    results = {}
    reference_ids = None
    failed = False
    for name, command in sides.items():
        times, peaks = [], []
        for run in range(options.warmups + options.repetitions):
            out = os.path.join(work, f"{len(results)}-{run}.geojson")
            if os.path.exists(out):
                os.remove(out)
            seconds, peak, _, _ = run_with_rss(command(out), env=env)
            ids = feature_ids(out)
            os.remove(out)
            unique = set(ids)
            if run >= options.warmups:
                times.append(seconds)
                peaks.append(peak)
            if reference_ids is None:
                reference_ids = unique
            problems = []
            if len(ids) != options.expected:
                problems.append(f"{len(ids)} features, {options.expected} expected")
            if len(unique) != len(ids):
                problems.append(f"{len(ids) - len(unique)} duplicate ids")
            if unique != reference_ids:
                problems.append(f"ids differ from the first side's ({len(unique ^ reference_ids)} differ)")
            if problems:
                failed = True
                sys.stderr.write(f"{name}, run {run + 1}: " + "; ".join(problems) + "\n")
        results[name] = (statistics.median(times), statistics.median(peaks))

    engine_time, engine_rss = results["engine (query-worker export)"]
    print(f"OGC download: {options.expected:,} features with geometry of '{options.collection}', "
          f"median of {options.repetitions} runs (after {options.warmups} warm-up), fresh process each")
    print(f"{'side':32} {'seconds':>9} {'peak RSS MB':>12} {'vs engine':>10}")
    for name, (seconds, rss) in results.items():
        ratio = seconds / engine_time if engine_time > 0 else float("inf")
        print(f"{name:32} {seconds:9.3f} {rss / 1024:12.1f} {ratio:9.2f}x")
    ogr_ratio = results["GDAL ogr2ogr (OAPIF)"][0] / engine_time
    goal = "met" if ogr_ratio >= 5 else "MISSED"
    print(f"goal: engine >= 5x faster than ogr2ogr: {ogr_ratio:.2f}x ({goal}); same feature ids on every side: "
          f"{'yes' if not failed else 'NO'}")
    if failed or (options.strict and ogr_ratio < 5):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
