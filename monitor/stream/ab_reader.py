"""``ragmon ab``: the latest ``AbResult`` of an experiment, read from the results topic."""

from __future__ import annotations

import logging
import time

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import KafkaError
from pydantic import ValidationError

from monitor.config import Settings
from monitor.errors import BrokerError
from monitor.events.ab_result import AbResult
from monitor.stream.kafka import client_options
from monitor.stream.kafka_check import check_connection

__all__ = ["latest_result"]


async def latest_result(
    settings: Settings, experiment: str, scope: str, timeout_s: float = 30.0
) -> AbResult | None:
    """The result of ``experiment`` with ``scope`` whose window ends last, or None.

    Reads the whole topic (keyed by experiment id) up to its end, then stops.
    """
    await check_connection(settings)
    consumer = AIOKafkaConsumer(
        **client_options(settings),
        group_id=None,
        enable_auto_commit=False,
        max_partition_fetch_bytes=settings.max_message_bytes,
    )
    logging.getLogger("aiokafka").setLevel(logging.CRITICAL)  # the one-line error says it
    try:
        await consumer.start()
    except KafkaError as exc:
        await consumer.stop()
        raise BrokerError(
            f"cannot read {settings.ab_results_topic} from {settings.bootstrap_servers}: "
            f"{type(exc).__name__}"
        ) from None
    best: AbResult | None = None
    try:
        topic = settings.ab_results_topic
        parts = [
            TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())
        ]
        if not parts:
            return None
        consumer.assign(parts)
        await consumer.seek_to_beginning(*parts)
        wanted = experiment.encode()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            batch = await consumer.getmany(timeout_ms=1000, max_records=5000)
            if not batch:  # an empty fetch after the end: everything has been read
                break
            for records in batch.values():
                for record in records:
                    if record.key != wanted or record.value is None:
                        continue
                    try:
                        result = AbResult.model_validate_json(record.value)
                    except ValidationError:
                        continue
                    if result.span.scope == scope and (
                        best is None or result.span.end_ms >= best.span.end_ms
                    ):
                        best = result
        return best
    finally:
        await consumer.stop()
