"""Has the consumer group scored everything the broker holds? Asked before an idle close.

The leader closes windows by wall clock only when traffic has stopped. Quiet partials do not
prove that: the broker may be unreachable (an outage looks like an empty fetch), or a worker
may hold a backlog it has not scored. :class:`GroupProgress` asks the broker itself: for each
partition of the events topic it fetches from the offset after the last one merged into a
partial, and the group has caught up only when a fresh fetch response shows no record there
(high watermark at that offset) on every partition.

The fetch high watermark is used, not ListOffsets, which can be short on the embedded broker.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from aiokafka import AIOKafkaConsumer, TopicPartition

from monitor.config import Settings
from monitor.stream.kafka import client_options

__all__ = ["GroupProgress"]


class GroupProgress:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._consumer: AIOKafkaConsumer | None = None
        self._tps: list[TopicPartition] = []

    async def start(self, partitions: Iterable[int]) -> None:
        self._consumer = AIOKafkaConsumer(
            **client_options(self.settings),
            group_id=None,
            enable_auto_commit=False,
            fetch_max_wait_ms=100,
            max_partition_fetch_bytes=self.settings.max_message_bytes,
        )
        await self._consumer.start()
        self._tps = [TopicPartition(self.settings.events_topic, p) for p in sorted(partitions)]
        self._consumer.assign(self._tps)

    async def stop(self) -> None:
        if self._consumer is not None:
            await self._consumer.stop()

    async def caught_up(
        self, merged_upto: Mapping[tuple[str, int], int], timeout_ms: int = 1000
    ) -> bool:
        """True when every events partition has nothing after its last merged offset, as a
        fetch answered now shows; False on any doubt (no answer, a record found)."""
        consumer = self._consumer
        if consumer is None or not self._tps:
            return False
        positions = {}
        for tp in self._tps:
            positions[tp] = merged_upto.get((tp.topic, tp.partition), -1) + 1
            consumer.seek(tp, positions[tp])
        asked_ms = time.time() * 1000
        found = await consumer.getmany(timeout_ms=timeout_ms, max_records=1)
        if any(found.values()):
            return False
        for tp, position in positions.items():
            high = consumer.highwater(tp)
            polled_ms = consumer.last_poll_timestamp(tp)
            if high is None or polled_ms is None or polled_ms < asked_ms or high > position:
                return False
        return True
