"""The hot path: consume events in batches, score them, produce results, then commit.

Per batch: ``getmany`` up to ``batch_max_events`` records; :func:`monitor.pipeline.process`
each one (bad input becomes a dead letter, never an exception); produce every
``ScoredEvent`` to the scores topic keyed by ``event_id`` and every dead letter to the DLQ
keyed by the original key; wait until the broker has acknowledged all of them; only then
commit the batch's offsets. A crash anywhere before the commit redelivers the batch
(at-least-once); nothing is skipped. A failure to produce or commit rewinds the
consumer to the batch's first offsets and retries after a pause.

No single message can stall a batch (issue 11): every result is sized before it is sent
(a dead letter too large for the topic keeps only the first bytes of the payload, with
``truncated: true``; a scored event too large is dead-lettered as ``result_too_large``), a
record whose result cannot be built or sent is dead-lettered on its own, and a batch that
fails the same way twice (not a broker outage) is split in halves until the record that
fails it is found and dead-lettered (``produce_failed``); the rest is scored.

faust's per-event stream costs more than scoring itself (about 6,000 events/s for an
agent that does nothing, measured on the embedded broker), so the loop uses aiokafka
directly inside the faust app's lifecycle.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.abc import ConsumerRebalanceListener
from aiokafka.errors import (
    CommitFailedError,
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    ProducerClosed,
)

from monitor.config import Settings
from monitor.errors import EventError
from monitor.events.dead_letter import DeadLetter, DeadLetterError
from monitor.events.scored_event import ScoredEvent
from monitor.pipeline import process
from monitor.scoring.warm_up import warm_up
from monitor.stream.aggregation import AggregationStage
from monitor.stream.kafka import group_consumer_options, new_producer
from monitor.stream.window_feed import WindowFeed
from monitor.windows.labels import LabelPolicy
from monitor.windows.partial import SourceRange

__all__ = ["RECORD_OVERHEAD_BYTES", "LoopStats", "ScoringLoop", "dead_letter_for", "is_transient"]

log = logging.getLogger(__name__)

RECORD_OVERHEAD_BYTES = 512
"""Room left for Kafka's record and batch headers when a message is sized against
``max_message_bytes`` (the producer counts them; about 80 bytes without headers)."""
_DLQ_KEY_BYTES = 256
"""A key longer than half the limit is cut to this many bytes in its dead letter."""

Batch = dict[TopicPartition, list[ConsumerRecord[bytes, bytes]]]
_TRANSIENT = (
    KafkaConnectionError,
    KafkaTimeoutError,
    ProducerClosed,
    CommitFailedError,
    TimeoutError,
    ConnectionError,
)


def is_transient(exc: BaseException) -> bool:
    """A failure of the broker or the group (retried as it is), not of one message (a
    batch that keeps failing with anything else is split to find the message).

    >>> is_transient(KafkaTimeoutError()), is_transient(TypeError("Integer exceeds 64-bit"))
    (True, False)
    """
    if isinstance(exc, KafkaError) and exc.retriable:
        return True
    return isinstance(exc, _TRANSIENT)


@dataclass
class LoopStats:
    """Counters a health endpoint (and later Prometheus) reads."""

    events: int = 0
    scored: int = 0
    dead_letters: Counter[str] = field(default_factory=Counter)
    batches: int = 0
    retries: int = 0
    failed_batches: int = 0
    """Consecutive failed attempts (0 after a batch succeeds): readiness reads it."""
    last_error: str | None = None
    split_batches: int = 0
    last_batch_monotonic: float = 0.0
    started_monotonic: float = field(default_factory=time.monotonic)

    def as_dict(self) -> dict[str, Any]:
        return {
            "events": self.events,
            "scored": self.scored,
            "dead_letters": sum(self.dead_letters.values()),
            "dead_letters_by_reason": dict(self.dead_letters),
            "batches": self.batches,
            "retries": self.retries,
            "failed_batches": self.failed_batches,
            "last_error": self.last_error,
            "split_batches": self.split_batches,
        }


def dead_letter_for(
    record: ConsumerRecord[bytes, bytes],
    error: EventError,
    *,
    max_bytes: int | None = None,
    max_payload_bytes: int | None = None,
    received_ms: int | None = None,
) -> bytes:
    """The DLQ message for ``record`` (DESIGN section 3).

    The payload is cut to ``max_payload_bytes`` and so that the dead letter plus the
    record's key fit ``max_bytes`` (base64 grows 4/3; see :data:`RECORD_OVERHEAD_BYTES`);
    a cut one says ``truncated: true``, the error is always kept whole.
    """

    def letter(payload_b64: str, truncated: bool) -> bytes:
        return (
            DeadLetter(
                error=DeadLetterError(
                    stage=error.stage, reason=error.reason, field=error.field, detail=error.detail
                ),
                topic=record.topic,
                partition=record.partition,
                offset=record.offset,
                received_ms=int(time.time() * 1000) if received_ms is None else received_ms,
                payload_b64=payload_b64,
                truncated=truncated,
            )
            .model_dump_json()
            .encode()
        )

    payload = record.value or b""
    keep = len(payload)
    if max_payload_bytes is not None:
        keep = min(keep, max_payload_bytes)
    if max_bytes is not None:
        room = max_bytes - len(dlq_key(record, max_bytes) or b"") - RECORD_OVERHEAD_BYTES
        room -= len(letter("", truncated=True))
        keep = min(keep, max(0, room) // 4 * 3)  # base64 of n bytes is 4 * ceil(n / 3)
    truncated = keep < len(payload)
    return letter(base64.b64encode(payload[:keep]).decode("ascii"), truncated)


def dlq_key(record: ConsumerRecord[bytes, bytes], max_bytes: int) -> bytes | None:
    """The dead letter's key: the original key, cut when it would not leave room."""
    key: bytes | None = record.key
    if key is not None and len(key) > max_bytes // 2:
        return key[:_DLQ_KEY_BYTES]
    return key


