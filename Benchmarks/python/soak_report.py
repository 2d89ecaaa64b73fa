"""The soak's figures and goals (issue 33 item 1), from the files Benchmarks/python/soak.py wrote, and its plot.

Windows scale with the run: "the first ten minutes" of an hour is its first sixth, and so on, so a short run is
judged by the same rules on a smaller scale. Workers w1 and w2 are never killed: their memory, descriptors and
threads over the whole run are what a leak would show in. The victim w3 restarts every kill.
"""

import collections
import json
import os


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.startswith("{")]


def percentile(values, share):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def median(values):
    return percentile(values, 0.5)


def report(work, minutes, short=False):
    """Prints the figures and the goals' verdicts; 1 when a goal is missed. `short` (a run of minutes, as in CI)
    judges only what such a run can show: nothing lost, nothing answered twice beyond the goal, no request failed,
    no worker crashed or failed to stop cleanly. Trends (memory, descriptors, threads, latency) need the hour."""
    requests = rows(os.path.join(work, "requests.jsonl"))
    outcomes = rows(os.path.join(work, "outcomes.jsonl"))
    samples = rows(os.path.join(work, "samples.jsonl"))
    events = rows(os.path.join(work, "events.jsonl"))
    exactly_once = any(event.get("exactlyOnce") for event in events if event["event"] == "started")
    by_request = collections.defaultdict(list)
    for outcome in outcomes:
        by_request[outcome["requestId"]].append(outcome)
    sent = {request["requestId"]: request["t"] for request in requests}
    lost = [request for request in sent if request not in by_request]
    repeated = {request: rows_ for request, rows_ in by_request.items() if request in sent and len(rows_) > 1}
    statuses = collections.Counter(rows_[0]["status"] for request, rows_ in by_request.items() if request in sent)

    start = min(sent.values()) if sent else 0
    end = max(sent.values()) if sent else 0
    span = max(end - start, 1)
    window = span / 6  # ten minutes of an hour
    latency = [(sent[request] - start, min(row["t"] for row in rows_) - sent[request])
               for request, rows_ in by_request.items() if request in sent]
    first = [seconds for offset, seconds in latency if offset < window]
    last = [seconds for offset, seconds in latency if offset >= span - window]
    p99_first, p99_last = percentile(first, 0.99), percentile(last, 0.99)
    # The same windows without the requests a fault can reach (sent from 5 s before a fault to 30 s after it):
    # the tails of both windows are requests caught in a rebalance after a kill, whose wait is wherever the kill
    # fell in the session timeout. Without them the p99 is the worker's own.
    faults = [e["t"] for e in events if e["event"] in ("kill", "outage-begin", "outage-end", "leader", "revoke", "rotate-key")]
    quiet = {request for request, t in sent.items() if not any(-5 <= t - f <= 30 for f in faults)}
    quiet_latency = [(sent[request] - start, min(row["t"] for row in rows_) - sent[request])
                     for request, rows_ in by_request.items() if request in quiet]
    quiet_first = percentile([seconds for offset, seconds in quiet_latency if offset < window], 0.99)
    quiet_last = percentile([seconds for offset, seconds in quiet_latency if offset >= span - window], 0.99)

    steady = {}
    for name in ("w1", "w2"):
        mine = [row for row in samples if row["worker"] == name]
        after = [row for row in mine if row["t"] - start >= window]
        # The second sixth against the last: medians, so that one sample taken mid-outage (reconnecting
        # sockets, a burst of answers) does not decide.
        second = [row for row in after if row["t"] - start < 2 * window]
        last_rows = [row for row in after if row["t"] - start >= span - window]
        # The last half on its own: a leak climbs through it as through the rest; an allocator's high-water
        # mark (a burst after a rebalance) steps once and stays.
        middle = [row for row in after if 2.5 * window <= row["t"] - start < 3.5 * window]
        steady[name] = {
            "rssAtWindow": median([r["rss"] for r in second]), "rssAtEnd": median([r["rss"] for r in last_rows]),
            "rssAtHalf": median([r["rss"] for r in middle]),
            "fds": (median([r["fds"] for r in second]), median([r["fds"] for r in last_rows])),
            "threads": (median([r["threads"] for r in second]), median([r["threads"] for r in last_rows])),
            "metadata": (median([r.get("metadataEntries", 0) for r in second]),
                         median([r.get("metadataEntries", 0) for r in last_rows])),
            "tokens": (median([r.get("tokenSlots", 0) for r in second]), median([r.get("tokenSlots", 0) for r in last_rows])),
            "urls": (median([r.get("credentialURLs", 0) for r in second]),
                     median([r.get("credentialURLs", 0) for r in last_rows])),
            # The counter of the worker's heap trims at its last sample (a never-killed worker: one process).
            "trimmed": max([r.get("trimmedBytes", 0) for r in mine], default=0),
        }

    print(f"soak: {minutes:g} minutes, {len(sent)} requests ({span / 60:.1f} min of load), "
          f"{'exactly-once' if exactly_once else 'at least once'}")
    print("events: " + ", ".join(f"{kind} {count}" for kind, count in collections.Counter(e["event"] for e in events).items()))
    print("outcomes: " + ", ".join(f"{status} {count}" for status, count in sorted(statuses.items(), key=lambda kv: str(kv[0]))))
    print(f"lost: {len(lost)}; answered more than once: {len(repeated)} ({100.0 * len(repeated) / max(len(sent), 1):.2f} %)")
    print(f"latency p99: first {window / 60:.1f} min {fmt(p99_first)} s, last {window / 60:.1f} min {fmt(p99_last)} s "
          f"(p50 {fmt(median(first))} and {fmt(median(last))} s); {fmt_ratio(p99_last, p99_first)}")
    print(f"latency p99 away from faults (sent > 5 s before and > 30 s after each): first {fmt(quiet_first)} s, "
          f"last {fmt(quiet_last)} s; {fmt_ratio(quiet_last, quiet_first)}")
    for name, figures in steady.items():
        growth = ratio(figures["rssAtEnd"], figures["rssAtWindow"])
        print(f"{name}: medians of the second sixth and the last: RSS {mb(figures['rssAtWindow'])} and "
              f"{mb(figures['rssAtEnd'])} MB ({fmt_percent(growth)}; over the last half, from "
              f"{mb(figures['rssAtHalf'])} MB: {fmt_percent(ratio(figures['rssAtEnd'], figures['rssAtHalf']))}); descriptors {figures['fds'][0]} and "
              f"{figures['fds'][1]}; threads {figures['threads'][0]} and {figures['threads'][1]}; metadata cache entries "
              f"{figures['metadata'][0]} and {figures['metadata'][1]}; token slots {figures['tokens'][0]} and "
              f"{figures['tokens'][1]}; credential URLs {figures['urls'][0]} and {figures['urls'][1]}; heap trims gave "
              f"back {mb(figures['trimmed'])} MB in all")

    # A worker process that ended by itself is a crash; one stopped at the end must have exited 0 (its graceful
    # shutdown), neither hung nor crashed on the way out.
    crashed = [e for e in events if e["event"] == "worker-ended"]
    stopped = [e for e in events if e["event"] == "worker-stopped"]
    unclean = [e for e in stopped if e.get("code") != 0]
    print(f"workers: {len(crashed)} ended by themselves; {len(stopped)} stopped at the end, "
          f"{len(unclean)} of them not cleanly" + "".join(f"; {e['worker']}: {e.get('code')}" for e in crashed + unclean))

    goals = [
        ("0 lost", len(lost) == 0),
        ("no request failed (every fault is absorbed)", statuses.get("failed", 0) == 0),
        ("no worker crashed, and each stopped cleanly at the end", not crashed and not unclean and len(stopped) == 3),
        ("duplicates " + ("0 (exactly-once)" if exactly_once else "<= 0.5 %"),
         len(repeated) == 0 if exactly_once else len(repeated) * 200 <= len(sent)),
    ]
    trends = [
        ("RSS growth from the second sixth to the last <= 5 % (w1, w2)",
         all((ratio(f["rssAtEnd"], f["rssAtWindow"]) or 0) <= 0.05 for f in steady.values())),
        ("descriptors flat (w1, w2: the last sixth's median at most 4 above the second's)",
         all(f["fds"][0] is not None and f["fds"][1] is not None and f["fds"][1] - f["fds"][0] <= 4 for f in steady.values())),
        ("threads flat (w1, w2: the last sixth's median at most 1 above the second's)",
         all(f["threads"][0] is not None and f["threads"][1] is not None and f["threads"][1] - f["threads"][0] <= 1
             for f in steady.values())),
        ("p99 latency of the last sixth <= 1.2x the first's",
         p99_first is not None and p99_last is not None and p99_last <= 1.2 * max(p99_first, 0.001)),
    ]
    if not short:
        goals += trends
    for goal, met in goals:
        print(f"goal: {goal}: {'met' if met else 'NOT MET'}")
    try:
        plot(work, samples, events, start)
    except ImportError:
        # CI's environment has no matplotlib (the benchmarks' requirements bring it): the figures are printed.
        print("no plot: matplotlib is not installed")
    return 0 if all(met for _, met in goals) else 1


