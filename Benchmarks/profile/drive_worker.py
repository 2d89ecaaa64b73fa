#!/usr/bin/env python3
"""One measured run of `query-worker run` for Benchmarks/profile-worker.sh (no dependencies beyond kcat).

Queues --requests requests (where + a 200 m envelope, all different, as the throughput benchmark's
RequestFactory makes them) on the request topic of a running cluster with kcat, starts a fresh worker at
--max-in-flight, follows its JSON log and reads the worker's CPU time (utime+stime, /proc/PID/stat) when
outcome number --skip is delivered and when the last one is: CPU per request over the steady state. With
--perf-data, `perf record` samples the worker over exactly that window. Every outcome must be `succeeded`.
"""
import argparse
import datetime
import json
import math
import os
import signal
import subprocess
import sys
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def requests(count, layer_url, result, seed=42, size=200.0, spread=3000.0):
    """RequestFactory.specs + requestJSON: SplitMix64 envelopes around (34.03 N, 118.805 W), Web Mercator."""
    cx = -118.805 * 20037508.342789244 / 180
    cy = math.log(math.tan((90 + 34.03) * math.pi / 360)) * 6378137.0
    state = seed
    mask = (1 << 64) - 1

    def next_double():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return ((z ^ (z >> 31)) >> 11) / float(1 << 53)

    for index in range(count):
        x = cx + (next_double() * 2 - 1) * spread
        y = cy + (next_double() * 2 - 1) * spread
        ident = "pw-%d" % index
        body = {
            "requestId": ident, "taskId": ident, "targets": [{"type": "arcgis", "url": layer_url}],
            "query": {
                "where": "UseType = 'Residential'",
                "extent": {"xmin": int(x - size / 2), "ymin": int(y - size / 2), "xmax": int(x + size / 2),
                           "ymax": int(y + size / 2), "spatialReference": {"wkid": 3857}},
                "result": result,
            },
        }
        if result == "features":  # the CPU benchmark's features kind: a first page of 100 with geometry
            body["query"].update({"maxFeatures": 100, "returnGeometry": True})
        yield ident, json.dumps(body, separators=(",", ":"))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14 and 15)


def epoch_ms(text):
    """Milliseconds since the epoch of the worker's RFC 3339 UTC timestamp (2025-11-22T04:07:31.042Z)."""
    moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return int(round(moment.timestamp() * 1000))


