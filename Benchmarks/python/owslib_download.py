"""OWSLib peer of the OGC benchmark: every feature of one collection, written as a GeoJSON FeatureCollection.

OWSLib's `collection_items` returns one page; paging is left to the caller. This follows each page's
`rel=next` link the way a careful OWSLib user would: the next link's query parameters are passed back to
`collection_items` (OWSLib builds the items URL itself). Usage: owslib_download.py LANDING COLLECTION LIMIT OUT
"""

import json
import sys
import time
from urllib.parse import parse_qsl, urlsplit

from owslib.ogcapi.features import Features

from peak_rss import peak_rss_kb


def next_parameters(page):
    for link in page.get("links", []):
        if link.get("rel") == "next" and link.get("type", "application/geo+json") != "text/html":
            return dict(parse_qsl(urlsplit(link["href"]).query))
    return None


def main():
    landing, collection, limit, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    started = time.monotonic()
    api = Features(landing, timeout=120)
    features = []
    parameters = {"limit": limit}
    pages = 0
    while parameters is not None:
        page = api.collection_items(collection, **parameters)
        pages += 1
        features.extend(page.get("features", []))
        if not page.get("features"):
            break
        parameters = next_parameters(page)
    with open(out, "w") as file:
        json.dump({"type": "FeatureCollection", "features": features}, file)
    print(json.dumps({"features": len(features), "pages": pages, "seconds": time.monotonic() - started,
                      "peak_rss_kb": peak_rss_kb()}))


if __name__ == "__main__":
    main()