def ratio(late, early):
    if not late or not early:
        return None
    return late / early - 1


def fmt(value):
    return "n/a" if value is None else f"{value:.3f}"


def fmt_ratio(late, early):
    return "n/a" if late is None or not early else f"{late / early:.2f}x"


def fmt_percent(value):
    return "n/a" if value is None else f"{100 * value:+.1f} %"


def mb(value):
    return "n/a" if value is None else f"{value / 1e6:.1f}"


def plot(work, samples, events, start):
    """soak.png: RSS, descriptors, threads, the caches' entries, in-flight and lag per worker over the run, faults
    marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(5, 1, figsize=(11, 15), sharex=True)
    panels = [("rss", "RSS (MB)", 1e6), ("fds", "open descriptors", 1), ("threads", "threads", 1),
              ("metadataEntries", "metadata cache entries", 1), ("inFlight", "in flight", 1)]
    for axis, (key, label, scale) in zip(axes, panels):
        for name in ("w1", "w2", "w3"):
            mine = [row for row in samples if row["worker"] == name and key in row]
            axis.plot([(row["t"] - start) / 60 for row in mine], [row[key] / scale for row in mine], ".", markersize=3,
                      label=name)
        axis.set_ylabel(label)
        axis.grid(True, alpha=0.3)
        for event in events:
            if event["event"] in ("kill", "outage-begin", "leader", "revoke", "rotate-key"):
                axis.axvline((event["t"] - start) / 60, color="grey", alpha=0.3, linewidth=0.8)
    # The credential caches beside the metadata cache's (dashed: token slots; dotted: URLs looked up).
    caches = axes[3].twinx()
    for name in ("w1", "w2", "w3"):
        mine = [row for row in samples if row["worker"] == name and "tokenSlots" in row]
        minutes = [(row["t"] - start) / 60 for row in mine]
        caches.plot(minutes, [row["tokenSlots"] for row in mine], "--", linewidth=0.6, alpha=0.6)
        caches.plot(minutes, [row["credentialURLs"] for row in mine], ":", linewidth=0.8, alpha=0.6)
    caches.set_ylabel("token slots (dashed), URLs (dotted)")
    # What the heap trim gave back (memoryTrimInterval), cumulative, beside the RSS it came off.
    trimmed = axes[0].twinx()
    for name in ("w1", "w2", "w3"):
        mine = [row for row in samples if row["worker"] == name and "trimmedBytes" in row]
        trimmed.plot([(row["t"] - start) / 60 for row in mine], [row["trimmedBytes"] / 1e6 for row in mine], "-",
                     linewidth=0.6, alpha=0.5)
    trimmed.set_ylabel("trimmed, in all (MB; thin lines)")
    lag = axes[4].twinx()
    for name in ("w1", "w2", "w3"):
        mine = [row for row in samples if row["worker"] == name and "lag" in row]
        lag.plot([(row["t"] - start) / 60 for row in mine], [row["lag"] for row in mine], "-", linewidth=0.6, alpha=0.5)
    lag.set_ylabel("lag (thin lines)")
    axes[0].legend(loc="upper left")
    axes[-1].set_xlabel("minutes (grey lines: kills of w3, outages, leader moves, revocation, key rotation)")
    figure.suptitle("query-worker soak")
    figure.tight_layout()
    figure.savefig(os.path.join(work, "soak.png"), dpi=90)
