"""``ragmon ab``: an experiment's ``AbResult`` messages, read from the results topic."""

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

__all__ = ["experiment_results", "latest_result"]


async def latest_result(
    settings: Settings, experiment: str, scope: str, timeout_s: float = 30.0
) -> AbResult | None:
    """The result of ``experiment`` with ``scope`` whose window ends last, or None."""
    best: AbResult | None = None
    for result in await experiment_results(settings, experiment, timeout_s):
        if result.span.scope == scope and (best is None or result.span.end_ms >= best.span.end_ms):
            best = result
    return best


async def experiment_results(
    settings: Settings, experiment: str, timeout_s: float = 30.0
) -> list[AbResult]:
    """Every result of ``experiment`` (both scopes), in topic order, one per window
    (a window's result published twice, by a takeover, counts once: the last).

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
    found: dict[tuple[str, int, int], AbResult] = {}
    try:
        topic = settings.ab_results_topic
        parts = [
            TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())
        ]
        if not parts:
            return []
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
                    span = result.span
                    found.pop((span.scope, span.start_ms, span.end_ms), None)
                    found[(span.scope, span.start_ms, span.end_ms)] = result
        return list(found.values())
    finally:
        await consumer.stop()
