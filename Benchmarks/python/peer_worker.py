"""A plain Python query worker: the peer of `worker-benchmark cpu` (issue 14, item 1).

What an engineer would write in an afternoon with aiokafka and aiohttp: reads request messages of the
contract (docs/contract/) from the request topic, runs their `count`, `ids` or `features` query on each
ArcGIS FeatureServer target (where + extent) with the HTTP requests our engine sends for them, at most
--max-in-flight requests at once, publishes a `succeeded` result per request to the results topic, logs one
JSON line per state change at info (received, started, succeeded, as our worker does) and commits each
partition's offsets up to the last request whose outcome is delivered.

Requests per query (GET, as the engine sends short queries): count: returnCountOnly; ids: returnIdsOnly and
returnCountOnly at once; features: returnCountOnly, then pages of the layer's maxRecordCount ordered by the
object-id field (outFields, returnGeometry, outSR=4326), turned into GeoJSON features (polygons wound as RFC 7946
says, as the worker writes them). A layer's metadata is read once. Not a product: no validation, retries, cancellation or errors topic; a failed query stops it.

    python peer_worker.py --bootstrap-servers HOST:PORT --group-id G --requests-topic R --results-topic S
"""
import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import time

import aiohttp
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition


class JSONLines(logging.Formatter):
    def format(self, record):
        line = {"timestamp": self.formatTime(record), "level": record.levelname.lower(), "message": record.getMessage()}
        line.update(getattr(record, "fields", {}))
        return json.dumps(line)


log = logging.getLogger("peer-worker")


def event(message, **fields):
    log.info(message, extra={"fields": fields})


class Peer:
    def __init__(self, args, session, producer, consumer):
        self.args, self.session, self.producer, self.consumer = args, session, producer, consumer
        self.layers = {}  # layer URL -> metadata (a task, so concurrent first requests share one fetch)
        self.done = {}  # TopicPartition -> offsets delivered but not yet committed
        self.next_commit = {}  # TopicPartition -> the next offset to commit (the first one read, to begin with)
        self.committed = {}  # TopicPartition -> the offset last committed

    async def get(self, url, params):
        async with self.session.get(url, params=params) as response:
            response.raise_for_status()
            body = await response.json(content_type=None)
        if "error" in body:
            raise RuntimeError(f"{url}: {body['error']}")
        return body

    async def metadata(self, url):
        if url not in self.layers:
            self.layers[url] = asyncio.ensure_future(self.get(url, {"f": "json"}))
        return await self.layers[url]

    async def query_layer(self, url, query):
        layer = await self.metadata(url)
        oid = layer.get("objectIdField", "OBJECTID")
        base = {"f": "json", "where": query.get("where", "1=1")}
        if "extent" in query:
            extent = query["extent"]
            base.update(geometry=json.dumps(extent, separators=(",", ":")), geometryType="esriGeometryEnvelope",
                        inSR=str(extent.get("spatialReference", {}).get("wkid", 4326)),
                        spatialRel="esriSpatialRelIntersects")
        endpoint = url + "/query"
        kind = query.get("result", "ids")
        out = {"url": url, "layerId": layer.get("id", 0), "name": layer.get("name", ""), "status": "succeeded",
               "objectIdField": oid, "complete": True}
        if kind == "count":
            out["count"] = (await self.get(endpoint, {**base, "returnCountOnly": "true"}))["count"]
        elif kind == "ids":
            ids, count = await asyncio.gather(self.get(endpoint, {**base, "returnIdsOnly": "true"}),
                                              self.get(endpoint, {**base, "returnCountOnly": "true"}))
            out["objectIds"] = sorted(set(ids.get("objectIds") or []))
            out["count"] = count["count"]
            if len(out["objectIds"]) < out["count"]:
                out.update(complete=False, incompleteReason="rows_lost")
        else:
            count = (await self.get(endpoint, {**base, "returnCountOnly": "true"}))["count"]
            wanted = min(count, query.get("maxFeatures", count))
            page_size = layer.get("maxRecordCount", 1000)
            output = {**base, "outFields": ",".join(query.get("outFields", ["*"])),
                      "returnGeometry": "true" if query.get("returnGeometry") else "false", "outSR": "4326"}
            pages = await asyncio.gather(*(self.get(endpoint, {
                **output, "orderByFields": f"{oid} ASC", "resultOffset": str(offset),
                "resultRecordCount": str(min(page_size, wanted - offset))}) for offset in range(0, wanted, page_size)))
            features = [geojson(row, oid) for page in pages for row in page.get("features", [])]
            out.update(count=count, complete=len(features) >= count, objectIds=[f["id"] for f in features],
                       features={"type": "FeatureCollection", "features": features})
            if not out["complete"]:  # why, as the worker says it
                out["incompleteReason"] = "max_features" if wanted < count else "rows_lost"
        return out

    async def handle(self, message, slots):
        received = time.time()
        request = json.loads(message.value)
        fields = {"requestId": request["requestId"], "taskId": request["taskId"],
                  "partition": message.partition, "offset": message.offset}
        event("received", targets=len(request["targets"]), **fields)
        event("started", **fields)
        layers = await asyncio.gather(*(self.query_layer(t["url"], request["query"]) for t in request["targets"]))
        finished = time.time()
        result = {"requestId": request["requestId"], "taskId": request["taskId"], "status": "succeeded", "part": 1,
                  "parts": 1, "receivedAt": stamp(received), "finishedAt": stamp(finished),
                  "durationMs": int((finished - received) * 1000), "worker": self.args.worker_id, "layers": layers}
        await self.producer.send_and_wait(self.args.results_topic, json.dumps(result).encode(),
                                          key=request["taskId"].encode())
        event("succeeded", status="succeeded", durationMs=result["durationMs"],
              counts=[layer["count"] for layer in layers], **fields)
        self.done.setdefault(TopicPartition(message.topic, message.partition), set()).add(message.offset)
        slots.release()

    async def commit_loop(self):
        while True:
            await asyncio.sleep(0.2)
            offsets = {}
            for tp, done in self.done.items():
                position = self.next_commit[tp]
                while position in done:
                    done.discard(position)
                    position += 1
                self.next_commit[tp] = position
                if position != self.committed.get(tp):
                    self.committed[tp] = offsets[tp] = position
            if offsets:
                await self.consumer.commit(offsets)

    async def run(self):
        slots = asyncio.Semaphore(self.args.max_in_flight)
        tasks = {asyncio.ensure_future(self.commit_loop())}
        async for message in self.consumer:
            await slots.acquire()
            self.next_commit.setdefault(TopicPartition(message.topic, message.partition), message.offset)
            task = asyncio.ensure_future(self.handle(message, slots))
            tasks.add(task)
            task.add_done_callback(lambda t: tasks.discard(t) if not t.exception() else fail(t))


