#!/usr/bin/env python3
"""A feature-query client in Python: what an integrator in another language starts from.

It does what every service publishing query jobs needs, with aiokafka and the contract's JSON Schemas only:
- validates a request against `schemas/request.schema.json` before publishing (the worker would reject it too);
- publishes it keyed by its `taskId` (docs/contract/README.md, "Topics and keys");
- awaits its outcome with ONE reader for all calls: no consumer group, every partition of the result and error
  topics assigned, positioned at their end offsets BEFORE anything is published, so no outcome is missed;
- puts a split result back together (the contract's `reassemble`), ignoring duplicate parts;
- cancels a task (a `{"taskId": ..., "cancel": true}` message on the request topic).
Outcomes are zstd-compressed by the worker: aiokafka (0.14) needs the `cramjam` package to read them.

    feature_query_client.py --bootstrap HOST:PORT --layer LAYER_URL --slow-layer LAYER_URL [--requests-topic T]
                            [--results-topic T] [--errors-topic T]

runs the walk-through CI runs against the worker: a count, the ids of a split result reassembled, a request the
schemas refuse before publishing, and a cancelled task. It prints one `OK ...` line per step and exits 1 when a
step does not give what the contract promises.
"""
import argparse
import asyncio
import json
import pathlib
import sys
import uuid

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import validate  # noqa: E402  (the contract's own schema validator: docs/contract/tools/validate.py)


class InvalidRequest(Exception):
    """The request does not satisfy the contract's schema; nothing was published."""


def reassemble(parts):
    """The contract's reassembly (docs/contract/README.md, "Putting a result back together")."""
    parts = sorted(parts, key=lambda m: m["part"])
    whole, layers = dict(parts[0], part=1, parts=1), {}
    for message in parts:
        for entry in message["layers"]:
            layer = layers.get(entry["url"])
            if layer is None:
                layers[entry["url"]] = json.loads(json.dumps(entry))
            else:
                for name in ("objectIds", "featureIds", "catalog", "statistics", "distinct"):
                    layer.get(name, []).extend(entry.get(name, []))
                if "features" in entry:
                    layer["features"]["features"].extend(entry["features"]["features"])
                for name, member in (("related", "records"), ("attachments", "attachments")):
                    groups, more = layer.get(name), list(entry.get(name, []))
                    if groups and more and groups[-1]["objectId"] == more[0]["objectId"]:
                        groups[-1][member].extend(more.pop(0)[member])
                    if groups is not None:
                        groups.extend(more)
    whole["layers"] = list(layers.values())
    return whole


