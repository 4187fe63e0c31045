"""Test helpers that talk to the broker directly (aiokafka), outside the worker."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition

from monitor.config import Settings
from monitor.stream.kafka import client_options, new_producer

Record = ConsumerRecord[bytes, bytes]


async def produce(settings: Settings, messages: Sequence[tuple[bytes | None, bytes]]) -> None:
    producer = new_producer(settings)
    await producer.start()
    try:
        futures = [await producer.send(settings.events_topic, v, key=k) for k, v in messages]
        await asyncio.gather(*futures)
    finally:
        await producer.stop()


async def read_until(
    settings: Settings,
    topics: Sequence[str],
    done: Callable[[dict[str, list[Record]]], bool],
    timeout_s: float = 90.0,
) -> dict[str, list[Record]]:
    """Read ``topics`` from the beginning until ``done(records_by_topic)`` or the timeout."""
    consumer = AIOKafkaConsumer(
        **client_options(settings),
        group_id=None,
        enable_auto_commit=False,
        max_partition_fetch_bytes=settings.max_message_bytes,
    )
    await consumer.start()
    got: dict[str, list[Record]] = {t: [] for t in topics}
    try:
        parts = [
            TopicPartition(t, p)
            for t in topics
            for p in sorted(consumer.partitions_for_topic(t) or ())
        ]
        consumer.assign(parts)
        await consumer.seek_to_beginning(*parts)
        deadline = time.monotonic() + timeout_s
        while not done(got) and time.monotonic() < deadline:
            batch = await consumer.getmany(timeout_ms=500, max_records=5000)
            for tp, records in batch.items():
                got[tp.topic].extend(records)
    finally:
        await consumer.stop()
    return got