def _flat(batch: Batch) -> list[tuple[TopicPartition, ConsumerRecord[bytes, bytes]]]:
    return [(tp, record) for tp, records in batch.items() for record in records]


def _grouped(flat: list[tuple[TopicPartition, ConsumerRecord[bytes, bytes]]]) -> Batch:
    batch: Batch = {}
    for tp, record in flat:
        batch.setdefault(tp, []).append(record)
    return batch


def _signature(batch: Batch, exc: BaseException) -> tuple[object, ...]:
    """The same batch (its first offsets) failing with the same kind of error."""
    starts = sorted((tp.topic, tp.partition, rs[0].offset) for tp, rs in batch.items() if rs)
    return (tuple(starts), type(exc).__name__)


@dataclass
class _Produced:
    """What a produced (not yet committed) batch covers."""

    offsets: dict[TopicPartition, int] = field(default_factory=dict)
    scored: int = 0
    reasons: Counter[str] = field(default_factory=Counter)


def _leave_even_in_generation_0(consumer: AIOKafkaConsumer) -> None:
    """aiokafka sends LeaveGroup on close only when its generation is > 0, as Apache
    Kafka numbers generations from 1; the embedded broker numbers a new group's first
    generation 0, so a worker stopped before any rebalance would not leave and its
    partitions would wait out the session timeout. LeaveGroup carries no generation."""
    coordinator = getattr(consumer, "_coordinator", None)
    if coordinator is not None and getattr(coordinator, "generation", None) == 0:
        coordinator.generation = 1


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]
    """A revocation waits until the batch in flight is produced and committed; an
    assignment resumes each partition after the last offset already in a partial."""

    def __init__(self, loop: ScoringLoop) -> None:
        self._loop = loop

    async def on_partitions_revoked(self, revoked: set[TopicPartition]) -> None:
        async with self._loop._lock:
            pass
        if self._loop.stage is not None:  # stop publishing before another worker leads
            await self._loop.stage.set_leader(False)

    async def on_partitions_assigned(self, assigned: set[TopicPartition]) -> None:
        log.info("assigned %d partitions", len(assigned))
        await self._loop.resume(assigned)


