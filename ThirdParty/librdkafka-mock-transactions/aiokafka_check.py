#!/usr/bin/env python3
"""Reads TOPIC[0] (written by `txn_check --seed`: committed-0..2 committed, aborted-0..2 aborted, open-0 in a
transaction still open) with aiokafka, CRC checks on (its default), under both isolation levels, and prints
PASS/FAIL lines. Exit status 0 only if both pass. Run with a Python that has aiokafka:
    aiokafka_check.py BOOTSTRAP TOPIC [SECONDS]"""
import asyncio
import sys

import aiokafka
from aiokafka import AIOKafkaConsumer, TopicPartition


async def read(boot, topic, isolation, secs):
    consumer = AIOKafkaConsumer(bootstrap_servers=boot, isolation_level=isolation, enable_auto_commit=False,
                                auto_offset_reset="earliest", check_crcs=True)
    await consumer.start()
    try:
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        await consumer.seek_to_beginning(tp)
        seen = []
        loop = asyncio.get_running_loop()
        end = loop.time() + secs
        while loop.time() < end:
            batch = await consumer.getmany(tp, timeout_ms=300)
            for messages in batch.values():
                seen += [m.value.decode() for m in messages]
        return seen, consumer.highwater(tp), consumer.last_stable_offset(tp)
    finally:
        await consumer.stop()


async def main():
    boot, topic = sys.argv[1], sys.argv[2]
    secs = float(sys.argv[3]) if len(sys.argv) > 3 else 4
    committed = ["committed-%d" % i for i in range(3)]
    everything = committed + ["aborted-%d" % i for i in range(3)] + ["open-0"]
    want = {"read_committed": committed, "read_uncommitted": everything}
    failures = 0
    for isolation in ("read_committed", "read_uncommitted"):
        try:
            seen, hw, lso = await read(boot, topic, isolation, secs)
            ok = seen == want[isolation] and (isolation == "read_uncommitted" or lso < hw)
            detail = "highwater=%s last_stable_offset=%s sees %s" % (hw, lso, seen)
        except Exception as error:  # CorruptRecordException on a bad control-batch CRC, for one
            ok, detail = False, "ERROR %r" % error
        failures += not ok
        print("%s aiokafka %s %s check_crcs=True: %s" % ("PASS" if ok else "FAIL", aiokafka.__version__, isolation,
                                                          detail), flush=True)
    sys.exit(1 if failures else 0)


asyncio.run(main())