def signed_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0, *_), (x1, y1, *_) in zip(ring, ring[1:])) / 2


def polygon(rings):
    """RFC 7946's winding, as the worker writes it: one ring counter-clockwise; several as Esri's clockwise
    exterior first, then its holes, every ring turned around."""
    if len(rings) == 1:
        return [rings[0] if signed_area(rings[0]) >= 0 else rings[0][::-1]]
    exterior = min(range(len(rings)), key=lambda index: signed_area(rings[index]))
    return [rings[exterior][::-1]] + [ring[::-1] for index, ring in enumerate(rings) if index != exterior]


def geojson(row, oid):
    attributes, geometry = row.get("attributes", {}), row.get("geometry")
    shape = None
    if geometry and "rings" in geometry:
        shape = {"type": "Polygon", "coordinates": polygon(geometry["rings"])}
    elif geometry and "x" in geometry:
        shape = {"type": "Point", "coordinates": [geometry["x"], geometry["y"]]}
    return {"type": "Feature", "id": attributes.get(oid), "geometry": shape, "properties": attributes}


def stamp(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds * 1000) % 1000:03d}Z"


def fail(task):
    log.error("a request failed: %r", task.exception())
    os._exit(1)  # a benchmark peer: the driver sees it exit


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for option in ("--bootstrap-servers", "--group-id", "--requests-topic", "--results-topic"):
        parser.add_argument(option, required=True)
    parser.add_argument("--max-in-flight", type=int, default=64)
    parser.add_argument("--worker-id", default="python-peer")
    args = parser.parse_args()
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JSONLines())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("aiokafka").setLevel(logging.WARNING)
    consumer = AIOKafkaConsumer(args.requests_topic, bootstrap_servers=args.bootstrap_servers, group_id=args.group_id,
                                enable_auto_commit=False, auto_offset_reset="earliest")
    producer = AIOKafkaProducer(bootstrap_servers=args.bootstrap_servers, linger_ms=5)
    await consumer.start()
    await producer.start()
    connector = aiohttp.TCPConnector(limit=args.max_in_flight)
    async with aiohttp.ClientSession(connector=connector) as session:
        try:
            await Peer(args, session, producer, consumer).run()
        finally:
            await producer.stop()
            await consumer.stop()


if __name__ == "__main__":
    # The benchmark driver starts children with SIGTERM and SIGINT blocked (inherited from its signal
    # thread's mask): unblocked, SIGTERM ends the peer at once instead of a SIGKILL 10 s later.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
