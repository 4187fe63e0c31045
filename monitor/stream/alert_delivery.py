"""Delivers ``rag.alerts.v1`` to one on-call endpoint: its own consumer, group and task.

``rag.alerts.v1`` is the durable outbox of alerts (DESIGN section 7). One
:class:`AlertDelivery` per configured endpoint reads it in its own consumer group,
``f"{consumer_group}-deliver-{endpoint.name}"`` (offsets reset to the earliest), so every
endpoint gets every alert at its own pace and the scoring loop never waits for any of them.
:func:`run_deliveries` runs one per endpoint, concurrently, over one shared
``httpx.AsyncClient``.

For each record, in partition order:

* ``delivered`` (2xx): commit ``offset + 1``, then the next record;
* ``retry`` (refused, timeout, 5xx, 408, 429): wait as :class:`~monitor.retry.RetryPolicy`
  says (full-jitter backoff capped at ``delivery_max_backoff_s``; a ``Retry-After`` is
  honoured up to the same cap, and never shortens the backoff) and send the SAME alert
  again, for as long as it takes. Nothing is skipped, so order is kept and an outage of
  any length loses nothing: the alerts wait in the topic;
* ``rejected`` (other 3xx/4xx: the endpoint will never take it): log a warning with the
  endpoint name, status and the first 200 characters of its answer, count it, commit, and
  go on: one bad alert does not block the ones behind it;
* a record that is not an ``Alert``: logged (its position, never its content), counted,
  committed, skipped.

Ordering: a fingerprint is the record key, so all messages of one alert (firing, then
resolved) are in one partition and arrive in order. Across partitions there is no global
order (the alerts topic may have several partitions).

Delivery is at-least-once: the commit follows the 2xx, so a crash (or a rebalance) between
the endpoint's answer and the commit sends that alert again. Receivers can deduplicate on
``fingerprint`` + ``status`` + ``starts_at_ms``.

While retrying, the consumer seeks back to the alert and polls again after each pause
instead of waiting inside one poll, so an outage longer than ``max.poll.interval.ms`` does
not make it leave its group.

Alertmanager endpoints follow Alertmanager's convention: every firing alert the endpoint
accepted is re-sent every ``alertmanager_resend_s`` (wall clock, between polls) with
``endsAt`` = send time + ``alertmanager_firing_ttl_s``, until its resolved message is
delivered (:class:`~monitor.alerts.firing_alerts.FiringAlerts`). So the alerts of a worker
that stopped (its deliveries stop with it) expire in Alertmanager by themselves. A failed
re-send is logged and tried again at the next round. The set lives in memory: after a
restart it holds the alerts delivered since then (firing ones delivered before expire unless
the worker re-notifies them, at the latest after ``alert_cooldown_ms`` of event time).

Nothing here logs or counts an endpoint's URL (a Slack URL holds a token): only its name.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

import httpx
from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition
from pydantic import ValidationError

from monitor.alerts.alert import Alert
from monitor.alerts.delivery_stats import DeliveryStats
from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.firing_alerts import FiringAlerts
from monitor.alerts.payloads import AlertLinks
from monitor.alerts.sender import AlertSender, SendResult
from monitor.config import Settings
from monitor.retry import RetryPolicy
from monitor.stream.kafka import client_options

__all__ = ["AlertDelivery", "delivery_group", "run_deliveries"]

log = logging.getLogger(__name__)

_MAX_RECORDS = 10  # per poll: every record may take endpoint.timeout_s to send
_POLL_TIMEOUT_MS = 1000
_STILL_FAILING_LOG_S = 60.0


def delivery_group(settings: Settings, endpoint: AlertEndpoint) -> str:
    """The consumer group of ``endpoint``'s deliveries.

    >>> s = Settings(consumer_group="ragmon")
    >>> delivery_group(s, AlertEndpoint(name="oncall", kind="slack", url="https://x"))
    'ragmon-deliver-oncall'
    """
    return f"{settings.consumer_group}-deliver-{endpoint.name}"


class AlertDelivery:
    """Delivers every alert of the alerts topic to one endpoint; :meth:`run` until cancelled."""

    def __init__(
        self,
        settings: Settings,
        endpoint: AlertEndpoint,
        sender: AlertSender,
        stats: DeliveryStats | None = None,
        *,
        base_backoff_s: float = 0.5,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings
        self.endpoint = endpoint
        self.sender = sender
        self.stats = stats or DeliveryStats()
        self.base_backoff_s = base_backoff_s
        self.group_id = delivery_group(settings, endpoint)
        self.consumer: AIOKafkaConsumer | None = None
        self._rng = rng or random.Random()
        self._failures = 0  # consecutive retry outcomes
        self._failing_since = 0.0
        self._last_warning = 0.0
        self.firing: FiringAlerts | None = None
        if endpoint.kind == "alertmanager":
            self.firing = FiringAlerts(settings.alertmanager_resend_s, time.monotonic())

    async def start(self) -> None:
        s = self.settings
        # the longest time between two polls: a batch of slow deliveries, then one pause
        longest_s = _MAX_RECORDS * self.endpoint.timeout_s + s.delivery_max_backoff_s + 60
        self.consumer = AIOKafkaConsumer(
            **client_options(s),
            group_id=self.group_id,
            client_id=f"ragmon-deliver-{self.endpoint.name}",
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            session_timeout_ms=int(s.session_timeout_s * 1000),
            heartbeat_interval_ms=int(s.heartbeat_interval_s * 1000),
            max_poll_interval_ms=int(max(300.0, longest_s) * 1000),
            max_partition_fetch_bytes=s.max_message_bytes,
        )
        self.consumer.subscribe([s.alerts_topic])
        await self.consumer.start()

    async def stop(self) -> None:
        if self.consumer is not None:
            await self.consumer.stop()
            self.consumer = None

    async def run(self) -> None:
        """Deliver until cancelled. Never raises for an endpoint or a bad record."""
        assert self.consumer is not None, "start() first"
        consumer = self.consumer
        kafka_pause_s = 0.5
        while True:
            try:
                batch = await consumer.getmany(
                    timeout_ms=_POLL_TIMEOUT_MS, max_records=_MAX_RECORDS
                )
                kafka_pause_s = 0.5
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Kafka trouble: the client reconnects; try again
                log.warning(
                    "alert delivery %s: poll failed (%s); retrying",
                    self.endpoint.name,
                    type(exc).__name__,
                )
                await asyncio.sleep(kafka_pause_s)
                kafka_pause_s = min(kafka_pause_s * 2, 30.0)
                continue
            pause_s = await self._deliver_batch(batch)
            await self._resend_firing()
            await self._update_lag()
            if pause_s is not None:
                await asyncio.sleep(pause_s)

    async def _deliver_batch(
        self, batch: dict[TopicPartition, list[ConsumerRecord[bytes, bytes]]]
    ) -> float | None:
        """Deliver the batch in order; on a retry, rewind and return how long to pause."""
        assert self.consumer is not None
        pending = list(batch.items())
        for index, (tp, records) in enumerate(pending):
            for record in records:
                if tp not in self.consumer.assignment():
                    break  # revoked by a rebalance: its new owner goes on from the commit
                result = await self._deliver(record)
                if result is not None and result.outcome == "retry":
                    self._rewind(tp, record.offset)
                    for later_tp, later in pending[index + 1 :]:
                        self._rewind(later_tp, later[0].offset)
                    return self._pause_after(result)
                await self._commit(tp, record.offset + 1)
        return None

    async def _deliver(self, record: ConsumerRecord[bytes, bytes]) -> SendResult | None:
        """One attempt for ``record``; ``None`` when it is not an alert (skipped)."""
        name = self.endpoint.name
        try:
            alert = Alert.model_validate_json(record.value or b"")
        except ValidationError as exc:
            self.stats.invalid[name] += 1
            log.warning(
                "alert delivery %s: skipping %s[%d]@%d: not an Alert (%d errors, first: %s)",
                name,
                record.topic,
                record.partition,
                record.offset,
                exc.error_count(),
                exc.errors(include_url=False, include_input=False)[0]["type"],
            )
            return None
        try:
            result = await self.sender.send(self.endpoint, alert)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug, not the endpoint: keep the alert, retry, be loud
            log.error(
                "alert delivery %s: sending alert %s failed (%s)",
                name,
                alert.fingerprint,
                type(exc).__name__,
            )
            result = SendResult("retry", "internal")
        self.stats.record(name, result, now_ms=int(time.time() * 1000))
        if result.outcome == "retry":
            return result
        if result.outcome == "delivered" and self.firing is not None:
            self.firing.note(alert)
        if self._failures:
            log.info(
                "alert delivery %s: endpoint back after %d failed attempts over %.0f s",
                name,
                self._failures,
                time.monotonic() - self._failing_since,
            )
        self._failures = 0
        if result.outcome == "rejected":
            log.warning(
                "alert delivery %s: alert %s (%s) rejected with HTTP %s, not retried: %r",
                name,
                alert.fingerprint,
                alert.status,
                result.status,
                result.answer,
            )
        return result

    async def _resend_firing(self) -> None:
        """Alertmanager: re-send every firing alert when a round is due (fresh ``endsAt``)."""
        if self.firing is None:
            return
        failed = 0
        last: SendResult | None = None
        for alert in self.firing.due(time.monotonic()):
            try:
                result = await self.sender.send(self.endpoint, alert)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a bug, not the endpoint: the next round tries again
                result = SendResult("retry", f"internal ({type(exc).__name__})")
            if result.outcome != "delivered":
                failed, last = failed + 1, result
        if last is not None:
            log.warning(
                "alert delivery %s: re-sending %d firing alerts failed (%s); next round in %.0f s",
                self.endpoint.name,
                failed,
                last.reason,
                self.settings.alertmanager_resend_s,
            )

    def _pause_after(self, result: SendResult) -> float:
        max_s = self.settings.delivery_max_backoff_s
        self._failures += 1
        now = time.monotonic()
        if self._failures == 1:
            self._failing_since = now
        # retries forever (the alerts wait in the topic): the backoff is a floor under a
        # Retry-After, so an endpoint answering "Retry-After: 0" is not hammered
        policy = RetryPolicy(
            self.base_backoff_s, max_s, retry_after_max_s=max_s, backoff_floor=True
        )
        pause_s = policy.delay_s(self._failures, result.retry_after_s, self._rng)
        if self._failures == 1 or now - self._last_warning >= _STILL_FAILING_LOG_S:
            self._last_warning = now
            log.warning(
                "alert delivery %s: attempt %d failed (%s%s); retrying the same alert in %.1f s",
                self.endpoint.name,
                self._failures,
                result.reason,
                f", HTTP {result.status}: {result.answer!r}" if result.status is not None else "",
                pause_s,
            )
        return pause_s

    def _rewind(self, tp: TopicPartition, offset: int) -> None:
        assert self.consumer is not None
        if tp in self.consumer.assignment():  # else revoked: its new owner starts there
            self.consumer.seek(tp, offset)

    async def _commit(self, tp: TopicPartition, offset: int) -> None:
        assert self.consumer is not None
        try:
            await self.consumer.commit({tp: offset})
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # rebalanced or Kafka trouble: a later commit covers it
            log.warning(
                "alert delivery %s: commit of %s[%d]@%d failed (%s); it may be sent again",
                self.endpoint.name,
                tp.topic,
                tp.partition,
                offset,
                type(exc).__name__,
            )

    async def _update_lag(self) -> None:
        """``stats.lag``: records of the assigned partitions not yet delivered or skipped."""
        assert self.consumer is not None
        lag = 0
        for tp in self.consumer.assignment():
            highwater = self.consumer.highwater(tp)
            if highwater is None:
                continue
            try:
                position = await self.consumer.position(tp)
            except Exception:  # revoked meanwhile
                continue
            lag += max(0, highwater - position)
        self.stats.lag[self.endpoint.name] = lag


async def run_deliveries(settings: Settings, stats: DeliveryStats) -> None:
    """One :class:`AlertDelivery` per configured endpoint, until cancelled.

    They join their groups concurrently and share one ``httpx.AsyncClient``; a slow or
    failing endpoint delays only its own deliveries. Returns at once without endpoints.
    """
    endpoints = settings.alert_endpoints
    if not endpoints:
        log.info("no alert endpoints configured; alerts stay in %s", settings.alerts_topic)
        return
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=2 * len(endpoints))
    async with httpx.AsyncClient(limits=limits, follow_redirects=False) as client:
        sender = AlertSender(
            client,
            settings.webhook_secret,
            alertmanager_firing_ttl_s=settings.alertmanager_firing_ttl_s,
            links=AlertLinks(settings.alert_runbook_base_url, settings.alert_dashboard_url),
        )
        deliveries = [AlertDelivery(settings, e, sender, stats) for e in endpoints]
        try:
            async with asyncio.TaskGroup() as starting:  # one failure cancels the others
                for delivery in deliveries:
                    starting.create_task(delivery.start())
            log.info(
                "delivering alerts to %s", ", ".join(f"{e.name} ({e.kind})" for e in endpoints)
            )
            async with asyncio.TaskGroup() as group:
                for delivery in deliveries:
                    group.create_task(delivery.run(), name=f"deliver-{delivery.endpoint.name}")
        finally:
            await asyncio.gather(*(d.stop() for d in deliveries), return_exceptions=True)
