"""The aggregating stage: merges every worker's partials, closes windows, decides alerts.

Every worker runs one. It reads the single-partition partials topic from the beginning
(so a restarted worker rebuilds windows, baselines, alert states and the event ids seen
lately by replay), feeds a :class:`~monitor.decider.Decider`, and when windows close:

- the **leader** (the worker that holds partition 0 of the events topic) produces each
  window's alerts to the alerts topic (keyed by fingerprint), its A/B results, and then its
  summary to the windows topic, and sets the window gauges;
- every other worker renders the same records and keeps them ready
  (:class:`~monitor.stream.publication.PendingPublications`). A worker that becomes leader
  reads what is already published (:func:`~monitor.stream.published.read_published`) and
  publishes every closed window not there yet, and the records of a window the previous
  leader left half written, so a change of leader, a rejoin or a restart loses no closed
  window and publishes none twice (an alert of a window whose writing was cut short by a
  crash is not repeated either, as long as it is in the alerts topic's tail). A worker
  that loses partition 0 stops publishing before the rebalance completes
  (:meth:`AggregationStage.set_leader` waits for the window being written);
- when the partials topic has been quiet for ``window_idle_close_s`` and the broker shows
  that the group has scored every event it holds (:class:`~monitor.stream.group_progress.
  GroupProgress`), the leader writes a watermark message (wall-clock time) to it, so
  windows close when traffic stops and the replay sees the same watermark. A broker that
  does not answer, or a partition with events not yet in a partial, is not idle traffic:
  it restarts the quiet period.

The scoring loop asks :meth:`AggregationStage.resume_offsets` on every partition
assignment: a partition resumes after the last offset already merged into a partial,
even when that batch's commit never happened (the worker was killed in between).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import get_args

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from monitor.config import Settings
from monitor.decider import Decider, Decision
from monitor.events.ab_result import AbResult, Verdict
from monitor.metrics.monitor_metrics import MonitorMetrics, latency_stage
from monitor.stream.group_progress import GroupProgress
from monitor.stream.kafka import client_options
from monitor.stream.publication import (
    PendingPublications,
    Publication,
    Record,
    ab_ident,
    alert_ident,
    summary_record,
)
from monitor.stream.published import Published, read_published
from monitor.windows.bounds import window_start
from monitor.windows.dedupe import SeenEvents
from monitor.windows.partial import Partial
from monitor.windows.summary import window_summary

__all__ = ["AggregationStage"]

log = logging.getLogger(__name__)


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
        self.windows_closed = 0
        self.windows_published = 0
        self.alerts_sent = 0
        self.seen = SeenEvents()
        """Event ids of every worker's partials (shared with this worker's window feed)."""
        self.pending = PendingPublications(settings.handover_horizon_ms)
        self.published = Published()
        self._tp = TopicPartition(settings.partials_topic, 0)
        self._consumer: AIOKafkaConsumer | None = None
        self._group = GroupProgress(settings)
        self._progress = asyncio.Condition()
        self._publishing = asyncio.Lock()
        self._takeover: asyncio.Task[None] | None = None
        self._quiet_since = time.monotonic()
        self._late_seen = 0
        self._drained_at = 0.0
        self._stopped = False
        self._dedupe_horizon_ms = settings.dedupe_horizon_ms + decider.store.pane_ms

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
        await self._group.start(partitions)
        self._consumer.assign([self._tp])
        self._consumer.seek(self._tp, 0)

    async def release(self) -> None:
        """Release a partition assignment waiting for the stage (shutting down)."""
        async with self._progress:
            self._stopped = True
            self._progress.notify_all()

    async def stop(self) -> None:
        """Stop reading; a partition assignment waiting for the stage is released."""
        await self.release()
        if self._takeover is not None:
            self._takeover.cancel()
        if self._consumer is not None:
            await self._consumer.stop()
        await self._group.stop()

    # -- what the scoring loop asks ------------------------------------------------------
    async def set_leader(self, leader: bool) -> None:
        """Lead (publish) or not. Giving up waits for the window being written and for
        every record sent to be acknowledged; taking over reads what is published first
        (in the background, so the rebalance is not held up), then publishes the pending
        windows."""
        if self._takeover is not None:
            self._takeover.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._takeover
            self._takeover = None
        if not leader:
            async with self._publishing:
                self.leader = False
                # a window cut short above may have records still in the producer's
                # buffer: they reach the broker before another worker reads what is
                # published, or they would be written twice
                await self.producer.flush()
        elif not self.leader:
            self._takeover = asyncio.create_task(self._take_over(), name="take-over")

    async def _take_over(self) -> None:
        while True:
            try:
                published = await read_published(self.settings)
                break
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the broker is away: windows wait in `pending`
                log.warning("cannot read what is published (%s); retrying", type(exc).__name__)
                await asyncio.sleep(1.0)
        async with self._publishing:
            self.published = published
            self.leader = True
            waiting = len(self.pending)
            for publication in self.pending.drain():  # one cut short stays pending
                await self._publish(publication)
        log.info("leading: %d closed windows were waiting to be published", waiting)

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
                self._quiet_since = time.monotonic()
                self._forget_seen()
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
                return
            partial = Partial.from_dict(message)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("skipping an unreadable partials message (%s)", type(exc).__name__)
            return
        self.decider.merge(partial)
        oldest = self._seen_from_ms()
        for pane, digests in partial.seen.items():
            if oldest is None or pane >= oldest:
                self.seen.add_digests(pane, digests)

    def _seen_from_ms(self) -> int | None:
        """The first pane whose event ids are still worth remembering."""
        watermark = self.decider.store.watermark_ms
        if watermark is None:
            return None
        return window_start(watermark - self._dedupe_horizon_ms, self.decider.store.pane_ms)

    def _forget_seen(self) -> None:
        oldest = self._seen_from_ms()
        if oldest is not None:
            self.seen.forget_before(oldest)

    async def _close_when_idle(self) -> None:
        now = time.monotonic()
        if not self.leader or now - self._quiet_since < self.settings.window_idle_close_s:
            return
        if not any(state.panes for state in self.decider.store.kinds.values()):
            return
        try:
            idle = await self._group.caught_up(self.decider.store.merged_upto)
        except Exception as exc:  # the broker is away: that is not idle traffic
            log.info("cannot tell whether the group is idle (%s)", type(exc).__name__)
            idle = False
        if not idle:  # a backlog, or no answer: a full quiet period again before closing
            self._quiet_since = time.monotonic()
            return
        value = orjson.dumps({"kind": "watermark", "watermark_ms": int(time.time() * 1000)})
        await (await self.producer.send(self.settings.partials_topic, value, partition=0))
        self._quiet_since = time.monotonic()

    async def _emit(self, decisions: list[Decision]) -> None:
        late = self.decider.store.late_events.get("tumbling", 0)
        if self.metrics is not None and late > self._late_seen:
            self.metrics.late_events.inc(late - self._late_seen)
        self._late_seen = late
        for decision in decisions:
            self.windows_closed += 1
            publication = self._render(decision, late)
            async with self._publishing:
                if not self.leader:
                    self.pending.add(publication)
                    continue
                if decision.window.kind == "tumbling":
                    self._set_gauges(decision)
                for result in decision.ab_results:
                    self._set_ab_gauges(result)
                await self._publish(publication)

    def _render(self, decision: Decision, late_events: int) -> Publication:
        """The records ``decision`` writes, alerts and A/B results first, summary last."""
        s = self.settings
        window = decision.window
        results = []
        for alert in decision.alerts:
            results.append(
                Record(
                    s.alerts_topic,
                    alert.fingerprint.encode(),
                    alert.model_dump_json().encode(),
                    alert_ident(alert.fingerprint, alert.status, alert.window.start_ms),
                    counts=(alert.type, alert.severity, alert.status),
                )
            )
        for ab in decision.ab_results:
            span = ab.span
            results.append(
                Record(
                    s.ab_results_topic,
                    ab.experiment.encode(),
                    ab.model_dump_json().encode(),
                    ab_ident(ab.experiment, span.scope, span.start_ms, span.end_ms),
                )
            )
        late = late_events if window.kind == "tumbling" else None
        summary = orjson.dumps(window_summary(window, late))
        record = summary_record(s.windows_topic, window.kind, window.start_ms, summary)
        return Publication(window.kind, window.start_ms, window.end_ms, results, record)

    async def _publish(self, publication: Publication) -> None:
        """Write the records of one window that are not published yet; wait for the acks."""
        if self.published.has_window(publication):
            return
        sends = []
        for record in publication.records:
            if self.published.has(record):
                continue  # written by the previous leader before it stopped
            sends.append(
                await self.producer.send(
                    record.topic, record.value, key=record.key, partition=record.partition
                )
            )
            if record.counts is not None:
                self.alerts_sent += 1
                if self.metrics is not None:
                    kind, severity, status = record.counts
                    self.metrics.alerts.labels(type=kind, severity=severity, status=status).inc()
        await asyncio.gather(*sends)
        self.published.add(publication)
        self.windows_published += 1

    def _set_gauges(self, decision: Decision) -> None:
        m = self.metrics
        if m is None:
            return
        window = decision.window
        m.window_end.set(window.end_ms / 1000)
        for (variant, tenant, app), metrics in window.series.items():
            # per variant only: the roll-up over variants is PromQL's (sum by), not a
            # variant="all" series that a sum() would count twice
            if variant is None or tenant is not None or app is not None:
                continue
            label = m.cap("variant", variant)
            for metric, agg in metrics.items():
                base = self.decider.baseline((variant, None, None), metric, window.end_ms)
                m.set_window(metric, label, agg.count, agg.mean, agg.quantile(0.95), base)

    def _set_ab_gauges(self, result: AbResult) -> None:
        m = self.metrics
        if m is None or result.span.scope != "cumulative":
            return
        experiment = m.cap("experiment", result.experiment)
        for c in result.comparisons:
            variant = m.cap("variant", c.variant)
            m.set_ab(experiment, c.metric, variant, c.difference, c.always_valid_p_value)
            labels = {"experiment": experiment, "metric": c.metric, "variant": variant}
            if c.cs_low is not None and c.cs_high is not None and latency_stage(c.metric) is None:
                m.ab_cs_low.labels(**labels).set(c.cs_low)  # latencies: no unitless bound
                m.ab_cs_high.labels(**labels).set(c.cs_high)
            for verdict in get_args(Verdict):
                m.ab_verdict.labels(**labels, verdict=verdict).set(float(c.verdict == verdict))
            if c.guardrail is not None:
                worse = c.guardrail.verdict == "worse_beyond_margin"
                m.ab_guardrail_worse.labels(**labels).set(float(worse))
