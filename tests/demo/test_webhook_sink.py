"""The demo's webhook receiver, over real HTTP (and through the real sender)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis
from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.sender import AlertSender, SendResult
from monitor.alerts.signing import new_secret, signed_headers
from monitor.demo.webhook_sink import WebhookSink, sink_line

SECRET = new_secret()
OTHER_SECRET = new_secret()


def make_alert(**changes: Any) -> Alert:
    fields: dict[str, Any] = {
        "fingerprint": "f1",
        "status": "firing",
        "type": "degradation",
        "severity": "warning",
        "rule": "degradation",
        "message": "Quality degraded 20% from baseline",
        "metric": "quality.overall",
        "current_value": 0.56,
        "threshold": 0.6,
        "labels": AlertLabels(variant="treatment", tenant="acme"),
        "window": AlertWindow(start_ms=0, end_ms=60_000),
        "starts_at_ms": 60_000,
        "diagnosis": Diagnosis(
            perspective="groundedness", failing=["groundedness"], advice="check the prompt"
        ),
    }
    return Alert(**(fields | changes))


class Collector:
    def __init__(self) -> None:
        self.alerts: list[Alert] = []
        self.threads: set[str] = set()

    def __call__(self, alert: Alert) -> None:
        self.alerts.append(alert)
        self.threads.add(threading.current_thread().name)


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.post(url, content=body, headers=headers or {}, timeout=5)


def signed(body: bytes, secret: str = SECRET, at_s: float | None = None) -> dict[str, str]:
    return signed_headers(body, secret, "msg_test", int(at_s or time.time()))


def test_signed_alert_reaches_the_callback() -> None:
    seen = Collector()
    alert = make_alert()
    body = alert.model_dump_json().encode()
    with WebhookSink(secret=SECRET, on_alert=seen) as sink:
        answer = post(sink.url, body, signed(body))
    assert answer.status_code == 200
    assert seen.alerts == [alert]
    assert seen.threads and threading.main_thread().name not in seen.threads
    assert sink.received == 1 and sink.refused == 0


def test_through_the_real_sender() -> None:
    seen = Collector()
    alerts = [make_alert(), make_alert(status="resolved", ends_at_ms=120_000)]

    async def deliver(url: str) -> list[SendResult]:
        endpoint = AlertEndpoint(name="demo", kind="generic", url=url)
        async with httpx.AsyncClient() as client:
            sender = AlertSender(client, SECRET)
            return [await sender.send(endpoint, a) for a in alerts]

    with WebhookSink(secret=SECRET, on_alert=seen) as sink:
        results = asyncio.run(deliver(sink.url))
    assert [r.outcome for r in results] == ["delivered", "delivered"]
    assert seen.alerts == alerts


BAD_SIGNATURES: dict[str, Callable[[bytes], dict[str, str]]] = {
    "missing": lambda body: {},
    "garbage": lambda body: signed(body) | {"webhook-signature": "garbage"},
    "no-id": lambda body: {k: v for k, v in signed(body).items() if k != "webhook-id"},
    "other-id": lambda body: signed(body) | {"webhook-id": "msg_other"},
    "other-body": lambda body: signed(body + b" "),
    "wrong-secret": lambda body: signed(body, secret=OTHER_SECRET),
    "stale": lambda body: signed(body, at_s=time.time() - 3600),
    "future": lambda body: signed(body, at_s=time.time() + 3600),
}


@pytest.mark.parametrize("case", list(BAD_SIGNATURES))
def test_bad_signature_is_401(case: str) -> None:
    seen = Collector()
    body = make_alert().model_dump_json().encode()
    with WebhookSink(secret=SECRET, on_alert=seen) as sink:
        answer = post(sink.url, body, BAD_SIGNATURES[case](body))
    assert answer.status_code == 401
    assert seen.alerts == []
    assert sink.refused == 1 and sink.received == 0


def test_without_a_secret_unsigned_alerts_are_taken() -> None:
    seen = Collector()
    body = make_alert().model_dump_json().encode()
    with WebhookSink(on_alert=seen) as sink:
        assert post(sink.url, body).status_code == 200
    assert len(seen.alerts) == 1


@pytest.mark.parametrize("body", [b"not json", b"[]", b'{"status": "firing"}', b""])
def test_not_an_alert_is_400(body: bytes) -> None:
    seen = Collector()
    with WebhookSink(secret=SECRET, on_alert=seen) as sink:
        answer = post(sink.url, body, signed(body))
    assert answer.status_code == 400
    assert seen.alerts == []


def test_too_large_and_wrong_method() -> None:
    with WebhookSink(on_alert=Collector(), max_body_bytes=100) as sink:
        assert post(sink.url, b"x" * 101).status_code == 413
        assert httpx.get(sink.url).status_code == 405


def test_a_failing_callback_is_500_so_the_sender_retries() -> None:
    def broken(alert: Alert) -> None:
        raise RuntimeError("boom")

    body = make_alert().model_dump_json().encode()
    with WebhookSink(on_alert=broken) as sink:
        assert post(sink.url, body).status_code == 500


def test_default_prints_one_line_never_the_body(capsys: pytest.CaptureFixture[str]) -> None:
    alert = make_alert(message="SECRET-LOOKING MESSAGE TEXT")
    body = alert.model_dump_json().encode()
    with WebhookSink(secret=SECRET) as sink:
        assert post(sink.url, body, signed(body)).status_code == 200
    out = capsys.readouterr().out
    assert out == sink_line(alert) + "\n"
    assert out == (
        "[FIRING] warning degradation quality.overall: current 0.56 < threshold 0.60 "
        "(variant=treatment, tenant=acme) perspective=groundedness\n"
    )
    assert "SECRET-LOOKING" not in out and "{" not in out


def test_stops_cleanly_and_frees_the_port() -> None:
    sink = WebhookSink(on_alert=Collector()).start()
    url, port = sink.url, sink.port
    sink.stop()
    sink.stop()  # idempotent
    with pytest.raises(httpx.ConnectError):
        httpx.post(url, content=b"{}")
    with WebhookSink(port=port, on_alert=Collector()) as again:
        assert again.port == port
