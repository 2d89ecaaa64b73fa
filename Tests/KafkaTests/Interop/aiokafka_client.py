"""An independent Kafka client for the interop tests: aiokafka shares no code with librdkafka.

usage: aiokafka_client.py consume BOOTSTRAP TOPIC COUNT GROUP   -> one JSON object per message on stdout
       aiokafka_client.py produce BOOTSTRAP TOPIC COUNT         -> values py0..pyN-1 with header origin=aiokafka
"""
import asyncio
import json
import sys

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer


async def consume(bootstrap, topic, count, group):
    consumer = AIOKafkaConsumer(
        topic, bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest", enable_auto_commit=True
    )
    await consumer.start()
    seen = 0
    try:
        while seen < count:
            batches = await asyncio.wait_for(consumer.getmany(timeout_ms=1000), timeout=60)
            for records in batches.values():
                for record in records:
                    row = {
                        "key": (record.key or b"").decode(),
                        "value": (record.value or b"").decode(),
                        "partition": str(record.partition),
                    }
                    for name, value in record.headers or ():
                        row[name] = value.decode()
                    print(json.dumps(row), flush=True)
                    seen += 1
    finally:
        await consumer.stop()


async def produce(bootstrap, topic, count):
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        for n in range(count):
            await producer.send_and_wait(topic, f"py{n}".encode(), key=f"k{n % 3}".encode(), headers=[("origin", b"aiokafka")])
    finally:
        await producer.stop()


def main(argv):
    if len(argv) >= 5 and argv[1] == "consume":
        asyncio.run(asyncio.wait_for(consume(argv[2], argv[3], int(argv[4]), argv[5]), timeout=80))
    elif len(argv) >= 4 and argv[1] == "produce":
        asyncio.run(asyncio.wait_for(produce(argv[2], argv[3], int(argv[4])), timeout=50))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
