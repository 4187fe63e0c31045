"""Reading and producing on the broker directly (aiokafka), outside the worker: shared by
the tests (through ``tests/kafka_io.py``) and the benchmarks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import TypeAlias

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition

from monitor.config import Settings
from monitor.stream.kafka import client_options, new_producer

__all__ = ["Record", "produce", "read_until"]

Record: TypeAlias = ConsumerRecord[bytes, bytes]


async def produce(
    settings: Settings,
    messages: Sequence[tuple[bytes | None, bytes]],
    topic: str | None = None,
) -> None:
    """Produce ``(key, value)`` messages to ``topic`` (the events topic by default) and
    wait for every acknowledgement."""
    producer = new_producer(settings)
    await producer.start()
    try:
        target = topic or settings.events_topic
        futures = [await producer.send(target, v, key=k) for k, v in messages]
        await asyncio.gather(*futures)
    finally:
        await producer.stop()


async def read_until(
    settings: Settings,
    topics: Sequence[str],
    done: Callable[[dict[str, list[Record]]], bool],
    timeout_s: float = 90.0,
    linger_s: float = 0.0,
) -> dict[str, list[Record]]:
    """Read ``topics`` from the beginning until ``done(records_by_topic)`` (and then
    ``linger_s`` more, to see what comes after, e.g. a duplicate) or the timeout."""
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
        done_at: float | None = None
        while time.monotonic() < deadline:
            if done_at is None and done(got):
                done_at = time.monotonic()
            if done_at is not None and time.monotonic() >= done_at + linger_s:
                break
            batch = await consumer.getmany(timeout_ms=500, max_records=5000)
            for tp, records in batch.items():
                got[tp.topic].extend(records)
    finally:
        await consumer.stop()
    return got
