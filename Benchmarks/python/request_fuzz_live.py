#!/usr/bin/env python3
"""The request fuzzer's live run (issue 16, item 5): hostile messages through a running worker.

    request_fuzz_live.py --messages FILE --bootstrap HOST:PORT [--timeout S] [--settle S] [--work DIR]

FILE comes from `RequestFuzz generate`: one JSON line per message with its value and key (base64; null for
none), `answer` (what the worker's own decoder answers it, run offline: `query`, `cancel` or a rejection
code) and, for an accepted query, the `requestId` the decoder read. This script reads the results and errors
topics from the start (no group), publishes the messages to the requests topic in windows (see produce()),
and waits until every message that must have an outcome has one, then SETTLE seconds more (late
duplicates), or TIMEOUT.

Outcomes are matched to messages by `source.partition`/`source.offset` (every error outcome has it, a
rejection of a message without readable ids too) and, for results (which carry no offset), by requestId.
Checks, per message:
- a rejection (offline) gets exactly one outcome: `rejected` with the same code;
- a query gets exactly one outcome, any status (the sample server answers, or the host policy refuses);
- a cancel gets none.
A query whose requestId another message (a mutation made them alike) has in flight is answered once for both
(the contract's duplicate rule): such a message without an outcome of its own is counted, not missing.
Prints the figures and the violations; writes outcomes.jsonl and violations.jsonl to WORK; exits 1 on any
violation (missing, duplicate, wrong status or code, an outcome for a cancel, an outcome matching no message).
"""

import argparse
import asyncio
import base64
import collections
import json
import os
import time

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer


def load(path):
    messages = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            for name in ("value", "key"):
                record[name] = None if record[name] is None else base64.b64decode(record[name])
            messages.append(record)
    return messages


async def produce(args, messages, where, answered_count):
    """Publishes in windows of at most WINDOW_BYTES and WINDOW_MESSAGES, each after the outcomes due for the ones
    before arrived (or WINDOW_WAIT seconds passed): embedded-kafka keeps only the last ~5 MiB of a partition, so
    a burst of large hostile messages would be dropped by the cluster before the worker read them."""
    producer = AIOKafkaProducer(bootstrap_servers=args.bootstrap, linger_ms=5, max_request_size=4 * 1024 * 1024,
                                max_batch_size=1024 * 1024)
    await producer.start()
    try:
        pending, due, seen_ids = [], 0, set()
        window_bytes = window_messages = 0
        for index, message in enumerate(messages):
            size = len(message["value"] or b"")
            if window_messages and (window_bytes + size > args.window_bytes or window_messages >= args.window_messages):
                await settle_sends(pending, where)
                waited = time.monotonic()
                while answered_count() < due and time.monotonic() - waited < args.window_wait:
                    await asyncio.sleep(0.02)
                window_bytes = window_messages = 0
            window_bytes += size
            window_messages += 1
            if message["answer"] == "query":
                due += message["requestId"] not in seen_ids
                seen_ids.add(message["requestId"])
            elif message["answer"] != "cancel":
                due += 1
            key = message["key"]
            if key is None and message["value"] is None:
                key = b""  # aiokafka sends no message without both; a tombstone is invalid_json whatever its key
            pending.append((index, await producer.send(args.requests_topic, message["value"], key=key)))
        await settle_sends(pending, where)
    finally:
        await producer.stop()


async def settle_sends(pending, where):
    for index, future in pending:
        metadata = await future
        where[(metadata.partition, metadata.offset)] = index
    pending.clear()


def outcome_record(topic, partition, offset, body):
    error = body.get("error") or {}
    source = body.get("source") or {}
    return {"topic": topic, "partition": partition, "offset": offset, "requestId": body.get("requestId"),
            "status": body.get("status"), "code": error.get("code"), "part": body.get("part"),
            "sourcePartition": source.get("partition"), "sourceOffset": source.get("offset")}


async def collect(args, messages):
    where = {}  # (partition, offset) of a published message -> its index
    by_request_id = collections.defaultdict(list)
    for index, message in enumerate(messages):
        if message["answer"] == "query":
            by_request_id[message["requestId"]].append(index)
    # The fewest outcomes that answer everything: queries sharing a requestId may be answered once for all.
    expected = sum(1 for message in messages if message["answer"] not in ("cancel", "query")) + len(by_request_id)
    consumer = AIOKafkaConsumer(args.results_topic, args.errors_topic, bootstrap_servers=args.bootstrap,
                                group_id=None, auto_offset_reset="earliest", enable_auto_commit=False,
                                fetch_max_bytes=64 * 1024 * 1024, max_partition_fetch_bytes=16 * 1024 * 1024)
    await consumer.start()
    started = time.monotonic()
    outcomes, answered = [], set()
    producing = asyncio.ensure_future(produce(args, messages, where, lambda: len(outcomes)))
    produced_at = last_outcome_at = None
    deadline, settle_until = started + args.timeout, None
    try:
        while time.monotonic() < deadline:
            batch = await consumer.getmany(timeout_ms=200, max_records=5000)
            for tp, records in batch.items():
                for record in records:
                    try:
                        body = json.loads(record.value)
                    except ValueError:
                        body = {}
                    outcome = outcome_record(tp.topic, tp.partition, record.offset, body)
                    if outcome["part"] not in (None, 1):
                        continue  # a result's later parts: the outcome counts once
                    outcomes.append(outcome)
                    last_outcome_at = time.monotonic()
                    answered.add((outcome["sourcePartition"], outcome["sourceOffset"], outcome["requestId"]))
            if producing.done() and produced_at is None:
                producing.result()
                produced_at = time.monotonic()
            if produced_at is not None and settle_until is None and len(outcomes) >= expected:
                settle_until = time.monotonic() + args.settle
            if settle_until is not None and time.monotonic() >= settle_until:
                break
    finally:
        await consumer.stop()
        if not producing.done():
            producing.cancel()
    timing = {"produceSeconds": (produced_at or time.monotonic()) - started,
              "answerSeconds": (last_outcome_at or time.monotonic()) - started}
    return where, by_request_id, outcomes, timing


