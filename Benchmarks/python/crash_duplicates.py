"""Driver of Benchmarks/run-crash-duplicates.sh (issue 16): produces count requests, reads every outcome back and
samples the group's committed offsets (`collect`), then relates duplicates to the kills (`report`).

collect: publishes --requests count requests (keyed by their requestId, spread over --produce-seconds), reads the
results and errors topics from their start (no group), and every --commit-poll seconds the group's committed
offsets (OffsetFetch through the admin client: it does not join the group). Writes requests.jsonl,
outcomes.jsonl and commits.jsonl into --work. Stops when every request has an outcome and --work/kills-done
exists, after --settle more seconds (redelivered requests are answered again after their first answer), or at
--timeout.

report: prints the figures and, per kill, the partitions the killed worker held, the duplicates attributed to
that kill, how long before the kill their first answer was published and whether the group's committed offset
had passed them at the kill.
"""

import argparse
import asyncio
import bisect
import collections
import glob
import json
import os
import time
import uuid

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from outcome_reader import next_outcomes


def now_ms():
    return int(time.time() * 1000)


async def produce(args, out):
    producer = AIOKafkaProducer(bootstrap_servers=args.bootstrap, linger_ms=5)
    await producer.start()
    try:
        start = time.monotonic()
        for index in range(args.requests):
            request_id = f"dup-{index:05d}-{uuid.uuid4().hex[:8]}"
            body = {"requestId": request_id, "targets": [{"type": "arcgis", "url": args.layer_url}],
                    "query": {"where": "1=1", "result": "count"}}
            metadata = await producer.send_and_wait(args.requests_topic, json.dumps(body).encode(),
                                                    key=request_id.encode())
            out.write(json.dumps({"requestId": request_id, "partition": metadata.partition,
                                  "offset": metadata.offset, "tMs": now_ms()}) + "\n")
            if args.produce_seconds > 0:
                due = start + args.produce_seconds * (index + 1) / args.requests
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
        out.flush()
    finally:
        await producer.stop()


async def poll_commits(args, out, stop):
    admin = AIOKafkaAdminClient(bootstrap_servers=args.bootstrap)
    await admin.start()
    last = {}
    # Named partitions: the mock cluster answers an OffsetFetch for "all partitions" with none.
    partitions = [TopicPartition(args.requests_topic, p) for p in range(args.partitions)]
    try:
        while not stop.is_set():
            try:
                offsets = await admin.list_consumer_group_offsets(args.group, partitions=partitions)
            except Exception as error:  # the coordinator moves or is busy while the group rebalances
                offsets = {}
                out.write(json.dumps({"tMs": now_ms(), "error": repr(error)}) + "\n")
            for tp, meta in offsets.items():
                if tp.topic == args.requests_topic and last.get(tp.partition) != meta.offset:
                    last[tp.partition] = meta.offset
                    out.write(json.dumps({"tMs": now_ms(), "partition": tp.partition, "offset": meta.offset}) + "\n")
            out.flush()
            await asyncio.sleep(args.commit_poll)
    finally:
        await admin.close()


async def collect(args):
    work = args.work
    requests_file = open(os.path.join(work, "requests.jsonl"), "w")
    outcomes_file = open(os.path.join(work, "outcomes.jsonl"), "w")
    commits_file = open(os.path.join(work, "commits.jsonl"), "w")
    consumer = AIOKafkaConsumer(args.results_topic, args.errors_topic, bootstrap_servers=args.bootstrap,
                                group_id=None, auto_offset_reset="earliest", enable_auto_commit=False,
                                isolation_level=args.isolation_level)
    await consumer.start()
    stop = asyncio.Event()
    commits = asyncio.ensure_future(poll_commits(args, commits_file, stop))
    producing = asyncio.ensure_future(produce(args, requests_file))
    answered = set()
    deadline = time.monotonic() + args.timeout
    settle_until = None
    try:
        while time.monotonic() < deadline:
            for message, body in await next_outcomes(consumer, 200):
                request_id = body.get("requestId")
                answered.add(request_id)
                outcomes_file.write(json.dumps({
                    "requestId": request_id, "status": body.get("status"), "worker": body.get("worker"),
                    "part": body.get("part"), "topic": message.topic, "partition": message.partition,
                    "offset": message.offset, "tMs": message.timestamp, "seenMs": now_ms(),
                    "code": (body.get("error") or {}).get("code")}) + "\n")
            outcomes_file.flush()
            if producing.done() and settle_until is None:
                producing.result()
                if len(answered) >= args.requests and os.path.exists(os.path.join(work, "kills-done")):
                    settle_until = time.monotonic() + args.settle
            if settle_until is not None and time.monotonic() >= settle_until:
                break
    finally:
        stop.set()
        await commits
        await consumer.stop()
        if not producing.done():
            producing.cancel()
        for handle in (requests_file, outcomes_file, commits_file):
            handle.close()


