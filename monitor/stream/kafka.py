"""aiokafka client options from the settings, and topic creation."""

from __future__ import annotations

import contextlib
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from monitor.config import Settings
from monitor.stream.kafka_security import security_options

__all__ = [
    "BATCH_BYTES",
    "client_options",
    "ensure_topics",
    "group_consumer_options",
    "new_producer",
]


def client_options(settings: Settings) -> dict[str, Any]:
    """Connection options shared by every aiokafka client of the project: the bootstrap
    servers, and TLS and SASL from :func:`~monitor.stream.kafka_security.security_options`."""
    return {"bootstrap_servers": settings.bootstrap_servers, **security_options(settings)}


def group_consumer_options(settings: Settings, group_id: str) -> dict[str, Any]:
    """A consumer group member's options: manual commits, from the earliest offset, the
    configured session, and fetches as large as the largest message allowed."""
    return {
        **client_options(settings),
        "group_id": group_id,
        "enable_auto_commit": False,
        "auto_offset_reset": "earliest",
        "session_timeout_ms": int(settings.session_timeout_s * 1000),
        "heartbeat_interval_ms": int(settings.heartbeat_interval_s * 1000),
        "max_partition_fetch_bytes": settings.max_message_bytes,
        "fetch_max_bytes": max(settings.max_message_bytes, 52_428_800),
    }


BATCH_BYTES = 512 * 1024
"""The producer's batch per partition: aiokafka's default of 16 KB holds six 2.5 KB scored
events, and a send to a full batch waits until the sender takes it, which made a send
cost 44 us against 11 (``make bench``'s worker rows). Half the smallest message limit
allowed (``max_message_bytes`` >= 1 MiB), so a batch always fits a request."""


def new_producer(settings: Settings, *, linger_ms: int = 5) -> AIOKafkaProducer:
    """A producer with acks from all replicas, room for the largest message and batches
    of up to ``BATCH_BYTES`` per partition.

    The idempotent producer stays off: the embedded broker rejects it (no transactions).
    """
    return AIOKafkaProducer(
        **client_options(settings),
        acks="all",
        enable_idempotence=False,
        linger_ms=linger_ms,
        max_request_size=settings.max_message_bytes,
        max_batch_size=BATCH_BYTES,
    )


async def ensure_topics(settings: Settings, names: list[str] | None = None) -> None:
    """Create the topics (``settings.topics()`` by default) unless they exist.

    The embedded broker auto-creates topics with 4 partitions and cannot add partitions
    later, so every topic is created up front with ``settings.topic_partitions``, and with
    ``retention.ms`` from :meth:`~monitor.config.Settings.retention_ms` (an existing topic
    keeps its own configuration).
    """
    admin = AIOKafkaAdminClient(**client_options(settings))
    await admin.start()
    try:
        existing = set(await admin.list_topics())
        wanted = [n for n in (names or settings.topics()) if n not in existing]
        single = settings.single_partition_topics()

        def partitions(name: str) -> int:
            return 1 if name in single else settings.topic_partitions

        for name in wanted:
            configs = {"retention.ms": str(settings.retention_ms(name))}
            topic = NewTopic(
                name, partitions(name), settings.topic_replication, topic_configs=configs
            )
            with contextlib.suppress(TopicAlreadyExistsError):
                await admin.create_topics([topic])
    finally:
        await admin.close()
