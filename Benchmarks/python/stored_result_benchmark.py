"""A whole layer through the worker into the object store (issue 31): every parcel of the sample server's
LA County layer (2,400,000 by default), with geometry, requested through Kafka with `"delivery": "store"`, written
by `query-worker run` to moto's S3 API as newline-delimited GeoJSON while the pages arrive. Beside it, in the same
run, GDAL's ogr2ogr writes the same layer from the same server to a GeoJSONSeq file (the same format: one
Feature per line). Not run by CI; Benchmarks/run-stored-result-benchmark.sh starts moto, the cluster, the server
and the worker.

What it checks (exit 1 when any fails): the outcome is `succeeded` and `complete: true`, with a location; the
object's size and SHA-256 are what the location says (read back with boto3, streamed); every line is a GeoJSON
Feature; the object holds exactly the layer's object ids as the server itself lists them (`returnIdsOnly`, read
here, not through the worker), each once; ogr2ogr's file has the same number of features. What it prints: the
worker's time (request published to outcome read), its peak RSS (VmHWM, sampled from /proc every 100 ms as
well), the object's size, and ogr2ogr's time and peak RSS, with the ratios. Goals (issue 31): worker peak RSS
<= 250 MB; the worker not slower than ogr2ogr. A missed goal fails the run only with --strict."""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request

import boto3


def peak_rss_mb(pid):
    """The process's peak resident set (VmHWM) in MB, or None once it has exited."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return None
    return None


def current_rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return None
    return None


class RSSSampler:
    """Samples a process's RSS every 100 ms while a phase runs: the peak of the phase, not of the process's life."""

    def __init__(self, pid):
        self.pid = pid
        self.peak = 0.0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stopped.is_set():
            rss = current_rss_mb(self.pid)
            if rss is not None:
                self.peak = max(self.peak, rss)
            time.sleep(0.1)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join()


def server_ids(layer_url):
    """The layer's object ids as the sample server lists them: the ground truth, read without the worker."""
    with urllib.request.urlopen(f"{layer_url}/query?where=1%3D1&returnIdsOnly=true&f=json", timeout=600) as response:
        return json.load(response)["objectIds"]


def run_worker_side(args):
    """Publishes the request with `query --wait --json` and returns (seconds, outcome messages)."""
    command = [args.query_worker, "query", "--bootstrap-servers", args.bootstrap,
               "--target", args.layer_url, "--result", "features", "--return-geometry",
               "--delivery", "store", "--format", "ndjson", "--wait", "--json", "--no-progress",
               "--wait-timeout", str(args.timeout)]
    if args.compression != "none":
        command += ["--compression", args.compression]
    started = time.monotonic()
    completed = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout + 60)
    elapsed = time.monotonic() - started
    if completed.returncode != 0:
        sys.exit(f"query failed ({completed.returncode}): {completed.stderr.strip()[-2000:]}\n{completed.stdout[-2000:]}")
    outcomes = [json.loads(line) for line in completed.stdout.splitlines() if line.startswith("{")]
    return elapsed, outcomes


def check_object(args, location, expected_ids):
    """Streams the stored object back with boto3: size, SHA-256, one Feature per line, the ids."""
    s3 = boto3.client("s3", endpoint_url=args.endpoint, region_name="us-east-1")
    bucket, key = location["url"][len("s3://"):].split("/", 1)
    body = s3.get_object(Bucket=bucket, Key=key)["Body"]
    digest = hashlib.sha256()
    size = 0
    ids = []
    pending = b""
    decompressor = None
    if location.get("contentEncoding") == "zstd":
        import zstandard
        decompressor = zstandard.ZstdDecompressor().decompressobj()
    elif location.get("contentEncoding") == "gzip":
        import zlib
        decompressor = zlib.decompressobj(wbits=31)
    for chunk in body.iter_chunks(chunk_size=8 << 20):
        digest.update(chunk)
        size += len(chunk)
        data = decompressor.decompress(chunk) if decompressor else chunk
        lines = (pending + data).split(b"\n")
        pending = lines.pop()
        for line in lines:
            if line:
                feature = json.loads(line)
                if feature.get("type") != "Feature":
                    sys.exit(f"a line of the object is not a GeoJSON Feature: {line[:200]!r}")
                ids.append(feature["id"])
    if pending.strip():
        sys.exit("the object does not end with a newline")
    problems = []
    if size != location["bytes"]:
        problems.append(f"the object has {size} bytes, the location says {location['bytes']}")
    if digest.hexdigest() != location["sha256"]:
        problems.append("the object's SHA-256 is not the location's")
    if len(ids) != len(set(ids)):
        problems.append(f"{len(ids) - len(set(ids))} features are stored more than once")
    if set(ids) != set(expected_ids):
        problems.append(f"the object holds {len(set(ids))} ids, the layer {len(expected_ids)}; "
                        f"{len(set(expected_ids) - set(ids))} missing, {len(set(ids) - set(expected_ids))} foreign")
    return size, len(ids), problems


