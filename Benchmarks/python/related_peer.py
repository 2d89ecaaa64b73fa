#!/usr/bin/env python3
"""The peer of run-related-benchmark.sh: the related records of a selection the way ArcGIS API for Python's
`FeatureLayer.query_related_records(object_ids, relationship_id, ...)` and arcgis-rest-js's `queryRelated` get
them when a caller loops over chunks of origins: one POST per chunk, in order, no paging (neither exposes
resultOffset for related records), no split of a cut answer, no count check. This script does the same with
requests and json alone.

--mode peer  (default) times that loop and writes its (origin, related OBJECTID) pairs.
--mode truth reads the whole related table and the origins' keys with plain paged `query` requests and joins
             them here: the ground truth, independent of queryRelatedRecords on the server and of the worker.

Prints one line `RESULT key=value ...` (wall_s, cpu_s, records, origins, cut_answers, requests).
"""
import argparse
import resource
import sys
import time

import requests


def post(session, url, fields):
    response = session.post(url, data=fields, timeout=120)
    response.raise_for_status()
    body = response.json()
    if "error" in body:
        raise SystemExit(f"{url}: {body['error']}")
    return body


def origin_ids(session, layer, where):
    body = post(session, f"{layer}/query", {"f": "json", "where": where, "returnIdsOnly": "true"})
    return sorted(body.get("objectIds") or [])


def relationship_id(session, layer, name):
    body = session.get(layer, params={"f": "json"}, timeout=60).json()
    for relationship in body.get("relationships", []):
        if relationship["name"] == name:
            return relationship
    raise SystemExit(f"{layer} has no relationship {name}")


def peer(session, layer, where, name, chunk):
    relationship = relationship_id(session, layer, name)
    ids = origin_ids(session, layer, where)
    pairs, cut, requests_sent = [], 0, 2
    for start in range(0, len(ids), chunk):
        body = post(session, f"{layer}/queryRelatedRecords", {
            "f": "json", "objectIds": ",".join(map(str, ids[start:start + chunk])),
            "relationshipId": relationship["id"], "outFields": "*", "definitionExpression": "",
            "returnGeometry": "true"})
        requests_sent += 1
        cut += 1 if body.get("exceededTransferLimit") else 0
        for group in body.get("relatedRecordGroups", []):
            for record in group.get("relatedRecords", []):
                pairs.append((group["objectId"], record["attributes"]["OBJECTID"]))
    return pairs, cut, requests_sent


def paged(session, url, fields, where="1=1"):
    rows, offset = [], 0
    while True:
        body = post(session, f"{url}/query", {
            "f": "json", "where": where, "outFields": fields, "orderByFields": "OBJECTID ASC",
            "resultOffset": offset, "resultRecordCount": 1000, "returnGeometry": "false"})
        features = body.get("features", [])
        rows += [feature["attributes"] for feature in features]
        offset += len(features)
        if not features or not body.get("exceededTransferLimit"):
            return rows


def truth(session, layer, where, name):
    relationship = relationship_id(session, layer, name)
    table_url = layer.rsplit("/", 1)[0] + f"/{relationship['relatedTableId']}"
    table = session.get(table_url, params={"f": "json"}, timeout=60).json()
    foreign = next(r["keyField"] for r in table["relationships"] if r["id"] == relationship["id"])
    key = relationship["keyField"]
    origins = {row[key]: row["OBJECTID"] for row in paged(session, layer, f"OBJECTID,{key}", where)}
    pairs = []
    for row in paged(session, table_url, f"OBJECTID,{foreign}"):
        if row[foreign] in origins:
            pairs.append((origins[row[foreign]], row["OBJECTID"]))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layer", required=True)
    parser.add_argument("--where", default="1=1")
    parser.add_argument("--relationship", default="Parcel_Assessments")
    parser.add_argument("--chunk", type=int, default=250, help="origins per call")
    parser.add_argument("--mode", choices=["peer", "truth"], default="peer")
    parser.add_argument("--pairs-out", required=True)
    args = parser.parse_args()
    session = requests.Session()
    started, cpu = time.monotonic(), time.process_time()
    if args.mode == "peer":
        pairs, cut, sent = peer(session, args.layer, args.where, args.relationship, args.chunk)
    else:
        pairs, cut, sent = truth(session, args.layer, args.where, args.relationship), 0, 0
    wall, cpu = time.monotonic() - started, time.process_time() - cpu
    with open(args.pairs_out, "w") as out:
        out.writelines(f"{origin} {related}\n" for origin, related in sorted(set(pairs)))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"RESULT wall_s={wall:.3f} cpu_s={cpu:.3f} records={len(set(pairs))} "
          f"origins={len({o for o, _ in pairs})} cut_answers={cut} requests={sent} max_rss_kb={peak}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
