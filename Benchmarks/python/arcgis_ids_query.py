#!/usr/bin/env python3
"""The Python side of run-arcgis-benchmark.sh's selection benchmark: one layer's selection (every matching
object id) the way ArcGIS API for Python gets it for `FeatureLayer.query(where=..., return_ids_only=True)`.

That call builds the query's form fields (`_get_query_params`: where, outFields=*, returnGeometry,
returnIdsOnly=true and the other return* flags), POSTs them once with its requests session
(`layer._con.post`), parses the JSON body into a dict and returns it (`_process_query_result` returns an ids
answer as is: no paging, no count, no completeness check). This script does the same with requests and json
alone, so it needs no `arcgis` package (which pulls in hundreds of MB of dependencies).

Prints one line `RESULT key=value ...` (seconds, ids, max_rss_kb, baseline_rss_kb, body_bytes, ids_file) for
arcgis-engine-benchmark; the sorted ids go to --ids-out, one per line, after the peak RSS has been read.
"""
import argparse
import sys
import time

import requests

from peak_rss import peak_rss_kb




def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layer", required=True, help="layer URL (…/FeatureServer/0)")
    parser.add_argument("--where", default="1=1")
    parser.add_argument("--ids-out", required=True, help="where to write the sorted ids")
    args = parser.parse_args()

    # The fields ArcGIS API for Python sends for query(where=..., return_ids_only=True) on a feature layer,
    # with its booleans as the connection sends them.
    params = {
        "f": "json",
        "where": args.where,
        "outFields": "*",
        "returnGeometry": "true",
        "returnDistinctValues": "false",
        "returnCountOnly": "false",
        "returnIdsOnly": "true",
        "returnCentroid": "false",
        "returnExtentOnly": "false",
        "returnZ": "false",
        "returnM": "false",
    }
    baseline = peak_rss_kb()
    started = time.perf_counter()
    with requests.Session() as session:
        response = session.post(args.layer.rstrip("/") + "/query", data=params, timeout=120)
        response.raise_for_status()
        result = response.json()
        body_bytes = len(response.content)
    if "error" in result:
        raise SystemExit(f"the service answered an error: {result['error']}")
    object_ids = result.get("objectIds") or []
    seconds = time.perf_counter() - started
    peak = peak_rss_kb()
    del response

    with open(args.ids_out, "w") as out:
        out.write("".join(f"{value}\n" for value in sorted(object_ids)))
    print(
        f"RESULT seconds={seconds:.6f} ids={len(object_ids)} max_rss_kb={peak} baseline_rss_kb={baseline} "
        f"body_bytes={body_bytes} requests_version={requests.__version__} python_version={sys.version.split()[0]} "
        f"ids_file={args.ids_out}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