def run_ogr2ogr(args):
    """ogr2ogr writes the same layer to a GeoJSONSeq file; returns (seconds, peak RSS MB, features)."""
    out = os.path.join(args.work, "ogr2ogr.geojsons")
    source = f"{args.layer_url}/query?where=1%3D1&outFields=*&returnGeometry=true&f=json"
    command = ["/usr/bin/time", "-f", "%M", "ogr2ogr", "-f", "GeoJSONSeq", out, source,
               "-oo", "FEATURE_SERVER_PAGING=YES"]
    started = time.monotonic()
    completed = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if completed.returncode != 0:
        sys.exit(f"ogr2ogr failed: {completed.stderr.strip()[-2000:]}")
    peak = int(completed.stderr.strip().splitlines()[-1]) / 1024
    with open(out, "rb") as handle:
        features = sum(1 for line in handle if line.strip())
    size = os.path.getsize(out)
    os.remove(out)
    return elapsed, peak, features, size


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--query-worker", required=True)
    parser.add_argument("--worker-pid", type=int, required=True)
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--layer-url", required=True)
    parser.add_argument("--endpoint", required=True, help="moto's S3 endpoint")
    parser.add_argument("--work", required=True)
    parser.add_argument("--compression", default="none", choices=["none", "gzip", "zstd"])
    parser.add_argument("--timeout", type=int, default=3600)
    parser.add_argument("--skip-ogr2ogr", action="store_true")
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args()

    expected = server_ids(args.layer_url)
    print(f"the layer lists {len(expected):,} object ids (ground truth, read from the server)", flush=True)
    before = peak_rss_mb(args.worker_pid)
    with RSSSampler(args.worker_pid) as sampler:
        worker_seconds, outcomes = run_worker_side(args)
    worker_peak = peak_rss_mb(args.worker_pid)
    result = next((o for o in outcomes if o.get("status") in ("succeeded", "partial")), None)
    if result is None:
        sys.exit(f"no result among the outcomes: {json.dumps(outcomes)[:2000]}")
    layer = result["layers"][0]
    location = layer.get("location")
    problems = []
    if result["status"] != "succeeded" or not layer.get("complete"):
        problems.append(f"the outcome is {result['status']}, complete {layer.get('complete')}")
    if location is None:
        sys.exit(f"the result carries no location: {json.dumps(layer)[:2000]}")
    size, stored, object_problems = check_object(args, location, expected)
    problems += object_problems
    print(f"worker: {stored:,} features stored in {worker_seconds:.1f} s ({stored / worker_seconds:,.0f} features/s), "
          f"object {size / 1e6:,.0f} MB ({location.get('contentEncoding') or 'uncompressed'} NDJSON), "
          f"peak RSS {sampler.peak:.0f} MB during the request (VmHWM {worker_peak:.0f} MB over the process's life, "
          f"{before:.0f} MB before the request)", flush=True)
    goals = [("worker peak RSS <= 250 MB", sampler.peak <= 250)]
    if not args.skip_ogr2ogr:
        ogr_seconds, ogr_peak, ogr_features, ogr_size = run_ogr2ogr(args)
        print(f"ogr2ogr: {ogr_features:,} features to a GeoJSONSeq file in {ogr_seconds:.1f} s "
              f"({ogr_features / ogr_seconds:,.0f} features/s), file {ogr_size / 1e6:,.0f} MB, peak RSS {ogr_peak:.0f} MB",
              flush=True)
        if ogr_features != len(expected):
            problems.append(f"ogr2ogr wrote {ogr_features} features, the layer has {len(expected)}")
        print(f"ratio: ogr2ogr time / worker time = {ogr_seconds / worker_seconds:.2f}x; "
              f"worker peak RSS / ogr2ogr peak RSS = {sampler.peak / max(ogr_peak, 1):.2f}", flush=True)
        goals.append(("worker not slower than ogr2ogr", worker_seconds <= ogr_seconds))
    for name, met in goals:
        print(f"goal: {name}: {'met' if met else 'MISSED'}")
    for problem in problems:
        print(f"wrong: {problem}")
    if problems:
        sys.exit(1)
    if args.strict and not all(met for _, met in goals):
        sys.exit(1)


if __name__ == "__main__":
    main()