def read_jsonl(path):
    rows = []
    if os.path.exists(path):
        with open(path) as handle:
            for line in handle:
                line = line.strip()
                if line.startswith("{"):
                    try:
                        rows.append(json.loads(line))
                    except ValueError:
                        pass
    return rows


def log_ms(line):
    # "2026-11-26T17:34:56.513Z"
    stamp = line.get("ts", "")
    try:
        seconds = time.mktime(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
        return int(seconds * 1000) + int(stamp[20:23])
    except ValueError:
        return None


def partitions_held(log_path, topic, before_ms):
    """The request partitions a worker incarnation held when it was killed, and all it was ever assigned, from its log."""
    held, ever = set(), set()
    for line in read_jsonl(log_path):
        t = log_ms(line)
        if t is not None and t > before_ms:
            break
        message = line.get("message")
        partitions = line.get("partitions")
        if not isinstance(partitions, list):
            continue
        numbers = {int(p.split("[")[1].rstrip("]")) for p in partitions if p.startswith(topic + "[")}
        if message == "partitions assigned":
            held |= numbers
            ever |= numbers
        elif message in ("partitions revoked", "partitions lost"):
            held -= numbers
    return held, ever


def first_line_after(log_path, messages, after_ms, until_ms=None):
    """The time of the first line of a log with one of `messages` at or after after_ms (and before until_ms), or None."""
    for line in read_jsonl(log_path):
        t = log_ms(line)
        if t is None or t < after_ms or line.get("message") not in messages:
            continue
        return t if until_ms is None or t < until_ms else None
    return None


def revocations_between(logs_dir, victim, after_ms, until_ms):
    """How many times workers other than the victim were revoked or lost partitions between two instants: the
    rebalances a kill caused in the rest of the group (none when a static member takes its place back)."""
    count = 0
    for name in sorted(os.listdir(logs_dir)) if os.path.isdir(logs_dir) else []:
        if name.split(".")[0] == victim:
            continue
        for line in read_jsonl(os.path.join(logs_dir, name)):
            t = log_ms(line)
            if t is not None and after_ms <= t < until_ms and \
                    line.get("message") in ("partitions revoked", "partitions lost"):
                count += 1
    return count


def next_incarnation_log(log_path):
    """logs/w1.3.jsonl -> logs/w1.4.jsonl: the restarted worker's log."""
    directory, name = os.path.split(log_path)
    worker, incarnation, _ = name.split(".")
    return os.path.join(directory, f"{worker}.{int(incarnation) + 1}.jsonl")


def committed_at(commits, partition, t_ms):
    """The group's committed offset of a partition as last sampled before t_ms (-1: none yet)."""
    rows = commits.get(partition, [])
    index = bisect.bisect_right([row[0] for row in rows], t_ms) - 1
    return rows[index][1] if index >= 0 else -1


def report(args):
    work = args.work
    requests = {row["requestId"]: row for row in read_jsonl(os.path.join(work, "requests.jsonl"))}
    outcomes = [row for row in read_jsonl(os.path.join(work, "outcomes.jsonl")) if row.get("part") in (None, 1)]
    kills = read_jsonl(os.path.join(work, "kills.jsonl"))
    commits = collections.defaultdict(list)
    for row in read_jsonl(os.path.join(work, "commits.jsonl")):
        if "partition" in row:
            commits[row["partition"]].append((row["tMs"], row["offset"]))
    by_request = collections.defaultdict(list)
    for row in outcomes:
        if row["requestId"] in requests:
            by_request[row["requestId"]].append(row)
    for rows in by_request.values():
        rows.sort(key=lambda row: row["tMs"])
    total = len(requests)
    statuses = collections.Counter(row["status"] for rows in by_request.values() for row in rows)
    duplicated = {rid: rows for rid, rows in by_request.items() if len(rows) > 1}
    extra = sum(len(rows) - 1 for rows in duplicated.values())
    lost = total - len(by_request)
    pct = lambda n: f"{100.0 * n / total:.1f}%" if total else "n/a"
    print(f"requests:            {total}")
    print(f"outcomes:            {sum(len(rows) for rows in by_request.values())} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(statuses.items(), key=lambda kv: str(kv[0])))})")
    print(f"distinct answered:   {len(by_request)}")
    print(f"lost:                {lost} ({pct(lost)})")
    print(f"duplicated requests: {len(duplicated)} ({pct(len(duplicated))}); extra outcomes {extra}")
    pairs = collections.Counter(
        " -> ".join(f"{row['status']}" for row in rows) for rows in duplicated.values())
    if pairs:
        print("duplicate outcome sequences: " + ", ".join(f"{k}: {v}" for k, v in pairs.most_common(6)))
    # Attribute each duplicate to the first kill after its first answer, if that came before its second answer.
    kill_times = [kill["tMs"] for kill in kills]
    per_kill = collections.defaultdict(list)
    unattributed = []
    for rid, rows in duplicated.items():
        first, second = rows[0], rows[1]
        index = bisect.bisect_left(kill_times, first["tMs"])
        if index < len(kill_times) and kill_times[index] < second["tMs"]:
            per_kill[index].append(rid)
        else:
            unattributed.append(rid)
    print("per kill (duplicates whose first answer came before this kill and after the previous one, the second after it):")
    recovery = []
    for index, kill in enumerate(kills):
        held, ever = partitions_held(kill["log"], args.requests_topic, kill["tMs"])
        rids = per_kill.get(index, [])
        in_held = [rid for rid in rids if requests[rid]["partition"] in held]
        by_victim = [rid for rid in rids if (duplicated[rid][0].get("worker") or "").startswith(kill["worker"])]
        ages = sorted(kill["tMs"] - duplicated[rid][0]["tMs"] for rid in rids)
        uncommitted = [rid for rid in rids
                       if requests[rid]["offset"] >= committed_at(commits, requests[rid]["partition"], kill["tMs"])]
        per_partition = collections.Counter(requests[rid]["partition"] for rid in rids)
        committed = {p: committed_at(commits, p, kill["tMs"]) for p in sorted(held)}
        age_text = (f"first answer {ages[0]}..{ages[-1]} ms before the kill (median {ages[len(ages) // 2]})"
                    if ages else "")
        until = kill_times[index + 1] if index + 1 < len(kill_times) else float("inf")
        back = first_line_after(next_incarnation_log(kill["log"]), ("partitions assigned",), kill["tMs"])
        resumed = min((row["tMs"] for row in outcomes
                       if row["tMs"] > kill["tMs"] and row["requestId"] in requests
                       and requests[row["requestId"]]["partition"] in held), default=None)
        others = revocations_between(os.path.join(work, "logs"), kill["worker"], kill["tMs"], until)
        recovery.append((back, resumed, others, kill["tMs"]))
        print(f"  kill {index + 1} at +{(kill['tMs'] - kill_times[0]) / 1000:.1f}s ({kill['worker']} pid {kill['pid']}): "
              f"held partitions {sorted(held) or '[]'} (in its life {sorted(ever) or '[]'}); duplicates {len(rids)} "
              f"(in held partitions {len(in_held)}, first answered by the killed worker {len(by_victim)}, "
              f"offset not committed at the kill {len(uncommitted)}); per partition {dict(sorted(per_partition.items()))}; "
              f"{age_text}; committed at kill {committed}; restarted worker assigned "
              f"{'after ' + format((back - kill['tMs']) / 1000, '.1f') + ' s' if back else 'not before the next kill'}, "
              f"its partitions answered again after "
              f"{format((resumed - kill['tMs']) / 1000, '.1f') + ' s' if resumed else '(none)'}; "
              f"other workers revoked {others} time(s)")
    if unattributed:
        print(f"  no kill between the first and second answer (rebalance only): {len(unattributed)}")
    resumed_s = sorted((resumed - t) / 1000 for _, resumed, _, t in recovery if resumed)
    if resumed_s:
        print(f"recovery: the killed worker's partitions answered again after median {resumed_s[len(resumed_s) // 2]:.1f} s "
              f"(max {resumed_s[-1]:.1f} s) over {len(resumed_s)} kills; other workers revoked "
              f"{sum(others for _, _, others, _ in recovery)} time(s) in all")
    print(f"duplicates: {len(duplicated)} of {total} requests ({pct(len(duplicated))})")
    with open(os.path.join(work, "duplicates.jsonl"), "w") as handle:
        for rid, rows in duplicated.items():
            handle.write(json.dumps({"request": requests[rid], "outcomes": rows}) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["collect", "report"])
    parser.add_argument("--work", required=True)
    parser.add_argument("--bootstrap")
    parser.add_argument("--group", default="crash-duplicates")
    parser.add_argument("--layer-url")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--partitions", type=int, default=6, help="partitions of the requests topic")
    parser.add_argument("--produce-seconds", type=float, default=0)
    parser.add_argument("--commit-poll", type=float, default=0.1)
    parser.add_argument("--settle", type=float, default=15)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--isolation-level", default="read_uncommitted",
                        help="read_committed to count only committed transactions' outcomes (--exactly-once)")
    parser.add_argument("--requests-topic", default="feature-queries")
    parser.add_argument("--results-topic", default="feature-query-results")
    parser.add_argument("--errors-topic", default="feature-query-errors")
    args = parser.parse_args()
    if args.mode == "collect":
        asyncio.run(collect(args))
    else:
        report(args)


if __name__ == "__main__":
    main()
