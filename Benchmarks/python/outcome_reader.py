"""What the benchmark drivers share for reading outcomes back: the outcome messages of a consumer's next batch,
parsed (unreadable ones left out). Benchmarks/python/crash_duplicates.py and soak.py use it."""

import json


async def next_outcomes(consumer, timeout_ms):
    """(message, parsed JSON value) for each message `consumer` returns within `timeout_ms`; unreadable ones are
    left out."""
    batches = await consumer.getmany(timeout_ms=timeout_ms)
    outcomes = []
    for messages in batches.values():
        for message in messages:
            try:
                outcomes.append((message, json.loads(message.value)))
            except ValueError:
                continue
    return outcomes