class FeatureQueryClient:
    def __init__(self, bootstrap, requests_topic="feature-queries", results_topic="feature-query-results",
                 errors_topic="feature-query-errors"):
        self.bootstrap, self.requests_topic = bootstrap, requests_topic
        self.outcome_topics = (results_topic, errors_topic)
        self.waiting = {}        # requestId -> Future of the outcome
        self.parts = {}          # (requestId, finishedAt) -> {part: message}
        self.assembled_from = {} # requestId -> how many parts its result came in

    async def start(self):
        self.producer = AIOKafkaProducer(bootstrap_servers=self.bootstrap, enable_idempotence=True)
        await self.producer.start()
        # One reader, no group: every partition assigned and positioned at its end before anything is published.
        self.consumer = AIOKafkaConsumer(bootstrap_servers=self.bootstrap, group_id=None, enable_auto_commit=False)
        await self.consumer.start()
        partitions = [TopicPartition(topic, p) for topic in self.outcome_topics
                      for p in (self.consumer.partitions_for_topic(topic) or await self._partitions(topic))]
        self.consumer.assign(partitions)
        for partition, offset in (await self.consumer.end_offsets(partitions)).items():
            self.consumer.seek(partition, offset)
        self.reading = asyncio.create_task(self._read())

    async def _partitions(self, topic):
        await self.consumer._client.force_metadata_update()
        return self.consumer.partitions_for_topic(topic) or {0}

    async def stop(self):
        self.reading.cancel()
        await asyncio.gather(self.reading, return_exceptions=True)
        await self.consumer.stop()
        await self.producer.stop()

    async def submit(self, request, timeout=60, published=None):
        """Validates, publishes keyed by the taskId, and returns the outcome (a result reassembled, or an error).
        `published`, an asyncio.Event, is set once the request is in Kafka (before its outcome is awaited)."""
        request = dict(request)
        request.setdefault("requestId", str(uuid.uuid4()))
        errors = validate.errors_of("request", request)
        if errors:
            raise InvalidRequest("; ".join(errors))
        outcome = asyncio.get_running_loop().create_future()
        self.waiting[request["requestId"]] = outcome
        key = (request.get("taskId") or request["requestId"]).encode()
        await self.producer.send_and_wait(self.requests_topic, json.dumps(request).encode(), key=key)
        if published is not None:
            published.set()
        try:
            return await asyncio.wait_for(outcome, timeout)
        finally:
            self.waiting.pop(request["requestId"], None)

    async def cancel(self, task_id):
        await self.producer.send_and_wait(self.requests_topic, json.dumps({"taskId": task_id, "cancel": True}).encode(),
                                          key=task_id.encode())

    async def _read(self):
        try:
            await self._read_outcomes()
        except asyncio.CancelledError:
            raise
        except Exception as error:      # a reader that cannot go on fails every call waiting on it, at once
            for outcome in self.waiting.values():
                if not outcome.done():
                    outcome.set_exception(error)
            raise

    async def _read_outcomes(self):
        async for record in self.consumer:
            message = json.loads(record.value)
            request_id = message.get("requestId")
            outcome = self.waiting.get(request_id)
            if outcome is None or outcome.done():
                continue
            if record.topic == self.outcome_topics[1]:
                outcome.set_result(message)
                continue
            group = self.parts.setdefault((request_id, message.get("finishedAt")), {})
            group.setdefault(message.get("part", 1), message)     # a duplicate part is ignored
            if len(group) == message.get("parts", 1):
                del self.parts[(request_id, message.get("finishedAt"))]
                self.assembled_from[request_id] = len(group)
                outcome.set_result(reassemble(list(group.values())))


async def walk_through(args):
    client = FeatureQueryClient(args.bootstrap, args.requests_topic, args.results_topic, args.errors_topic)
    await client.start()
    failures = []

    def check(condition, text):
        print(("OK   " if condition else "FAIL ") + text)
        if not condition:
            failures.append(text)

    try:
        target = [{"type": "arcgis", "url": args.layer}]
        count = await client.submit({"taskId": "py-count", "targets": target, "query": {"where": "OBJECTID <= 5000", "result": "count"}})
        check(count["status"] == "succeeded" and count["layers"][0]["count"] == 5000, f"count: {count['status']}, {count['layers'][0].get('count')}")

        ids = await client.submit({"taskId": "py-ids", "requestId": "py-ids-1", "targets": target,
                                   "query": {"where": "OBJECTID <= 5000", "result": "ids"}})
        layer = ids["layers"][0]
        check(ids["status"] == "succeeded" and layer["objectIds"] == list(range(1, 5001)),
              f"ids: {len(layer.get('objectIds', []))} ids in order, reassembled from {client.assembled_from.get('py-ids-1')} parts")
        check(client.assembled_from.get("py-ids-1", 0) >= 2, "ids: the result came split into parts")

        try:
            await client.submit({"taskId": "py-bad", "targets": target, "query": {"result": "everything"}})
            check(False, "a request the schema refuses was published")
        except InvalidRequest as error:
            check(True, f"refused before publishing: {str(error)[:80]}")

        published = asyncio.Event()
        slow = asyncio.create_task(client.submit(
            {"taskId": "py-slow", "targets": [{"type": "arcgis", "url": args.slow_layer}], "query": {"result": "count"}},
            published=published))
        await published.wait()
        await client.cancel("py-slow")
        cancelled = await slow
        check(cancelled["status"] == "cancelled" and cancelled["error"]["code"] == "cancel_requested",
              f"cancel: the task's request answered {cancelled['status']} ({cancelled.get('error', {}).get('code')})")
    finally:
        await client.stop()
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--layer", required=True, help="a layer answering at once")
    parser.add_argument("--slow-layer", required=True, help="a layer held long enough for the cancel to arrive first")
    parser.add_argument("--requests-topic", default="feature-queries")
    parser.add_argument("--results-topic", default="feature-query-results")
    parser.add_argument("--errors-topic", default="feature-query-errors")
    return asyncio.run(walk_through(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
