"""A quality drop on the real broker reaches on-call: a signed JSON webhook arrives at a
real HTTP server within two window lengths, with spec 000's ``QualityAlert`` fields; the
same alert is in a real Alertmanager (API and ``amtool``); when quality recovers (three
clear windows: hysteresis), the resolved notification arrives."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from promstack import alertmanager_server, require_tools
from pydantic import SecretStr
from webhook_server import Received, WebhookServer

from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.signing import new_secret, verify
from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.stream.kafka import new_producer
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(300)]

WINDOW_MS = 4_000
SECRET = new_secret()
QUALITY_ALERT_FIELDS = {"type", "severity", "message", "metric", "current_value", "threshold"}


def _overall_critical(alert: dict[str, Any]) -> bool:
    return alert["rule"] == "critical_quality" and alert["labels"] == {
        "variant": None,
        "tenant": None,
        "application": None,
    }


async def _traffic(
    settings: Settings, phases: list[tuple[str, float]], marks: dict[str, float]
) -> None:
    """Real-time events at 100/s; each phase lasts until the given window boundary."""
    gen = TrafficGenerator(seed=3, malformed_rate=0.0)
    producer = new_producer(settings, linger_ms=5)
    await producer.start()
    try:
        for name, until_wall_s in phases:
            marks[name] = time.monotonic()
            while time.time() < until_wall_s:
                for _ in range(10):
                    event = gen.event()
                    event["timestamp_ms"] = int(time.time() * 1000)
                    if name == "bad":  # nothing retrieved: composite quality near 0
                        event["chunks"] = []
                        event.pop("context", None)
                    await producer.send(settings.events_topic, orjson.dumps(event))
                await asyncio.sleep(0.1)
        await producer.flush()
    finally:
        await producer.stop()


def test_quality_drop_alerts_on_call_and_resolves(
    stream_settings: Settings, tmp_path: Path
) -> None:
    require_tools("alertmanager", "amtool")
    with WebhookServer() as hook, alertmanager_server(tmp_path) as am:
        s = stream_settings.model_copy(
            update={
                "tumbling_window_ms": WINDOW_MS,
                "hopping_window_ms": 3 * WINDOW_MS,
                "hopping_step_ms": WINDOW_MS,
                "allowed_lateness_ms": 500,
                "window_idle_close_s": 2.0,
                "alert_endpoints": [
                    AlertEndpoint(name="oncall", kind="generic", url=hook.url),
                    AlertEndpoint(name="am", kind="alertmanager", url=am.url),
                ],
                "webhook_secret": SecretStr(SECRET),
                "delivery_max_backoff_s": 1.0,
            }
        )
        worker = start_worker(s, tmp_path / "worker.log")
        try:
            time.sleep(8)  # the worker and its delivery consumers join their groups
            window_s = WINDOW_MS / 1000
            boundary = (int(time.time() / window_s) + 3) * window_s  # >= 2 good windows
            phases = [
                ("good", boundary),
                ("bad", boundary + 2 * window_s),
                # resolving takes alert_resolve_windows (3) clear windows
                ("recovered", boundary + 7 * window_s),
            ]
            marks: dict[str, float] = {}
            traffic = threading.Thread(target=asyncio.run, args=(_traffic(s, phases, marks),))
            traffic.start()
            try:
                deadline = time.monotonic() + 60
                firing: list[tuple[Received, dict[str, Any]]] = []
                while not firing and time.monotonic() < deadline:
                    firing = [
                        (r, a)
                        for r, a in ((r, json.loads(r.body)) for r in hook.requests())
                        if _overall_critical(a) and a["status"] == "firing"
                    ]
                    time.sleep(0.1)
                assert firing, "no critical alert arrived"
                received, alert = firing[0]
                # while it fires, the same alert is in Alertmanager (API and amtool)
                fingerprint = alert["fingerprint"]
                am.wait_for_alerts(
                    lambda xs: any(x["labels"].get("fingerprint") == fingerprint for x in xs)
                )
                assert fingerprint in am.amtool_query(f"fingerprint={fingerprint}")
            finally:
                traffic.join()
            # the drop began on a window boundary: the alert arrives within two windows
            assert received.received_monotonic - marks["bad"] <= 2 * window_s
            assert set(alert) >= QUALITY_ALERT_FIELDS
            assert alert["type"] == "threshold" and alert["severity"] == "critical"
            assert alert["message"] == "Average quality score critically low"
            assert alert["metric"] == "quality.overall" and alert["threshold"] == 0.4
            assert alert["current_value"] < 0.4
            assert alert["diagnosis"]["perspective"] in {"retrieval", "context_quality"}
            assert verify(received.body, received.headers, SECRET)
            assert not verify(received.body + b" ", received.headers, SECRET)

            deadline = time.monotonic() + 7 * window_s
            resolved: list[dict[str, Any]] = []
            while not resolved and time.monotonic() < deadline:
                resolved = [
                    a
                    for a in (json.loads(r.body) for r in hook.requests())
                    if a["fingerprint"] == alert["fingerprint"] and a["status"] == "resolved"
                ]
                time.sleep(0.2)
            assert resolved, "quality recovered but no resolved notification arrived"
            assert resolved[0]["ends_at_ms"] >= resolved[0]["starts_at_ms"]
            assert resolved[0]["resolve_reason"] == "recovered"
            alerts = [json.loads(r.body) for r in hook.requests()]
            notified = [a for a in alerts if a["fingerprint"] == alert["fingerprint"]]
            # no re-notification (the message says whether a second one was a redelivery)
            assert [a["status"] for a in notified].count("firing") == 1, [
                (r.headers.get("webhook-id"), json.loads(r.body)["status"], r.received_monotonic)
                for r in hook.requests()
            ]
        finally:
            assert stop_process(worker) == 0
