"""Test helpers that talk to the broker directly (aiokafka), outside the worker."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition

from monitor.config import Settings
from monitor.stream.kafka import client_options, new_producer
from monitor.stream.worker_process import start_worker, stop_process

Record = ConsumerRecord[bytes, bytes]


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


def kill_worker_after_scores(settings: Settings, log: Path, n_scores: int, total: int) -> None:
    """Start a worker, SIGKILL it once ``n_scores`` scores are on the scores topic, and
    check that the kill came before all ``total`` events were scored (else the test would
    test nothing). The worker's output goes to ``log``."""
    worker = start_worker(settings, log)
    try:
        topic = settings.scores_topic
        asyncio.run(read_until(settings, [topic], lambda g: len(g[topic]) >= n_scores))
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        stop_process(worker)
    scored = asyncio.run(read_until(settings, [topic], lambda g: False, timeout_s=2))
    assert len(scored[topic]) < total, "kill came too late to test anything"