class LogFollower:
    """Counts the worker's terminal status lines as they are appended, and keeps when the worker wrote each
    `succeeded` line (its own timestamp): this driver shares a CPU with the worker and reads the log in
    bursts, so a window is counted by the worker's clock, not by when a line was read."""

    def __init__(self, path):
        self.file = open(path, "rb")
        self.pending = b""
        self.succeeded = 0
        self.succeeded_ms = []
        self.other = []

    def poll(self):
        chunk = self.file.read()
        if not chunk:
            return
        lines = (self.pending + chunk).split(b"\n")
        self.pending = lines.pop()
        for line in lines:
            if b'"status"' not in line:
                continue
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("message") == "succeeded":
                self.succeeded += 1
                try:
                    self.succeeded_ms.append(epoch_ms(event["timestamp"]))
                except (KeyError, ValueError):
                    pass
            elif event.get("status"):
                self.other.append(event)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--query-worker", required=True)
    parser.add_argument("--bootstrap-servers", required=True)
    parser.add_argument("--layer-url", required=True)
    parser.add_argument("--topic-prefix", required=True)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--skip", type=int, default=1000)
    parser.add_argument("--result", default="count", choices=["count", "ids", "features"])
    parser.add_argument("--envelope", type=float, default=200.0, help="the map view's side in meters (60000: ~20,000 ids)")
    parser.add_argument("--max-in-flight", type=int, default=64)
    parser.add_argument("--cpus", default="")
    parser.add_argument("--log", required=True)
    parser.add_argument("--perf-data", default="")
    parser.add_argument("--perf-frequency", type=int, default=499)
    parser.add_argument("--perf-call-graph", default="fp")
    parser.add_argument("--perf-event", default="",
                        help="record hits of this event (a uprobe such as probe_libc:malloc) instead of sampling the CPU")
    parser.add_argument("--perf-period", type=int, default=1, help="with --perf-event: record every Nth hit")
    parser.add_argument("--slice", type=int, default=0,
                        help="also print CPU per request for every SLICE outcomes (does it drift over a run?)")
    args = parser.parse_args()
    topics = {kind: "%s-%s" % (args.topic_prefix, kind) for kind in ("requests", "results", "errors")}

    batch = args.log + ".requests"
    with open(batch, "w") as out:
        for key, value in requests(args.requests, args.layer_url, args.result, size=args.envelope):
            out.write("%s\t%s\n" % (key, value))
    subprocess.run(
        ["kcat", "-P", "-b", args.bootstrap_servers, "-t", topics["requests"], "-K", "\t", "-l",
         "-X", "linger.ms=5", batch], check=True)

    command = [
        args.query_worker, "run", "--bootstrap-servers", args.bootstrap_servers,
        "--group-id", "workers-" + args.topic_prefix, "--allowed-hosts", "127.0.0.1",
        "--max-in-flight", str(args.max_in_flight), "--shutdown-timeout", "1s", "--log-level", "info",
        "--set", "topics.requests=" + topics["requests"], "--set", "topics.results=" + topics["results"],
        "--set", "topics.errors=" + topics["errors"], "--set", "workerId=bench-worker",
        "--set", "summaryInterval=0s", "--set", "maxRequestsPerHost=64",
    ]
    if args.cpus:
        command = ["taskset", "-c", args.cpus] + command  # taskset execs in place: the pid is the worker's
    with open(args.log, "wb") as log:
        worker = subprocess.Popen(command, stdout=log)
    follower = LogFollower(args.log)
    perf = None
    try:
        marks = []
        deadline = time.monotonic() + 600
        targets = [args.skip, args.requests]
        if args.slice > 0:
            targets = [args.skip] + list(range(args.skip + args.slice, args.requests, args.slice)) + [args.requests]
        for target in targets:
            while follower.succeeded + len(follower.other) < target:
                if worker.poll() is not None:
                    sys.exit("the worker exited (status %s); its log: %s" % (worker.returncode, args.log))
                if time.monotonic() > deadline:
                    sys.exit("only %d outcomes in 600 s; log: %s" % (follower.succeeded, args.log))
                time.sleep(0.005)
                follower.poll()
            marks.append((follower.succeeded + len(follower.other), cpu_seconds(worker.pid), time.monotonic(),
                          int(time.time() * 1000)))
            if args.perf_data and perf is None:
                graph = ["-g"] if args.perf_call_graph == "fp" else ["--call-graph", "dwarf,16384"]
                what = ["-e", args.perf_event, "-c", str(args.perf_period)] if args.perf_event else ["-F", str(args.perf_frequency)]
                perf = subprocess.Popen(
                    ["perf", "record"] + what + graph + ["-o", args.perf_data,
                     "-p", str(worker.pid)], stdout=subprocess.DEVNULL, stderr=open(args.perf_data + ".log", "w"))
        if follower.other:
            sample = ", ".join("%s: %s" % (e.get("requestId"), e.get("status")) for e in follower.other[:5])
            sys.exit("%d outcomes were not succeeded (%s); log: %s" % (len(follower.other), sample, args.log))
    finally:
        if perf is not None:
            perf.send_signal(signal.SIGINT)
            perf.wait()
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    # Each window counts the requests the worker logged as succeeded between the two CPU readings, by the
    # worker's own timestamps (when every line had one); the read counts otherwise.
    stamps = follower.succeeded_ms if len(follower.succeeded_ms) == follower.succeeded else None

    def window(first, second):
        (a, ca, ta, ma), (b, cb, tb, mb) = first, second
        if stamps is None:
            return b - a, tb - ta, cb - ca
        written = sum(1 for stamp in stamps if ma < stamp <= mb)
        last = max((stamp for stamp in stamps if ma < stamp <= mb), default=mb)
        return written, max(last - ma, 1) / 1000, cb - ca

    if args.slice > 0:
        for first, second in zip(marks, marks[1:]):
            counted, seconds, cpu = window(first, second)
            if counted:
                print("  outcomes to %6d: %6d in %5.2f s, %6.0f requests/s, CPU %6.1f us/request" % (
                    second[0], counted, seconds, counted / seconds, cpu * 1e6 / counted))
    counted, seconds, cpu = window(marks[0], marks[-1])
    print("worker: %.0f requests/s, CPU %.1f us/request (%d outcomes after the first %d, %.2f s, %.2f CPU s)%s" % (
        counted / seconds, cpu * 1e6 / counted, counted, marks[0][0], seconds, cpu,
        " [under perf]" if args.perf_data else ""))


if __name__ == "__main__":
    main()
