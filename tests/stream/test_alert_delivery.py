"""Alert delivery from ``rag.alerts.v1`` to real HTTP servers, on the embedded broker."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

import httpx
import pytest
from kafka_io import produce
from webhook_server import Received, WebhookServer

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis
from monitor.alerts.delivery_stats import DeliveryStats
from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.sender import AlertSender
from monitor.alerts.signing import message_id, new_secret, verify
from monitor.config import Settings
from monitor.stream.alert_delivery import AlertDelivery, run_deliveries

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

SECRET = new_secret()


def make_alert(fingerprint: str, seq: int) -> Alert:
    """Alert number ``seq`` of ``fingerprint`` (``starts_at_ms`` carries the sequence)."""
    return Alert(
        fingerprint=fingerprint,
        status="firing" if seq % 2 == 0 else "resolved",
        type="threshold",
        severity="critical",
        rule="critical_quality",
        message="Average quality score critically low",
        metric="quality.overall",
        current_value=0.31,
        threshold=0.4,
        labels=AlertLabels(variant="treatment"),
        window=AlertWindow(start_ms=seq, end_ms=seq + 60_000),
        starts_at_ms=seq,
        ends_at_ms=seq + 1 if seq % 2 else None,
        diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"], advice="retriever"),
    )


def make_alerts(count: int, first_seq: int = 0, fingerprints: int = 5) -> list[Alert]:
    return [make_alert(f"fp{i % fingerprints}", first_seq + i) for i in range(count)]


async def produce_alerts(settings: Settings, alerts: Sequence[Alert]) -> None:
    await produce(
        settings,
        [(a.fingerprint.encode(), a.model_dump_json().encode()) for a in alerts],
        settings.alerts_topic,
    )


async def until(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")
        await asyncio.sleep(0.05)


def received_alerts(server: WebhookServer) -> list[Alert]:
    return [Alert.model_validate_json(r.body) for r in server.requests() if r.status == 200]


def assert_in_order_once(got: Sequence[Alert], sent: Sequence[Alert]) -> None:
    """Every alert exactly once, and per fingerprint (= per partition) in sequence order."""
    keys = [(a.fingerprint, a.starts_at_ms) for a in got]
    assert len(keys) == len(set(keys)), "an alert was delivered twice"
    assert sorted(keys) == sorted((a.fingerprint, a.starts_at_ms) for a in sent)
    by_fingerprint: dict[str, list[int]] = {}
    for fingerprint, seq in keys:
        by_fingerprint.setdefault(fingerprint, []).append(seq)
    for fingerprint, seqs in by_fingerprint.items():
        assert seqs == sorted(seqs), f"{fingerprint} out of order: {seqs}"


def assert_signed(requests: Sequence[Received]) -> None:
    for request in requests:
        assert verify(request.body, request.headers, SECRET)
        alert = Alert.model_validate_json(request.body)
        assert request.headers["webhook-id"] == message_id(alert)  # stable: receivers dedupe


@pytest.fixture
def server() -> Iterator[WebhookServer]:
    with WebhookServer() as running:
        yield running


def endpoint_for(server: WebhookServer, name: str = "oncall", **more: Any) -> AlertEndpoint:
    return AlertEndpoint(name=name, kind="generic", url=server.url, **more)


@contextlib.asynccontextmanager
async def delivering(
    settings: Settings, endpoint: AlertEndpoint, stats: DeliveryStats
) -> AsyncIterator[AlertDelivery]:
    async with httpx.AsyncClient() as client:
        sender = AlertSender(client, settings.webhook_secret)
        delivery = AlertDelivery(settings, endpoint, sender, stats, base_backoff_s=0.2)
        await delivery.start()
        task = asyncio.create_task(delivery.run())
        try:
            yield delivery
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await delivery.stop()


def with_secret(settings: Settings, **more: Any) -> Settings:
    return settings.model_copy(update={"webhook_secret": SECRET, **more})


def test_every_alert_arrives_signed_in_order(
    stream_settings: Settings, server: WebhookServer
) -> None:
    settings = with_secret(stream_settings)
    stats = DeliveryStats()
    before, after = make_alerts(15), make_alerts(15, first_seq=15)

    async def scenario() -> None:
        await produce_alerts(settings, before)  # before the group exists: read from earliest
        async with delivering(settings, endpoint_for(server), stats) as delivery:
            assert delivery.group_id == f"{settings.consumer_group}-deliver-oncall"
            await produce_alerts(settings, after)
            await until(lambda: len(server.requests()) >= 30, 30, "30 deliveries")
            await until(lambda: stats.lag.get("oncall") == 0, 5, "lag 0")
            await asyncio.sleep(1.0)  # nothing more arrives

    asyncio.run(scenario())
    requests = server.requests()
    assert_in_order_once(received_alerts(server), before + after)
    assert_signed(requests)
    assert {r.headers["user-agent"] for r in requests} == {"ragmon"}
    assert stats.delivered["oncall"] == 30 and not stats.failed


def test_rejected_and_invalid_records_do_not_block(
    stream_settings: Settings, server: WebhookServer
) -> None:
    settings = with_secret(stream_settings)
    stats = DeliveryStats()
    server.respond(400, body=b"no such channel")
    rejected, accepted = make_alerts(3, fingerprints=1), make_alerts(3, 3, fingerprints=1)

    async def scenario() -> None:
        async with delivering(settings, endpoint_for(server), stats):
            await produce_alerts(settings, rejected)
            bad = [(b"fp0", b"not json"), (b"fp0", b'{"status": "firing"}')]
            await produce(settings, bad, settings.alerts_topic)
            await until(lambda: len(server.requests()) >= 3, 30, "3 rejected deliveries")
            server.respond(200)
            await produce_alerts(settings, accepted)
            await until(lambda: len(server.requests()) >= 6, 10, "3 more deliveries")
            await asyncio.sleep(1.0)

    asyncio.run(scenario())
    statuses = [r.status for r in server.requests()]
    assert statuses == [400, 400, 400, 200, 200, 200], "a rejected alert is not retried"
    assert_in_order_once(received_alerts(server), accepted)
    assert stats.rejected["oncall"] == 3
    assert stats.rejected_by_reason["oncall", "http_4xx"] == 3
    assert stats.invalid["oncall"] == 2
    assert stats.delivered["oncall"] == 3


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_60_s_outage_loses_nothing_and_keeps_order(
    stream_settings: Settings, server: WebhookServer
) -> None:
    settings = with_secret(stream_settings, delivery_max_backoff_s=3.0)
    stats = DeliveryStats()
    first, during_a, during_b = make_alerts(10), make_alerts(10, 10), make_alerts(10, 20)
    outage_s = 60.0
    timings: dict[str, float] = {}

    async def scenario() -> None:
        async with delivering(settings, endpoint_for(server), stats):
            await produce_alerts(settings, first)
            await until(lambda: len(server.requests()) >= 10, 30, "the first 10 deliveries")
            server.down()
            down_at = time.monotonic()
            await produce_alerts(settings, during_a)
            await asyncio.sleep(outage_s / 2)
            await produce_alerts(settings, during_b)
            await asyncio.sleep(outage_s - (time.monotonic() - down_at))
            assert len(server.requests()) == 10
            assert stats.lag["oncall"] == 20
            assert stats.failed["oncall", "connect"] >= 10
            server.up()
            up_at = time.monotonic()
            await until(lambda: len(server.requests()) >= 30, 30, "the 20 held back")
            timings["recovery_s"] = time.monotonic() - up_at
            await until(lambda: stats.lag["oncall"] == 0, 5, "lag 0")
            await asyncio.sleep(2.0)  # and nothing twice

    asyncio.run(scenario())
    assert_in_order_once(received_alerts(server), first + during_a + during_b)
    assert_signed(server.requests())
    assert len(server.requests()) == 30
    # backoff is capped at 3 s, so the first retry after the outage comes within ~3 s
    assert timings["recovery_s"] < 3.0 + 2.0, timings
    assert stats.delivered["oncall"] == 30 and stats.consecutive_failures["oncall"] == 0


def test_a_down_or_slow_endpoint_does_not_stall_the_others(stream_settings: Settings) -> None:
    with WebhookServer() as healthy, WebhookServer() as refused, WebhookServer() as slow:
        refused.down()
        slow.slow(30.0)
        endpoints = [
            endpoint_for(healthy, "healthy"),
            endpoint_for(refused, "refused"),
            endpoint_for(slow, "slow", timeout_s=1.0),
        ]
        settings = with_secret(
            stream_settings, alert_endpoints=endpoints, delivery_max_backoff_s=2.0
        )
        stats = DeliveryStats()
        warm_up, burst = make_alerts(1), make_alerts(10, 1)
        timings: dict[str, float] = {}

        async def scenario() -> None:
            task = asyncio.create_task(run_deliveries(settings, stats))
            try:
                await produce_alerts(settings, warm_up)
                await until(lambda: len(healthy.requests()) >= 1, 30, "groups joined")
                started = time.monotonic()
                await produce_alerts(settings, burst)
                await until(lambda: len(healthy.requests()) >= 11, 10, "the burst")
                timings["burst_s"] = time.monotonic() - started
                await until(lambda: len(slow.requests()) >= 2, 10, "a retry to the slow one")
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            assert task.cancelled()

        asyncio.run(scenario())
        assert timings["burst_s"] < 3.0, timings
        assert_in_order_once(received_alerts(healthy), warm_up + burst)
        assert_signed(healthy.requests())
        assert stats.delivered["healthy"] == 11
        assert stats.failed["refused", "connect"] >= 1 and stats.delivered["refused"] == 0
        assert stats.failed["slow", "timeout"] >= 1 and stats.delivered["slow"] == 0
        # the slow one retries the first alert of a partition, never one behind it
        first_seq = {a.fingerprint: a.starts_at_ms for a in reversed(warm_up + burst)}
        for request in slow.requests():
            tried = Alert.model_validate_json(request.body)
            assert tried.starts_at_ms == first_seq[tried.fingerprint]


def test_no_endpoints_returns_at_once() -> None:
    settings = Settings(bootstrap_servers="127.0.0.1:1")  # nothing there: never contacted
    asyncio.run(asyncio.wait_for(run_deliveries(settings, DeliveryStats()), 1.0))
