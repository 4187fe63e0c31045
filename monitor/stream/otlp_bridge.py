"""OpenTelemetry traces in (issue 16): read OTLP spans from ``otlp_topic`` as the
OpenTelemetry Collector's Kafka exporter writes them, gather each trace's spans, map the
trace to a ``RagEvent`` and produce it to the events topic, keyed by its event id (the
trace id), where the scoring loop scores it like any other event.

The pure part is :mod:`monitor.events.otel` (decode, assemble, map); this is its shell:
one consumer (group ``<consumer_group>-otlp``) and the worker's producer.

- A message that is not OTLP traces in ``otlp_encoding`` is dead-lettered at once
  (``invalid_otlp``, ``empty_payload``); a trace that cannot be mapped is dead-lettered when
  it completes, keyed by its trace id, with the first message that held one of its spans as
  the payload (``not_a_rag_trace``, ``missing_query``, ``invalid_value``).
- At least once: a partition is committed only up to the first message that still feeds a
  waiting trace, and only once every event and dead letter before it is acknowledged. A
  failure, a rebalance or a crash forgets the waiting traces and reads again from the
  committed offsets, so a trace may be produced twice (same event id: the windows count it
  once, see ``dedupe_horizon_ms``), never lost.
- The spans of one trace must reach one worker: with several workers, configure the
  exporter with ``partition_traces_by_id: true`` (one trace, one partition).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.abc import ConsumerRebalanceListener

from monitor.config import Settings
from monitor.errors import EventError
from monitor.events.otel import CompletedTrace, Source, TraceAssembler, decode_traces, map_trace
from monitor.stream.kafka import group_consumer_options
from monitor.stream.scoring_loop import (
    RECORD_OVERHEAD_BYTES,
    _leave_even_in_generation_0,
    dead_letter_for,
    dlq_key,
)

__all__ = ["OtlpBridge", "OtlpStats"]

log = logging.getLogger(__name__)

Record: TypeAlias = ConsumerRecord[bytes, bytes]


@dataclass
class OtlpStats:
    """Counters for ``/healthz``."""

    messages: int = 0
    spans: int = 0
    events: int = 0
    dead_letters: Counter[str] = field(default_factory=Counter)
    pending_traces: int = 0
    late_spans: int = 0
    dropped_spans: int = 0
    incomplete_traces: int = 0
    """Traces mapped without their root span (max wait or eviction)."""
    retries: int = 0
    last_error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "messages": self.messages,
            "spans": self.spans,
            "events": self.events,
            "dead_letters": sum(self.dead_letters.values()),
            "dead_letters_by_reason": dict(self.dead_letters),
            "pending_traces": self.pending_traces,
            "late_spans": self.late_spans,
            "dropped_spans": self.dropped_spans,
            "incomplete_traces": self.incomplete_traces,
            "retries": self.retries,
            "last_error": self.last_error,
        }


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]
    """Partitions move only between batches, and the waiting traces are forgotten. After a
    move every partition is read again from its committed offset: aiokafka gives each new
    assignment fresh positions from the committed offsets. Seeking here as well would race
    its fetcher, which may already have delivered records by the time this listener runs,
    and so those records would be read twice."""

    def __init__(self, bridge: OtlpBridge) -> None:
        self._bridge = bridge

    async def on_partitions_revoked(self, revoked: set[TopicPartition]) -> None:
        async with self._bridge.lock:
            self._bridge.forget()

    async def on_partitions_assigned(self, assigned: set[TopicPartition]) -> None:
        pass


class OtlpBridge:
    """Owns one consumer; produces with the worker's producer. :meth:`run` until cancelled."""

    def __init__(
        self,
        settings: Settings,
        producer: AIOKafkaProducer,
        stats: OtlpStats | None = None,
        *,
        clock_ms: Callable[[], int] = lambda: int(time.time() * 1000),
    ) -> None:
        s = settings
        self.settings = settings
        self.producer = producer
        self.stats = stats or OtlpStats()
        self.clock_ms = clock_ms
        self.lock = asyncio.Lock()
        self.assembler = TraceAssembler(
            grace_ms=s.otlp_trace_grace_ms,
            max_wait_ms=s.otlp_trace_max_wait_ms,
            max_traces=s.otlp_max_pending_traces,
            max_spans_per_trace=s.otlp_max_spans_per_trace,
        )
        self.consumer: AIOKafkaConsumer | None = None
        self._records: dict[Source, Record] = {}  # the messages waiting traces came from
        self._position: dict[TopicPartition, int] = {}  # next offset, per partition read
        self._committed: dict[TopicPartition, int] = {}

    async def start(self) -> None:
        s = self.settings
        self.consumer = AIOKafkaConsumer(**group_consumer_options(s, f"{s.consumer_group}-otlp"))
        self.consumer.subscribe([s.otlp_topic], listener=_Rebalance(self))
        await self.consumer.start()

    async def stop(self) -> None:
        if self.consumer is not None:
            _leave_even_in_generation_0(self.consumer)
            await self.consumer.stop()

    def forget(self) -> None:
        """Drop the waiting traces; their messages are read again after a rewind."""
        self.assembler.clear()
        self._records.clear()
        self._position.clear()
        self._committed.clear()
        self.stats.pending_traces = 0

    async def rewind(self, partitions: set[TopicPartition]) -> None:
        """Read ``partitions`` again from their committed offsets (the beginning if none),
        after a failed batch."""
        assert self.consumer is not None
        for tp in partitions:
            committed = await self.consumer.committed(tp)
            if committed is None:
                await self.consumer.seek_to_beginning(tp)
            else:
                self.consumer.seek(tp, committed)
                self._committed[tp] = committed

    async def run(self) -> None:
        """Bridge until cancelled. Bad input is dead-lettered; Kafka errors are retried."""
        assert self.consumer is not None
        pause_s = 0.5
        while True:
            try:
                batch = await self.consumer.getmany(
                    timeout_ms=self.settings.batch_timeout_ms,
                    max_records=self.settings.batch_max_events,
                )
                async with self.lock:
                    await self._handle(batch)
                pause_s = 0.5
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Kafka trouble: forget, read again, back off
                self.stats.retries += 1
                self.stats.last_error = type(exc).__name__
                log.warning("OTLP batch failed (%s); reading again", type(exc).__name__)
                async with self.lock:
                    self.forget()
                    try:
                        await self.rewind(self.consumer.assignment())
                    except Exception as again:
                        log.warning("OTLP rewind failed (%s)", type(again).__name__)
                await asyncio.sleep(pause_s)
                pause_s = min(pause_s * 2, 30.0)

    async def _handle(self, batch: dict[TopicPartition, list[Record]]) -> None:
        """Decode and assemble ``batch``, send every trace that is complete now, commit."""
        now_ms = self.clock_ms()
        st, pending = self.stats, []
        completed: list[CompletedTrace] = []
        for tp, records in batch.items():
            for record in records:
                st.messages += 1
                try:
                    spans = decode_traces(record.value, self.settings.otlp_encoding)
                except EventError as error:
                    pending.append(await self._dead_letter(record, error, now_ms, record.key))
                    continue
                st.spans += len(spans)
                source = (tp.topic, tp.partition, record.offset)
                self._records[source] = record
                completed += self.assembler.add(spans, source, now_ms)
            if records:
                self._position[tp] = records[-1].offset + 1
        completed += self.assembler.due(now_ms)
        for trace in completed:
            pending.append(await self._send(trace, now_ms))
        await asyncio.gather(*pending)
        live = self.assembler.pending_sources()
        self._records = {k: v for k, v in self._records.items() if k in live}
        st.pending_traces = len(self.assembler)
        st.late_spans, st.dropped_spans = self.assembler.late_spans, self.assembler.dropped_spans
        await self._commit()

    async def _send(self, trace: CompletedTrace, now_ms: int) -> Awaitable[Any]:
        s, st = self.settings, self.stats
        key = trace.trace_id.encode()
        try:
            value = map_trace(trace.spans).model_dump_json(exclude_none=True).encode()
            if len(key) + len(value) + RECORD_OVERHEAD_BYTES > s.max_message_bytes:
                raise EventError(
                    "produce", "result_too_large", None, "the mapped event exceeds the limit"
                )
        except EventError as error:
            return await self._dead_letter(self._records[trace.sources[0]], error, now_ms, key)
        st.events += 1
        st.incomplete_traces += not trace.root_seen
        sent: Awaitable[Any] = await self.producer.send(s.events_topic, value, key=key)
        return sent

    async def _dead_letter(
        self, record: Record, error: EventError, now_ms: int, key: bytes | None
    ) -> Awaitable[Any]:
        s = self.settings
        self.stats.dead_letters[error.reason] += 1
        value = dead_letter_for(
            record,
            error,
            max_bytes=s.max_message_bytes,
            max_payload_bytes=s.dlq_max_payload_bytes,
            received_ms=now_ms,
        )
        if key is None:
            key = dlq_key(record, s.max_message_bytes)
        sent: Awaitable[Any] = await self.producer.send(s.dlq_topic, value, key=key)
        return sent

    async def _commit(self) -> None:
        """Commit each partition up to its first message that feeds a waiting trace."""
        assert self.consumer is not None
        lowest = self.assembler.lowest_pending_offsets()
        offsets = {}
        for tp, position in self._position.items():
            offset = min(position, lowest.get((tp.topic, tp.partition), position))
            if offset > self._committed.get(tp, -1):
                offsets[tp] = offset
        if offsets:
            await self.consumer.commit(offsets)
            self._committed |= offsets
