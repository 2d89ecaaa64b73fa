"""Driver of Benchmarks/run-soak.sh (issue 33 item 1): three workers under a steady mixed load for a long time,
with faults on a schedule, sampled every few seconds, judged against the soak's goals.

It starts every process itself (the embedded cluster with fault commands on its standard input, the sample
server with token security and random 5xx and slow answers, three `query-worker run` processes), produces
requests at a steady rate, reads every outcome back, samples each worker (RSS, descriptors and threads from
/proc; in-flight, lag, token calls, and the metadata and credential caches' entries from its /metrics), and on a schedule: kills the victim worker (w3) with SIGKILL and
restarts it, takes every broker away for 10 s, moves a partition's leader, revokes every token, and rotates the
OGC API key (a new key file and an edited credentials file, which the workers reload).

Writes samples.jsonl, events.jsonl, requests.jsonl, outcomes.jsonl and soak.png into --work, and prints the
figures and each goal with its verdict. Exit status 1 when a goal is missed.
"""

import argparse
import asyncio
import json
import logging
import os
import random
import re
import signal
import subprocess
import threading
import time
import urllib.parse
import urllib.request
import uuid

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

from outcome_reader import next_outcomes

REQUESTS_TOPIC, RESULTS_TOPIC, ERRORS_TOPIC = "soak-requests", "soak-results", "soak-errors"
WORKERS = ("w1", "w2", "w3")
VICTIM = "w3"


def now():
    return time.time()