class ScoringLoop:
    """Owns one consumer and one producer; :meth:`run` until cancelled."""

    def __init__(
        self,
        settings: Settings,
        stats: LoopStats | None = None,
        *,
        feed: WindowFeed | None = None,
        stage: AggregationStage | None = None,
        producer: AIOKafkaProducer | None = None,
    ) -> None:
        self.settings = settings
        self.stats = stats or LoopStats()
        self.labels = LabelPolicy.from_settings(settings)  # the scored event's label fields
        self.feed = feed
        self.stage = stage
        self._lock = asyncio.Lock()
        self.consumer: AIOKafkaConsumer | None = None
        self.producer = producer
        self._own_producer = producer is None
        self._failure: tuple[object, ...] | None = None  # the last failed batch, and how

    async def start(self) -> None:
        s = self.settings
        warm_up()  # before joining the group: the first event does not wait for it
        if self.producer is None:
            self.producer = new_producer(s)
            await self.producer.start()
        self.consumer = AIOKafkaConsumer(**group_consumer_options(s, s.consumer_group))
        self.consumer.subscribe([s.events_topic], listener=_Rebalance(self))
        await self.consumer.start()

    async def stop(self) -> None:
        """Close the clients; the consumer leaves the group, so its partitions move at once."""
        if self.consumer is not None:
            _leave_even_in_generation_0(self.consumer)
            await self.consumer.stop()
        if self.producer is not None and self._own_producer:
            await self.producer.stop()

    async def resume(self, assigned: set[TopicPartition]) -> None:
        """Seek past what partials already cover; tell the stage whether it leads."""
        if self.stage is None or self.consumer is None:
            return
        s = self.settings
        await self.stage.set_leader(TopicPartition(s.events_topic, 0) in assigned)
        try:
            resume_at = await self.stage.resume_offsets(assigned)
        except TimeoutError:
            log.error("the aggregating stage did not catch up; resuming at committed offsets")
            return
        for tp, offset in resume_at.items():
            committed = await self.consumer.committed(tp)
            if committed is None or offset > committed:
                log.info(
                    "partition %d resumes at %d (after its last partial)", tp.partition, offset
                )
                self.consumer.seek(tp, offset)

    async def run(self) -> None:
        """Score until cancelled. Never raises for bad input; Kafka errors are retried."""
        assert self.consumer is not None
        pause_s = 0.5
        st = self.stats
        while True:
            batch: Batch = {}
            try:
                batch = await self.consumer.getmany(
                    timeout_ms=self.settings.batch_timeout_ms,
                    max_records=self.settings.batch_max_events,
                )
                if batch:
                    async with self._lock:
                        await self._handle(batch)
                pause_s = 0.5
                st.failed_batches = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Kafka trouble: rewind, back off, try again
                st.retries += 1
                st.failed_batches += 1
                st.last_error = type(exc).__name__
                log.warning("batch failed (%s); rewinding and retrying", type(exc).__name__)
                self._rewind(batch)
                await asyncio.sleep(pause_s)
                pause_s = min(pause_s * 2, 30.0)

    async def _handle(self, batch: Batch) -> None:
        """Score, produce and commit ``batch``. A batch that fails the same way as its
        previous attempt (and not for a transient reason) is split to find the record."""
        try:
            done = await self._produce(batch)
        except Exception as exc:
            signature = _signature(batch, exc)
            if is_transient(exc) or signature != self._failure:
                self._failure = None if is_transient(exc) else signature
                raise
            self._failure = None
            self.stats.split_batches += 1
            log.warning("batch failed twice (%s); splitting it", type(exc).__name__)
            await self._bisect(_flat(batch), type(exc).__name__)
            return
        self._failure = None
        await self._commit(done)

    async def _bisect(
        self, flat: list[tuple[TopicPartition, ConsumerRecord[bytes, bytes]]], error_name: str
    ) -> None:
        """``flat`` failed with ``error_name``: score and commit each half, split a half
        that fails again, and dead-letter a single record that fails on its own."""
        if len(flat) == 1:
            tp, record = flat[0]
            error = EventError("produce", "produce_failed", None, error_name)
            log.warning(
                "partition %d offset %d dead-lettered: %s", tp.partition, record.offset, error_name
            )
            await self._commit(await self._produce(_grouped(flat), {(tp, record.offset): error}))
            return
        middle = len(flat) // 2
        for half in (flat[:middle], flat[middle:]):
            try:
                done = await self._produce(_grouped(half))
            except Exception as exc:
                if is_transient(exc):
                    raise
                await self._bisect(half, type(exc).__name__)
                continue
            await self._commit(done)

    async def _produce(
        self,
        batch: Batch,
        failed: dict[tuple[TopicPartition, int], EventError] | None = None,
    ) -> _Produced:
        """Score ``batch`` and produce every result, then its partial; ``failed`` records
        are dead-lettered with the given error instead of being scored."""
        assert self.producer is not None and self.consumer is not None
        s = self.settings
        now_ms = int(time.time() * 1000)
        lowest_ms, highest_ms = now_ms - s.max_event_age_ms, now_ms + s.max_event_ahead_ms
        pending: list[Awaitable[Any]] = []
        done = _Produced()
        part = None if self.feed is None else self.feed.batch()
        sources = []
        for tp, records in batch.items():
            newest: int | None = None  # this partition's largest event time in the batch
            for record in records:
                result = (failed or {}).get((tp, record.offset)) or process(
                    record.value,
                    max_bytes=s.max_event_bytes,
                    include_query_text=s.scores_include_query_text,
                    score_scales=s.score_scales,
                    now_ms=now_ms,
                    max_age_ms=s.max_event_age_ms,
                    max_ahead_ms=s.max_event_ahead_ms,
                )
                if isinstance(result, ScoredEvent):
                    sent = await self._send_score(result)
                    if not isinstance(sent, EventError):
                        pending.append(sent)
                        done.scored += 1
                        if part is not None:
                            part.add(result)
                            newest = max(newest or result.timestamp_ms, result.timestamp_ms)
                        continue
                    result = sent
                done.reasons[result.reason] += 1
                pending.append(await self._send_dead_letter(record, result, now_ms))
                if part is not None:
                    # counted at the broker's time (unless out of range too), but a dead
                    # letter never moves its partition's event time: the broker's clock is
                    # not the events' clock, and it would make the next events late
                    at_ms = record.timestamp
                    if not lowest_ms <= at_ms <= highest_ms:
                        at_ms = now_ms
                    part.add_dead_letter(result.reason, at_ms)
            first, last = records[0].offset, records[-1].offset
            high = self.consumer.highwater(tp)
            sources.append(SourceRange(tp.topic, tp.partition, first, last, newest, high))
            done.offsets[tp] = records[-1].offset + 1
        # every result is acknowledged before the partial that counts it is written, so
        # a batch that fails (and is retried or split) leaves no partial behind
        await asyncio.gather(*pending)
        if part is not None:
            partial = part.finish(sources).to_json()
            await (await self.producer.send(s.partials_topic, partial, partition=0))
        return done

    async def _send_score(self, scored: ScoredEvent) -> Awaitable[Any] | EventError:
        """Send ``scored``; a result that cannot be built or sent becomes an error."""
        assert self.producer is not None
        s = self.settings
        try:
            value = self.labels.scored(scored).model_dump_json().encode()
            key = scored.event_id.encode()
        except Exception as exc:
            return EventError("produce", "result_failed", None, type(exc).__name__)
        size = len(key) + len(value) + RECORD_OVERHEAD_BYTES
        if size > s.max_message_bytes:
            detail = f"the scored event is {size} bytes, over the {s.max_message_bytes} limit"
            return EventError("produce", "result_too_large", None, detail)
        try:
            sent: Awaitable[Any] = await self.producer.send(s.scores_topic, value, key=key)
            return sent
        except Exception as exc:
            if is_transient(exc):
                raise
            return EventError("produce", "produce_failed", None, type(exc).__name__)

    async def _send_dead_letter(
        self, record: ConsumerRecord[bytes, bytes], error: EventError, now_ms: int
    ) -> Awaitable[Any]:
        assert self.producer is not None
        s = self.settings
        value = dead_letter_for(
            record,
            error,
            max_bytes=s.max_message_bytes,
            max_payload_bytes=s.dlq_max_payload_bytes,
            received_ms=now_ms,
        )
        key = dlq_key(record, s.max_message_bytes)
        sent: Awaitable[Any] = await self.producer.send(s.dlq_topic, value, key=key)
        return sent

    async def _commit(self, done: _Produced) -> None:
        """Commit what ``done`` covers, count it and update the lag."""
        assert self.consumer is not None
        offsets = done.offsets
        await self.consumer.commit(offsets)
        st = self.stats
        st.events += done.scored + sum(done.reasons.values())
        st.scored += done.scored
        st.dead_letters.update(done.reasons)
        st.batches += 1
        st.last_batch_monotonic = time.monotonic()
        for tp, next_offset in offsets.items():
            high = self.consumer.highwater(tp)
            if high is not None and self.feed is not None and self.feed.metrics is not None:
                lag = self.feed.metrics.consumer_lag.labels(partition=str(tp.partition))
                lag.set(max(0, high - next_offset))

    def _rewind(self, batch: Batch) -> None:
        assert self.consumer is not None
        assigned = self.consumer.assignment()
        for tp, records in batch.items():
            if tp in assigned:
                self.consumer.seek(tp, records[0].offset)
