#!/usr/bin/env python3
"""The esridump side of run-arcgis-benchmark.sh: every feature of one layer as a GeoJSON file.

Does what `esri2geojson URL OUTFILE` (esridump's own command) does: iterates `EsriDumper(url)` and writes each
feature with `json.dumps` into one FeatureCollection. Only the politeness delay is turned off
(`pause_seconds=0`; by default esridump sleeps 10 s every 5 requests), so that the comparison is about the
client, and pages are as large as the layer allows (`max_page_size`, esridump's default is 1000).

Prints one line `RESULT key=value ...` (seconds, features, requests, max_rss_kb, geojson_bytes, ids_file)
for arcgis-engine-benchmark; the sorted OBJECTIDs go to --ids-out, one per line.
"""
import argparse
import json
import sys
import time
from importlib.metadata import version

import requests
from esridump.dumper import EsriDumper

from peak_rss import peak_rss_kb




def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layer", required=True, help="layer URL (…/FeatureServer/0)")
    parser.add_argument("--geojson-out", required=True, help="where to write the FeatureCollection")
    parser.add_argument("--ids-out", required=True, help="where to write the sorted OBJECTIDs")
    parser.add_argument("--out-sr", default="4326")
    parser.add_argument("--page-size", type=int, default=2000, help="esridump max_page_size")
    parser.add_argument("--id-field", default="OBJECTID")
    args = parser.parse_args()

    # Count the HTTP requests esridump sends (it calls requests.request for each).
    requests_sent = 0
    original_request = requests.request

    def counting_request(*positional, **keywords):
        nonlocal requests_sent
        requests_sent += 1
        return original_request(*positional, **keywords)

    requests.request = counting_request

    ids = []
    features = 0
    started = time.perf_counter()
    dumper = EsriDumper(
        args.layer, outSR=args.out_sr, max_page_size=args.page_size, request_geometry=True,
        pause_seconds=0,
    )
    with open(args.geojson_out, "w") as out:
        # esri2geojson's FeatureCollection layout (esridump/cli.py).
        out.write('{"type":"FeatureCollection","features":[\n')
        for feature in dumper:
            if features:
                out.write(",\n")
            out.write(json.dumps(feature))
            features += 1
            ids.append((feature.get("properties") or {}).get(args.id_field))
        out.write("\n]}")
        geojson_bytes = out.tell()
    seconds = time.perf_counter() - started
    max_rss_kb = peak_rss_kb()

    missing = sum(1 for value in ids if value is None)
    with open(args.ids_out, "w") as out:
        out.write("".join(f"{int(value)}\n" for value in sorted(v for v in ids if v is not None)))
    print(
        f"RESULT seconds={seconds:.6f} features={features} requests={requests_sent} max_rss_kb={max_rss_kb} "
        f"geojson_bytes={geojson_bytes} missing_ids={missing} esridump_version={version('esridump')} "
        f"requests_version={requests.__version__} python_version={sys.version.split()[0]} ids_file={args.ids_out}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