class Rig:
    """The processes of one soak run and where their output goes."""

    def __init__(self, args):
        self.args = args
        self.work = args.work
        self.logs = os.path.join(self.work, "logs")
        os.makedirs(self.logs, exist_ok=True)
        self.workers = {}  # name -> (Popen, ops port, incarnation)
        self.events = open(os.path.join(self.work, "events.jsonl"), "a")
        self.kafka_lock = threading.Lock()  # one fault command and its answer at a time

    def event(self, kind, **fields):
        row = {"t": now(), "event": kind, **fields}
        self.events.write(json.dumps(row) + "\n")
        self.events.flush()
        print(f"soak: +{row['t'] - self.started:.0f}s {kind} {fields or ''}", flush=True)

    def start_cluster(self):
        environment = dict(os.environ)
        if self.args.kafka_lib_dir:
            environment["LD_LIBRARY_PATH"] = self.args.kafka_lib_dir
        self.kafka = subprocess.Popen(
            [self.args.query_worker, "embedded-kafka", "--brokers", "3", "--fault-commands",
             "--topic", f"{REQUESTS_TOPIC}:6", "--topic", f"{RESULTS_TOPIC}:6", "--topic", f"{ERRORS_TOPIC}:3"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(os.path.join(self.logs, "kafka.err"), "w"),
            env=environment, text=True, bufsize=1)
        self.bootstrap = self.kafka.stdout.readline().strip()
        if not self.bootstrap:
            raise SystemExit("soak: the embedded cluster printed no bootstrap address")

    def kafka_command(self, command):
        with self.kafka_lock:
            self.kafka.stdin.write(command + "\n")
            self.kafka.stdin.flush()
            answer = self.kafka.stdout.readline().strip()
        if not answer.startswith("ok"):
            print(f"soak: fault command {command!r} answered {answer!r}", flush=True)
        return answer

    def start_server(self):
        # Random 5xx and slow pages on every queried layer; the counties layer is always slow (3 s), so that a
        # request superseded or cancelled is still running when the newer request or the cancel comes.
        faults = [f"http503:retry-after=1,path=/query,probability={self.args.error_rate},seed=3",
                  f"latency:ms=1500,path=/query,probability={self.args.slow_rate},seed=5",
                  "latency:ms=3000,path=USA/MapServer/3/query"]
        command = [self.args.server, "--log-level", "warning", "--parcels", "20000", "--secure",
                   "--security-role", "standalone", "--ogc-api-key", "soak-ogc-key-0"]
        for fault in faults:
            command += ["--fault", fault]
        self.server = subprocess.Popen(command, stdout=subprocess.PIPE,
                                       stderr=open(os.path.join(self.logs, "server.err"), "w"), text=True)
        self.services = self.server.stdout.readline().strip()  # .../arcgis/rest/services
        if not self.services:
            raise SystemExit("soak: the sample server printed no URL")
        self.origin = self.services.split("/arcgis/")[0]

    def write_credentials(self, key_generation, expiration_minutes):
        password = os.path.join(self.work, "viewer-password")
        with open(password, "w") as handle:
            handle.write("viewer-password")
        key_file = os.path.join(self.work, "ogc-key")
        with open(key_file + ".tmp", "w") as handle:
            handle.write(f"soak-ogc-key-{key_generation}")
        os.replace(key_file + ".tmp", key_file)
        credentials = {"credentials": [
            {"name": "gis", "kind": "token", "scope": f"{self.origin}/arcgis", "username": "viewer",
             "password": {"file": password}, "referer": "http://soak.local", "expirationMinutes": expiration_minutes},
            {"name": "ogc-key", "kind": "apiKey", "scope": f"{self.origin}/ogc-secured", "key": {"file": key_file},
             "parameter": "X-API-Key"},
        ]}
        path = os.path.join(self.work, "credentials.json")
        with open(path + ".tmp", "w") as handle:
            json.dump(credentials, handle)
        os.replace(path + ".tmp", path)
        return path

    def security(self, **fields):
        data = urllib.parse.urlencode(fields).encode()
        with urllib.request.urlopen(f"{self.origin}/_sample/security", data=data, timeout=10) as response:
            return response.status

    def start_worker(self, name):
        _, port, incarnation = self.workers.get(name, (None, None, 0))
        port = port or free_port()
        incarnation += 1
        command = [self.args.query_worker, "run", "--bootstrap-servers", self.bootstrap, "--group-id", "soak",
                   "--worker-id", name, "--allowed-hosts", "127.0.0.1", "--ops-port", str(port),
                   "--credentials-file", self.credentials, "--set", f"topics.requests={REQUESTS_TOPIC}",
                   "--set", f"topics.results={RESULTS_TOPIC}", "--set", f"topics.errors={ERRORS_TOPIC}",
                   "--kafka", "compression.type=none", "--summary-interval", "0"]
        if self.args.exactly_once:
            command += ["--exactly-once", "true"]
        log = open(os.path.join(self.logs, f"{name}.{incarnation}.jsonl"), "w")
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self.workers[name] = (process, port, incarnation)

    def ended_by_itself(self):
        """Workers whose current process ended without being told to (a crash): none may, before the run stops
        them. The victim's kills restart it at once, in the same step of the event loop, so it is never seen
        between the two."""
        return {name: (incarnation, process.returncode) for name, (process, _, incarnation) in self.workers.items()
                if process.poll() is not None}

    def stop(self):
        for name, (incarnation, code) in self.ended_by_itself().items():
            self.event("worker-ended", worker=name, incarnation=incarnation, code=code)
        for process, _, _ in self.workers.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for name, (process, _, _) in self.workers.items():
            try:
                # A graceful shutdown ends with 0: a crash on the way out (or a hang) is a failed goal.
                self.event("worker-stopped", worker=name, code=process.wait(timeout=60))
            except subprocess.TimeoutExpired:
                process.kill()
                self.event("worker-stopped", worker=name, code="hung")
        for process in (self.server,):
            process.send_signal(signal.SIGTERM)
        try:
            self.kafka.stdin.close()
            self.kafka.wait(timeout=20)
        except Exception:
            self.kafka.kill()


def free_port():
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request_mix(rig, rng):
    """One request of the mix (and whether it is sent twice for its task, the first then superseded, or
    followed by a cancel): count, ids, features, statistics, catalogs, OGC, and the secured face."""
    services, origin = rig.services, rig.origin
    pick = rng.random()
    if pick < 0.25:
        target = {"type": "arcgis", "url": f"{services}/USA/MapServer/0"}
        query = {"where": f"POP2000 > {rng.randrange(0, 200000)}", "result": "count"}
    elif pick < 0.35:
        target = {"type": "arcgis", "url": f"{services}/LA_County_Parcels/FeatureServer/0"}
        query = {"where": f"OBJECTID < {rng.randrange(100, 20000)}", "result": "ids"}
    elif pick < 0.45:
        target = {"type": "arcgis", "url": f"{services}/USA/MapServer/2"}
        query = {"where": f"POP2000 > {rng.randrange(0, 5000000)}", "result": "features", "returnGeometry": True}
    elif pick < 0.52:
        target = {"type": "arcgis", "url": f"{services}/USA/MapServer/0"}
        query = {"where": "POP2000 > 0", "result": "statistics", "groupBy": ["ST"],
                 "statistics": [{"type": "count", "field": "POP2000", "name": "cities"},
                                {"type": "sum", "field": "POP2000"}]}
    elif pick < 0.57:
        target = {"type": "arcgis", "url": f"{services}/USA/MapServer"}
        query = {"result": "catalog"}
    elif pick < 0.62:
        target = {"type": "ogc", "url": f"{origin}/ogc"}
        query = {"result": "catalog"}
    elif pick < 0.75:
        target = {"type": "ogc", "url": f"{origin}/ogc", "collection": "USA_Cities"}
        query = {"where": f"POP2000 > {rng.randrange(0, 200000)}", "result": "count"}
    elif pick < 0.90:
        target = {"type": "arcgis", "url": f"{services}/Secured/USA/MapServer/2"}
        query = {"where": f"POP2000 > {rng.randrange(0, 5000000)}", "result": "count"}
    else:
        target = {"type": "ogc", "url": f"{origin}/ogc-secured", "collection": "USA_States"}
        query = {"result": "count"}
    return {"targets": [target], "query": query}


SUPERSEDED_SHARE = 0.05
CANCELLED_SHARE = 0.02


def slow_request(rig, rng):
    """A request that runs 3 s (the counties layer is held): the first of a superseded pair, or a cancelled one."""
    return {"targets": [{"type": "arcgis", "url": f"{rig.services}/USA/MapServer/3"}],
            "query": {"where": f"POP2000 > {rng.randrange(0, 100000)}", "result": "count"}}


async def produce(rig, stop, requests_out):
    """Requests at a steady rate until `stop` is set."""
    rng = random.Random(7)
    producer = AIOKafkaProducer(bootstrap_servers=rig.bootstrap, linger_ms=5, enable_idempotence=True)
    await producer.start()
    try:
        interval = 1.0 / rig.args.rate
        due = time.monotonic()
        index = 0
        while not stop.is_set():
            draw = rng.random()
            kind = "supersede" if draw < SUPERSEDED_SHARE else ("cancel" if draw < SUPERSEDED_SHARE + CANCELLED_SHARE else "one")
            task = f"task-{index:07d}"
            first = f"r-{index:07d}-{uuid.uuid4().hex[:6]}"
            bodies = [(first, slow_request(rig, rng) if kind != "one" else request_mix(rig, rng))]
            if kind == "supersede":
                bodies.append((first + "-newer", request_mix(rig, rng)))
            for request_id, body in bodies:
                message = dict(body, requestId=request_id, taskId=task)
                sent = now()
                await producer.send_and_wait(REQUESTS_TOPIC, json.dumps(message).encode(), key=task.encode())
                requests_out.write(json.dumps({"requestId": request_id, "t": sent, "kind": kind}) + "\n")
            if kind == "cancel":
                await producer.send_and_wait(REQUESTS_TOPIC, json.dumps({"taskId": task, "cancel": True}).encode(),
                                             key=task.encode())
            index += 1
            due += interval
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            else:
                due = time.monotonic()
        requests_out.flush()
    finally:
        await producer.stop()


async def collect(rig, outcomes_out, seen, done):
    """Every outcome of the results and errors topics, from their start."""
    consumer = AIOKafkaConsumer(RESULTS_TOPIC, ERRORS_TOPIC, bootstrap_servers=rig.bootstrap, group_id=None,
                                auto_offset_reset="earliest",
                                isolation_level="read_committed" if rig.args.exactly_once else "read_uncommitted")
    await consumer.start()
    try:
        while not done.is_set():
            for _, value in await next_outcomes(consumer, 500):
                if value.get("part") not in (None, 1):
                    continue
                row = {"requestId": value.get("requestId"), "status": value.get("status"), "t": now(),
                       "worker": value.get("worker")}
                outcomes_out.write(json.dumps(row) + "\n")
                seen[row["requestId"]] = seen.get(row["requestId"], 0) + 1
            outcomes_out.flush()
    finally:
        await consumer.stop()


def proc_sample(pid):
    try:
        with open(f"/proc/{pid}/status") as handle:
            status = handle.read()
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) * 1024
        threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return rss, threads, fds
    except (OSError, AttributeError):
        return None


