"""The aggregating stage: merges every worker's partials, closes windows, decides alerts.

Every worker runs one. It reads the single-partition partials topic from the beginning
(so a restarted worker rebuilds windows, baselines and alert states by replay), feeds a
:class:`~monitor.decider.Decider`, and when windows close:

- the **leader** (the worker that holds partition 0 of the events topic) produces the
  window's alerts to the alerts topic (keyed by fingerprint) and the window's summary to
  the windows topic, and sets the window gauges. It skips windows whose summary is
  already in the windows topic, so replay after a restart does not send alerts twice;
  a crash between an alert and its window's summary re-sends that window's alerts
  (at-least-once);
- when the partials topic has been idle for ``window_idle_close_s`` and its own scoring
  loop has nothing left to score, the leader writes a watermark message (wall-clock
  time) to it, so windows close when traffic stops and the replay sees the same watermark.

The scoring loop asks :meth:`AggregationStage.resume_offsets` on every partition
assignment: a partition resumes after the last offset already merged into a partial,
even when that batch's commit never happened (the worker was killed in between).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from monitor.config import Settings
from monitor.decider import Decider, Decision
from monitor.events.ab_result import AbResult
from monitor.metrics.monitor_metrics import MonitorMetrics
from monitor.stream.kafka import client_options
from monitor.windows.partial import Partial
from monitor.windows.summary import window_summary

__all__ = ["AggregationStage"]

log = logging.getLogger(__name__)

ALL = "all"


class AggregationStage:
    def __init__(
        self,
        settings: Settings,
        decider: Decider,
        producer: AIOKafkaProducer,
        metrics: MonitorMetrics | None = None,
    ) -> None:
        self.settings = settings
        self.decider = decider
        self.producer = producer
        self.metrics = metrics
        self.leader = False
        self.position = 0
        self.emitted_upto: dict[str, int] = {}
        self.windows_closed = 0
        self.alerts_sent = 0
        self._tp = TopicPartition(settings.partials_topic, 0)
        self._consumer: AIOKafkaConsumer | None = None
        self._progress = asyncio.Condition()
        self._last_input = time.monotonic()
        self._late_seen = 0
        self._drained_at = 0.0
        self._stopped = False
        self.scoring_caught_up: Callable[[], bool] | None = None

    async def start(self) -> None:
        self._consumer = AIOKafkaConsumer(
            **client_options(self.settings),
            group_id=None,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            max_partition_fetch_bytes=self.settings.max_message_bytes,
        )
        await self._consumer.start()
        events = self.settings.events_topic
        await self._consumer.topics()  # metadata: the events topic's partitions
        partitions = self._consumer.partitions_for_topic(events) or set()
        self.decider.store.expect((events, p) for p in partitions)
        self._consumer.assign([self._tp])
        self._consumer.seek(self._tp, 0)

    async def stop(self) -> None:
        """Stop reading; a partition assignment waiting for the stage is released."""
        async with self._progress:
            self._stopped = True
            self._progress.notify_all()
        if self._consumer is not None:
            await self._consumer.stop()

    # -- what the scoring loop asks ------------------------------------------------------
    async def set_leader(self, leader: bool) -> None:
        if leader and not self.leader:
            self.emitted_upto = await self._read_emitted()
        self.leader = leader

    async def resume_offsets(
        self, assigned: set[TopicPartition], timeout_s: float = 60.0
    ) -> dict[TopicPartition, int]:
        """For each assigned partition with merged partials: the offset after them."""
        await self._catch_up(timeout_s)
        merged = self.decider.store.merged_upto
        out = {}
        for tp in assigned:
            last = merged.get((tp.topic, tp.partition))
            if last is not None:
                out[tp] = last + 1
        return out

    async def _catch_up(self, timeout_s: float) -> None:
        assert self._consumer is not None
        # ListOffsets can be one short on the embedded broker: past the end, or at it and
        # then an empty fetch, proves the stage has read everything written before now.
        started = time.monotonic()
        end = (await self._consumer.end_offsets([self._tp]))[self._tp]

        def done() -> bool:
            return (
                self._stopped
                or self.position > end
                or (self.position >= end and self._drained_at > started)
            )

        async with self._progress:
            await asyncio.wait_for(self._progress.wait_for(done), timeout_s)

    # -- the loop ------------------------------------------------------------------------
    async def run(self) -> None:
        assert self._consumer is not None
        while True:
            batch = await self._consumer.getmany(self._tp, timeout_ms=500, max_records=2000)
            records = batch.get(self._tp, [])
            for record in records:
                self._apply(record.value)
            if records:
                self._last_input = time.monotonic()
                async with self._progress:
                    self.position = records[-1].offset + 1
                    self._progress.notify_all()
            else:
                async with self._progress:
                    self._drained_at = time.monotonic()
                    self._progress.notify_all()
            await self._emit(self.decider.decide())
            await self._close_when_idle()

    def _apply(self, raw: bytes | None) -> None:
        try:
            message = orjson.loads(raw or b"")
            if message.get("kind") == "watermark":
                self.decider.advance(int(message["watermark_ms"]))
            else:
                self.decider.merge(Partial.from_dict(message))
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("skipping an unreadable partials message (%s)", type(exc).__name__)

    async def _close_when_idle(self) -> None:
        idle_s = time.monotonic() - self._last_input
        if not self.leader or idle_s < self.settings.window_idle_close_s:
            return
        if self.scoring_caught_up is not None and not self.scoring_caught_up():
            return  # this worker is still scoring a backlog (or joining): not idle
        if not any(state.panes for state in self.decider.store.kinds.values()):
            return
        value = orjson.dumps({"kind": "watermark", "watermark_ms": int(time.time() * 1000)})
        await (await self.producer.send(self.settings.partials_topic, value, partition=0))
        self._last_input = time.monotonic()

    async def _emit(self, decisions: list[Decision]) -> None:
        late = self.decider.store.late_events.get("tumbling", 0)
        if self.metrics is not None and late > self._late_seen:
            self.metrics.late_events.inc(late - self._late_seen)
        self._late_seen = late
        for decision in decisions:
            window = decision.window
            self.windows_closed += 1
            if not self.leader:
                continue
            if window.kind == "tumbling":
                self._set_gauges(decision)
            if window.end_ms <= self.emitted_upto.get(window.kind, -(2**62)):
                continue
            s = self.settings
            pending = []
            for alert in decision.alerts:
                value = alert.model_dump_json().encode()
                pending.append(
                    await self.producer.send(s.alerts_topic, value, key=alert.fingerprint.encode())
                )
                if self.metrics is not None:
                    self.metrics.alerts.labels(
                        type=alert.type, severity=alert.severity, status=alert.status
                    ).inc()
            for result in decision.ab_results:
                value = result.model_dump_json().encode()
                key = result.experiment.encode()
                pending.append(await self.producer.send(s.ab_results_topic, value, key=key))
                self._set_ab_gauges(result)
            summary = window_summary(window, late if window.kind == "tumbling" else None)
            key = f"{window.kind}:{window.start_ms}".encode()
            pending.append(
                await self.producer.send(
                    s.windows_topic, orjson.dumps(summary), key=key, partition=0
                )
            )
            await asyncio.gather(*pending)
            self.alerts_sent += len(decision.alerts)
            self.emitted_upto[window.kind] = window.end_ms

    def _set_gauges(self, decision: Decision) -> None:
        m = self.metrics
        if m is None:
            return
        window = decision.window
        m.window_end.set(window.end_ms / 1000)
        for (variant, tenant, app), metrics in window.series.items():
            if tenant is not None or app is not None:
                continue
            label = ALL if variant is None else m.cap("variant", variant)
            for metric, agg in metrics.items():
                mean, p95 = agg.mean, agg.quantile(0.95)
                m.window_count.labels(metric=metric, variant=label).set(agg.count)
                if mean is not None:
                    m.window_mean.labels(metric=metric, variant=label).set(mean)
                if p95 is not None:
                    m.window_p95.labels(metric=metric, variant=label).set(p95)
                base = self.decider.baseline((variant, None, None), metric, window.end_ms)
                if base is not None:
                    m.baseline.labels(metric=metric, variant=label).set(base)

    def _set_ab_gauges(self, result: AbResult) -> None:
        m = self.metrics
        if m is None or result.span.scope != "cumulative":
            return
        experiment = m.cap("experiment", result.experiment)
        for c in result.comparisons:
            labels = {
                "experiment": experiment,
                "metric": c.metric,
                "variant": m.cap("variant", c.variant),
            }
            if c.difference is not None:
                m.ab_difference.labels(**labels).set(c.difference)
            if c.always_valid_p_value is not None:
                m.ab_always_valid_p.labels(**labels).set(c.always_valid_p_value)

    async def _read_emitted(self) -> dict[str, int]:
        """The last window end per kind already in the windows topic (its last 100 messages)."""
        tp = TopicPartition(self.settings.windows_topic, 0)
        consumer = AIOKafkaConsumer(
            **client_options(self.settings), group_id=None, enable_auto_commit=False
        )
        await consumer.start()
        try:
            consumer.assign([tp])
            end = (await consumer.end_offsets([tp]))[tp]
            consumer.seek(tp, max(0, end - 100))
            out: dict[str, int] = {}
            while True:  # to an empty fetch: ListOffsets can be one short
                batch = await consumer.getmany(tp, timeout_ms=1000)
                if not batch:
                    break
                for record in batch.get(tp, []):
                    message = orjson.loads(record.value or b"{}")
                    kind, window_end = message.get("kind"), message.get("end_ms")
                    if isinstance(kind, str) and isinstance(window_end, int):
                        out[kind] = max(out.get(kind, window_end), window_end)
            return out
        finally:
            await consumer.stop()
