"""The throughput cost of --exactly-once (issue 16, item 2): the same queued requests answered by a fresh
`query-worker run` with and without --exactly-once, against the transactional embedded cluster, sides
alternating. Not run by CI; Benchmarks/run-exactly-once-benchmark.sh starts the cluster and the server.

Each run is a new consumer group on one requests topic (so it reads every request from the start) and a results
topic of its own. The reader (aiokafka, isolation_level=read_committed) counts the run's outcomes; requests/s
and worker CPU per request (utime+stime from /proc/PID/stat) are taken between the first 10 % and the last
outcome, so the group join is not counted. Prints one line per run and the medians with the ratio."""
import argparse
import asyncio
import json
import os
import statistics
import subprocess
import time
import uuid

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def produce(args):
    producer = AIOKafkaProducer(bootstrap_servers=args.bootstrap, linger_ms=5)
    await producer.start()
    try:
        for index in range(args.requests):
            request_id = f"cost-{index:06d}"
            body = {"requestId": request_id, "targets": [{"type": "arcgis", "url": args.layer_url}],
                    "query": {"where": "1=1", "result": "count"}}
            await producer.send(args.requests_topic, json.dumps(body).encode(), key=request_id.encode())
        await producer.flush()
    finally:
        await producer.stop()


async def run_once(args, run, exactly_once):
    results = f"cost-results-{run}"
    errors = f"cost-errors-{run}"
    reader = AIOKafkaConsumer(results, errors, bootstrap_servers=args.bootstrap, group_id=None,
                              auto_offset_reset="earliest", enable_auto_commit=False,
                              isolation_level="read_committed")
    await reader.start()
    command = [args.query_worker, "run", "--bootstrap-servers", args.bootstrap, "--allowed-hosts", "127.0.0.1",
               "--group-id", f"cost-{run}-{uuid.uuid4().hex[:6]}", "--worker-id", f"cost-{run}",
               "--summary-interval", "0", "--log-level", "warning", "--kafka", "compression.type=none",
               "--set", f"topics.requests={args.requests_topic}", "--set", f"topics.results={results}",
               "--set", f"topics.errors={errors}", "--max-in-flight", str(args.max_in_flight)]
    if exactly_once:
        command += ["--exactly-once", "true"]
    log = open(os.path.join(args.work, f"worker-{run}.log"), "w")
    worker = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    seen = set()
    marks = {}
    warm = max(1, args.requests // 10)
    deadline = time.monotonic() + args.timeout
    try:
        while len(seen) < args.requests and time.monotonic() < deadline:
            batches = await reader.getmany(timeout_ms=200)
            for messages in batches.values():
                for message in messages:
                    request_id = json.loads(message.value).get("requestId")
                    if request_id:
                        seen.add(request_id)
            if len(seen) >= warm and "warm" not in marks:
                marks["warm"] = (time.monotonic(), cpu_seconds(worker.pid), len(seen))
        marks["end"] = (time.monotonic(), cpu_seconds(worker.pid), len(seen))
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
        await reader.stop()
    if len(seen) < args.requests or "warm" not in marks:
        raise SystemExit(f"run {run}: only {len(seen)} of {args.requests} answered (log {log.name})")
    (t0, c0, n0), (t1, c1, n1) = marks["warm"], marks["end"]
    answered = n1 - n0
    if answered <= 0 or t1 <= t0:
        raise SystemExit(f"run {run}: the requests were answered in one read; too few to measure (use --requests 5000 or more)")
    return answered / (t1 - t0), (c1 - c0) / answered * 1e6


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--layer-url", required=True)
    parser.add_argument("--query-worker", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--max-in-flight", type=int, default=64)
    parser.add_argument("--requests-topic", default="cost-requests")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    await produce(args)
    figures = {False: [], True: []}
    run = 0
    for repetition in range(args.repetitions):
        for exactly_once in (False, True) if repetition % 2 == 0 else (True, False):
            run += 1
            rate, cpu = await run_once(args, run, exactly_once)
            figures[exactly_once].append((rate, cpu))
            side = "exactly-once " if exactly_once else "at-least-once"
            print(f"run {run} {side}: {rate:8.0f} requests/s, worker CPU {cpu:6.0f} us/request", flush=True)
    rate = {side: statistics.median(r for r, _ in values) for side, values in figures.items()}
    cpu = {side: statistics.median(c for _, c in values) for side, values in figures.items()}
    print(f"median at-least-once: {rate[False]:.0f} requests/s, {cpu[False]:.0f} us CPU/request")
    print(f"median exactly-once:  {rate[True]:.0f} requests/s, {cpu[True]:.0f} us CPU/request")
    print(f"exactly-once / at-least-once: throughput {rate[True] / rate[False]:.2f}x, "
          f"CPU per request {cpu[True] / cpu[False]:.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