def attribute(messages, where, by_request_id, outcomes):
    """Each outcome's message index, or None when it matches none.

    Two passes: outcomes with a source (every error) by partition and offset first; then results (no source) by
    requestId, to the first message of that requestId still without an outcome (several messages can share a
    requestId when a mutation made them alike)."""
    taken = collections.Counter()
    attributed = [None] * len(outcomes)
    for position, outcome in enumerate(outcomes):
        if outcome["sourcePartition"] is not None:
            attributed[position] = where.get((outcome["sourcePartition"], outcome["sourceOffset"]))
            if attributed[position] is not None:
                taken[attributed[position]] += 1
    for position, outcome in enumerate(outcomes):
        if outcome["sourcePartition"] is None and outcome["requestId"] in by_request_id:
            candidates = by_request_id[outcome["requestId"]]
            index = next((i for i in candidates if taken[i] == 0), candidates[0])
            taken[index] += 1
            attributed[position] = index
    return attributed


def check(messages, outcomes, attributed, by_request_id):
    per_message = collections.defaultdict(list)
    violations, unmatched = [], 0
    for outcome, index in zip(outcomes, attributed):
        if index is None:
            unmatched += 1
            violations.append({"kind": "unmatched outcome", "outcome": outcome})
        else:
            per_message[index].append(outcome)
    missing = duplicates = shared = 0
    for index, message in enumerate(messages):
        got = per_message.get(index, [])
        answer = message["answer"]
        if answer == "cancel":
            if got:
                violations.append({"kind": "outcome for a cancel", "index": index, "outcomes": got})
            continue
        if not got and answer == "query" and len(by_request_id[message["requestId"]]) > 1 \
                and any(per_message.get(other) for other in by_request_id[message["requestId"]]):
            # Another message with this requestId was in flight: the contract answers the copy once.
            shared += 1
            continue
        if not got:
            missing += 1
            violations.append({"kind": "missing", "index": index, "answer": answer, "messageKind": message["kind"]})
            continue
        if len(got) > 1:
            duplicates += 1
            violations.append({"kind": "duplicate", "index": index, "outcomes": got})
        first = got[0]
        if answer != "query" and (first["status"] != "rejected" or first["code"] != answer):
            violations.append({"kind": "wrong outcome", "index": index, "expected": answer, "outcome": first})
    return violations, missing, duplicates, unmatched, shared


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", required=True)
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--requests-topic", default="feature-queries")
    parser.add_argument("--results-topic", default="feature-query-results")
    parser.add_argument("--errors-topic", default="feature-query-errors")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("--work", default=".")
    parser.add_argument("--window-bytes", type=int, default=1024 * 1024)
    parser.add_argument("--window-messages", type=int, default=2000)
    parser.add_argument("--window-wait", type=float, default=30)
    args = parser.parse_args()
    messages = load(args.messages)
    where, by_request_id, outcomes, timing = await collect(args, messages)
    attributed = attribute(messages, where, by_request_id, outcomes)
    violations, missing, duplicates, unmatched, shared = check(messages, outcomes, attributed, by_request_id)
    with open(os.path.join(args.work, "outcomes.jsonl"), "w") as handle:
        for outcome, index in zip(outcomes, attributed):
            handle.write(json.dumps(dict(outcome, message=index)) + "\n")
    with open(os.path.join(args.work, "violations.jsonl"), "w") as handle:
        for violation in violations:
            handle.write(json.dumps(violation) + "\n")

    answers = collections.Counter("query" if m["answer"] == "query" else "cancel" if m["answer"] == "cancel"
                                  else "rejection" for m in messages)
    statuses = collections.Counter(f"{o['status']}/{o['code']}" if o["code"] else str(o["status"]) for o in outcomes)
    print(f"messages: {len(messages)} (offline decoder: {answers['query']} queries, {answers['cancel']} cancels, "
          f"{answers['rejection']} rejections); outcomes due: {len(messages) - answers['cancel']} "
          f"(fewer when queries share a requestId)")
    print(f"published in {timing['produceSeconds']:.1f} s ({len(messages) / timing['produceSeconds']:.0f} messages/s); "
          f"last outcome after {timing['answerSeconds']:.1f} s "
          f"({len(outcomes) / max(timing['answerSeconds'], 1e-9):.0f} outcomes/s)")
    print(f"outcomes: {len(outcomes)}")
    for label, number in statuses.most_common():
        print(f"  {label}: {number}")
    wrong = sum(1 for v in violations if v["kind"] == "wrong outcome")
    for_cancels = sum(1 for v in violations if v["kind"] == "outcome for a cancel")
    print(f"missing: {missing}, duplicates: {duplicates}, wrong status or code: {wrong}, "
          f"outcomes for cancels: {for_cancels}, unmatched outcomes: {unmatched}, "
          f"answered once with another message of the same requestId: {shared}")
    for violation in violations[:10]:
        print(f"  {json.dumps(violation)[:400]}")
    print(f"violations: {len(violations)}")
    raise SystemExit(1 if violations else 0)


if __name__ == "__main__":
    asyncio.run(main())
