"""Alertmanager's convention, against a real Alertmanager and the embedded broker: the
delivery of an ``alertmanager`` endpoint re-sends every firing alert with a refreshed
``endsAt`` (so it stays active past its first ``endsAt``), does not re-send a resolved one,
and once the delivery (the worker) stops, its firing alert expires in Alertmanager by
itself, no resolved message needed."""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from kafka_io import produce
from promstack import AlertmanagerHandle, alertmanager_server, require_tools

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis
from monitor.alerts.delivery_stats import DeliveryStats
from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.payloads import DEFAULT_DASHBOARD_URL, DEFAULT_RUNBOOK_BASE_URL
from monitor.alerts.sender import AlertSender
from monitor.config import Settings
from monitor.stream.alert_delivery import AlertDelivery

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(120)]

RESEND_S = 1.0
TTL_S = 4.0


def _alert(fingerprint: str, status: str, now_ms: int) -> Alert:
    return Alert(
        fingerprint=fingerprint,
        status=status,  # type: ignore[arg-type]
        type="threshold",
        severity="critical",
        rule="critical_quality",
        message="Average quality score critically low",
        metric="quality.overall",
        current_value=0.31,
        threshold=0.4,
        labels=AlertLabels(variant=fingerprint),
        window=AlertWindow(start_ms=now_ms - 70_000, end_ms=now_ms - 10_000),
        starts_at_ms=now_ms - 10_000,
        ends_at_ms=now_ms - 5_000 if status == "resolved" else None,
        diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"], advice="retriever"),
    )


def _active(am: AlertmanagerHandle, fingerprint: str) -> dict[str, Any] | None:
    found = [a for a in am.alerts() if a["labels"].get("fingerprint") == fingerprint]
    active = [a for a in found if a["status"]["state"] == "active"]
    return active[0] if active else None


def _ends_at(alert: dict[str, Any]) -> float:
    return datetime.fromisoformat(alert["endsAt"].replace("Z", "+00:00")).timestamp()


async def _until(condition: Any, timeout_s: float, what: str) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        found = await asyncio.to_thread(condition)
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")
        await asyncio.sleep(0.2)


def test_firing_alerts_are_refreshed_and_expire_when_the_worker_stops(
    stream_settings: Settings, tmp_path: Path
) -> None:
    require_tools("alertmanager")
    settings = stream_settings.model_copy(
        update={"alertmanager_resend_s": RESEND_S, "alertmanager_firing_ttl_s": TTL_S}
    )
    now_ms = int(time.time() * 1000)
    firing = _alert("still-firing", "firing", now_ms)
    gone = [_alert("was-resolved", "firing", now_ms), _alert("was-resolved", "resolved", now_ms)]

    with alertmanager_server(tmp_path) as am:
        endpoint = AlertEndpoint(name="am", kind="alertmanager", url=am.url)

        async def scenario() -> None:
            records = [(a.fingerprint.encode(), a.model_dump_json().encode()) for a in gone]
            records.append((firing.fingerprint.encode(), firing.model_dump_json().encode()))
            await produce(settings, records, settings.alerts_topic)
            async with httpx.AsyncClient() as client:
                sender = AlertSender(client, alertmanager_firing_ttl_s=TTL_S)
                delivery = AlertDelivery(settings, endpoint, sender, DeliveryStats())
                await delivery.start()
                task = asyncio.create_task(delivery.run())
                try:
                    first = await _until(lambda: _active(am, "still-firing"), 30, "the alert")
                    first_end = _ends_at(first)
                    # Alertmanager took the links: the source and the runbook
                    assert first["generatorURL"].startswith(DEFAULT_DASHBOARD_URL + "?from=")
                    assert first["annotations"]["runbook_url"].startswith(
                        DEFAULT_RUNBOOK_BASE_URL + "/RagMonitor"
                    )
                    assert first["annotations"]["summary"] and first["annotations"]["description"]
                    # endsAt is a few seconds ahead, not 9999-12-31
                    assert first_end - time.time() <= TTL_S + 1
                    # past its first endsAt it is still active, with a later endsAt
                    await asyncio.sleep(max(0.0, first_end - time.time()) + 1.0)
                    refreshed = _active(am, "still-firing")
                    assert refreshed is not None, "not refreshed: expired while firing"
                    assert _ends_at(refreshed) > first_end
                    # a resolved alert is not re-sent: it stays resolved
                    assert _active(am, "was-resolved") is None
                    assert delivery.firing is not None and len(delivery.firing) == 1
                finally:  # the worker stops: no resolved message is ever sent
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                    await delivery.stop()
            stopped = time.time()
            last = _active(am, "still-firing")
            assert last is not None
            last_end = _ends_at(last)
            await _until(lambda: _active(am, "still-firing") is None, TTL_S + 10, "expiry")
            expired = time.time()
            # it expired by itself, at its last endsAt (within Alertmanager's polling)
            assert expired >= last_end - 0.5 and expired - stopped <= TTL_S + 5

        asyncio.run(scenario())
