"""What the previous leader already published: read from the tails of the output topics.

A worker that becomes leader reads the last ``tail`` messages of every partition of the
windows, alerts and A/B results topics before it publishes, so it neither skips a closed
window nor writes one twice. The windows topic gives the newest window end per kind (windows
are published in order, each with its summary last); the idents of the tails tell which
records of the newest, possibly half-written, window are there already.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, TopicPartition

from monitor.config import Settings
from monitor.stream.kafka import client_options
from monitor.stream.publication import Publication, Record, ab_ident, alert_ident

__all__ = ["Published", "read_published"]


@dataclass(slots=True)
class Published:
    upto_ms: dict[str, int] = field(default_factory=dict)
    """Window kind -> the newest window end whose summary is in the windows topic."""
    idents: set[str] = field(default_factory=set)

    def has_window(self, publication: Publication) -> bool:
        return publication.end_ms <= self.upto_ms.get(publication.kind, -(2**62))

    def has(self, record: Record) -> bool:
        return record.ident in self.idents

    def add(self, publication: Publication) -> None:
        self.upto_ms[publication.kind] = max(
            publication.end_ms, self.upto_ms.get(publication.kind, publication.end_ms)
        )


def _ident(topic_kind: str, message: dict[str, Any]) -> str | None:
    """The ident of a published message (as :mod:`monitor.stream.publication` names it)."""
    try:
        if topic_kind == "windows":
            return f"window:{message['kind']}:{int(message['start_ms'])}"
        if topic_kind == "alerts":
            start = int(message["window"]["start_ms"])
            return alert_ident(str(message["fingerprint"]), str(message["status"]), start)
        span = message["span"]
        start, end = int(span["start_ms"]), int(span["end_ms"])
        return ab_ident(str(message["experiment"]), str(span["scope"]), start, end)
    except (KeyError, TypeError, ValueError):
        return None


async def read_published(settings: Settings, tail: int = 500) -> Published:
    """The newest window ends and the idents of the last ``tail`` records per partition."""
    kinds = {
        settings.windows_topic: "windows",
        settings.alerts_topic: "alerts",
        settings.ab_results_topic: "ab",
    }
    consumer = AIOKafkaConsumer(
        **client_options(settings),
        group_id=None,
        enable_auto_commit=False,
        max_partition_fetch_bytes=settings.max_message_bytes,
    )
    await consumer.start()
    out = Published()
    try:
        await consumer.topics()
        tps = [
            TopicPartition(topic, p)
            for topic in kinds
            for p in sorted(consumer.partitions_for_topic(topic) or ())
        ]
        consumer.assign(tps)
        ends = await consumer.end_offsets(tps)
        for tp in tps:
            consumer.seek(tp, max(0, ends[tp] - tail))
        while True:  # to an empty fetch: ListOffsets can be short on the embedded broker
            batch = await consumer.getmany(timeout_ms=1000)
            if not batch:
                return out
            for tp, records in batch.items():
                kind = kinds[tp.topic]
                for record in records:
                    try:
                        message = orjson.loads(record.value or b"{}")
                    except orjson.JSONDecodeError:
                        continue
                    if not isinstance(message, dict):
                        continue
                    ident = _ident(kind, message)
                    if ident is not None:
                        out.idents.add(ident)
                    end = message.get("end_ms")
                    if kind == "windows" and isinstance(end, int):
                        name = str(message.get("kind"))
                        out.upto_ms[name] = max(end, out.upto_ms.get(name, end))
    finally:
        await consumer.stop()