# What each sample sums from a worker's /metrics: series by the start of their line, summed over labels.
METRIC_SAMPLES = {
    "query_worker_requests_in_flight": "inFlight",
    "query_worker_consumer_lag": "lag",
    "query_worker_token_fetches_total": "tokenCalls",
    "query_worker_metadata_cache_entries": "metadataEntries",
    'query_worker_credential_cache_entries{cache="tokens"}': "tokenSlots",
    'query_worker_credential_cache_entries{cache="urls"}': "credentialURLs",
    "query_worker_memory_trimmed_bytes_total": "trimmedBytes",
}


def metrics_sample(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as response:
            text = response.read().decode()
    except OSError:
        return {}
    values = {name: 0.0 for name in METRIC_SAMPLES.values()}
    for line in text.splitlines():
        for prefix, name in METRIC_SAMPLES.items():
            if line.startswith(prefix):
                values[name] += float(line.rsplit(" ", 1)[1])
    return values


async def sample(rig, done, out):
    reported = set()
    while not done.is_set():
        for name, (process, port, incarnation) in list(rig.workers.items()):
            if process.poll() is not None:
                if (name, incarnation) not in reported:
                    reported.add((name, incarnation))
                    rig.event("worker-ended", worker=name, incarnation=incarnation, code=process.returncode)
                continue
            proc = proc_sample(process.pid)
            if proc is None:
                continue
            rss, threads, fds = proc
            row = {"t": now(), "worker": name, "incarnation": incarnation, "rss": rss, "threads": threads, "fds": fds}
            row.update(metrics_sample(port))
            out.write(json.dumps(row) + "\n")
        out.flush()
        await asyncio.sleep(rig.args.sample_seconds)


def schedule(duration):
    """(offset in seconds, action) for a run of `duration` seconds: the victim killed every 5 minutes (every
    twelfth of a shorter run, but at most once a minute: a group that never settles measures nothing else), the
    other faults once or twice, at the same fractions of the run as in an hour."""
    hour = 3600.0
    scale = duration / hour
    every = max(300 * scale, 60)
    plan = []
    offset = every / 2
    while offset < duration:
        plan.append((offset, "kill"))
        offset += every
    plan += [(900 * scale, "outage"), (2700 * scale, "outage")]
    # The first and the last sixth carry the same faults (two kills each), so that their latencies compare the
    # worker with itself, not two schedules.
    plan += [(1200 * scale, "leader"), (2400 * scale, "leader")]
    plan += [(1500 * scale, "revoke")]
    plan += [(2100 * scale, "rotate-key")]
    return sorted(plan)


async def run_faults(rig, duration, stop):
    """Each action at its time; the long ones (an outage, a key rotation) in tasks of their own, so that the
    schedule does not slip."""
    start = time.monotonic()
    running = []
    state = {"key": 0, "leader": 1}
    for offset, action in schedule(duration):
        delay = start + offset - time.monotonic()
        if delay > 0:
            try:
                await asyncio.wait_for(stop.wait(), timeout=delay)
                break
            except asyncio.TimeoutError:
                pass
        running.append(asyncio.create_task(fault(rig, action, state)))
    await asyncio.gather(*running)


async def fault(rig, action, state):
    if action == "kill":
        process, _, _ = rig.workers[VICTIM]
        process.kill()
        process.wait()
        rig.start_worker(VICTIM)
        rig.event("kill", worker=VICTIM, pid=process.pid)
    elif action == "outage":
        rig.event("outage-begin")
        await asyncio.to_thread(rig.kafka_command, "down all")
        await asyncio.sleep(10)
        await asyncio.to_thread(rig.kafka_command, "up all")
        rig.event("outage-end")
    elif action == "leader":
        state["leader"] = state["leader"] % 3 + 1
        for partition in range(6):
            await asyncio.to_thread(rig.kafka_command, f"leader {REQUESTS_TOPIC} {partition} {state['leader']}")
        rig.event("leader", broker=state["leader"])
    elif action == "revoke":
        rig.security(revokeAll="true")
        rig.event("revoke")
    elif action == "rotate-key":
        state["key"] += 1
        generation = state["key"]
        rig.security(addAPIKey=f"soak-ogc-key-{generation}")
        rig.write_credentials(generation, expiration_minutes=30 + generation)
        rig.event("rotate-key", generation=generation)
        await asyncio.sleep(30)
        rig.security(expireAPIKey=f"soak-ogc-key-{generation - 1}")
        rig.event("old-key-expired", generation=generation - 1)


async def main_async(args):
    rig = Rig(args)
    rig.started = now()
    rig.start_cluster()
    rig.start_server()
    rig.credentials = rig.write_credentials(0, expiration_minutes=30)
    for name in WORKERS:
        rig.start_worker(name)
    rig.event("started", bootstrap=rig.bootstrap, server=rig.services, exactlyOnce=args.exactly_once)
    await asyncio.sleep(8)  # the group forms

    requests_out = open(os.path.join(args.work, "requests.jsonl"), "w")
    outcomes_out = open(os.path.join(args.work, "outcomes.jsonl"), "w")
    samples_out = open(os.path.join(args.work, "samples.jsonl"), "w")
    seen = {}
    stop, done = asyncio.Event(), asyncio.Event()
    collector = asyncio.create_task(collect(rig, outcomes_out, seen, done))
    sampler = asyncio.create_task(sample(rig, done, samples_out))
    faults = asyncio.create_task(run_faults(rig, args.minutes * 60, stop))
    producer = asyncio.create_task(produce(rig, stop, requests_out))
    await asyncio.sleep(args.minutes * 60)
    stop.set()
    await producer
    await faults
    rig.event("load-ended")
    requests_out.close()
    wanted = [json.loads(line)["requestId"] for line in open(os.path.join(args.work, "requests.jsonl"))]
    deadline = time.monotonic() + args.drain_seconds
    while time.monotonic() < deadline and any(request not in seen for request in wanted):
        await asyncio.sleep(1)
    await asyncio.sleep(5)  # late repeats
    done.set()
    await collector
    await sampler
    rig.stop()
    rig.event("stopped")
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["run", "report"])
    parser.add_argument("--work", required=True)
    parser.add_argument("--query-worker")
    parser.add_argument("--server")
    parser.add_argument("--kafka-lib-dir", default="")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--rate", type=float, default=20, help="requests per second")
    parser.add_argument("--sample-seconds", type=float, default=10)
    parser.add_argument("--drain-seconds", type=float, default=180)
    parser.add_argument("--error-rate", type=float, default=0.01, help="share of queries answered 503")
    parser.add_argument("--slow-rate", type=float, default=0.02, help="share of queries held 1.5 s")
    parser.add_argument("--exactly-once", action="store_true")
    parser.add_argument("--short", action="store_true",
                        help="report: judge only what minutes can show (lost, repeated, failed, crashed), not trends")
    args = parser.parse_args()
    # aiokafka reports every refused connection of an outage: the events say when the outages were.
    logging.basicConfig(level=logging.CRITICAL)
    if args.mode == "run":
        raise SystemExit(asyncio.run(main_async(args)))
    import soak_report
    raise SystemExit(soak_report.report(args.work, args.minutes, short=args.short))


if __name__ == "__main__":
    main()
