"""One delivery attempt against a real HTTP server on loopback."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from email.utils import formatdate
from typing import Any

import httpx
import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError
from test_payloads import make_alert
from webhook_server import WebhookServer

from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.payloads import generic_payload
from monitor.alerts.sender import AlertSender, SendResult
from monitor.alerts.signing import message_id, new_secret
from monitor.stream.broker import free_port

SECRET = new_secret()


@pytest.fixture
def server() -> Iterator[WebhookServer]:
    with WebhookServer() as running:
        yield running


def send(
    url: str,
    *,
    kind: Any = "generic",
    timeout_s: float = 2.0,
    secret: Any = SECRET,
) -> SendResult:
    endpoint = AlertEndpoint(name="test", kind=kind, url=url, timeout_s=timeout_s)

    async def once() -> SendResult:
        async with httpx.AsyncClient() as client:
            return await AlertSender(client, secret).send(endpoint, make_alert())

    return asyncio.run(once())


def test_200_is_delivered_and_signed(server: WebhookServer) -> None:
    result = send(server.url)
    assert (result.outcome, result.reason, result.status) == ("delivered", "ok", 200)
    [request] = server.wait_for(1)
    assert request.method == "POST" and request.path == "/hook"
    assert request.body == generic_payload(make_alert())
    assert request.headers["content-type"] == "application/json"
    assert request.headers["user-agent"] == "ragmon"
    # verified by the receivers' own library (Standard Webhooks), as a receiver would
    assert Webhook(SECRET).verify(request.body, request.headers) == json.loads(request.body)
    assert request.headers["webhook-id"] == message_id(make_alert())
    assert abs(int(request.headers["webhook-timestamp"]) - time.time()) < 60
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(request.body, request.headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(SECRET).verify(request.body + b" ", request.headers)
    assert "x-monitor-signature" not in request.headers  # the pre-issue-16 header is gone


def test_every_retry_of_one_notification_keeps_its_webhook_id(server: WebhookServer) -> None:
    """The receiver deduplicates on webhook-id: a retry (or a redelivery after a crash)
    has the same id, signed again with its own timestamp; another notification has
    another id."""
    server.respond(503)
    assert send(server.url).outcome == "retry"
    server.respond(200)
    assert send(server.url).outcome == "delivered"
    resolved = make_alert(status="resolved", ends_at_ms=120_000)
    endpoint = AlertEndpoint(name="test", kind="generic", url=server.url)

    async def once() -> SendResult:
        async with httpx.AsyncClient() as client:
            return await AlertSender(client, SECRET).send(endpoint, resolved)

    assert asyncio.run(once()).outcome == "delivered"
    first, second, third = server.wait_for(3)
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert third.headers["webhook-id"] != first.headers["webhook-id"]
    for request in (first, second, third):
        Webhook(SECRET).verify(request.body, request.headers)


def test_a_secret_that_is_not_a_standard_webhooks_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="not base64"):
        AlertSender(httpx.AsyncClient(), "test-secret")
    with pytest.raises(ValueError, match="decodes to 3 bytes"):
        AlertSender(httpx.AsyncClient(), "whsec_YWJj")


def test_no_secret_no_signature(server: WebhookServer) -> None:
    assert send(server.url, secret=None).outcome == "delivered"
    headers = server.wait_for(1)[0].headers
    assert not {"webhook-id", "webhook-signature", "webhook-timestamp"} & set(headers)


@pytest.mark.parametrize("kind", ["alertmanager", "slack"])
def test_other_kinds_post_their_format_unsigned(server: WebhookServer, kind: str) -> None:
    assert send(server.url, kind=kind).outcome == "delivered"
    [request] = server.wait_for(1)
    body = json.loads(request.body)
    assert isinstance(body, list) if kind == "alertmanager" else "text" in body
    assert "webhook-signature" not in request.headers


@pytest.mark.parametrize("status", [201, 202, 204])
def test_any_2xx_is_delivered(server: WebhookServer, status: int) -> None:
    server.respond(status, body=b"")
    assert send(server.url).outcome == "delivered"


@pytest.mark.parametrize(
    "status, reason", [(500, "http_5xx"), (502, "http_5xx"), (503, "http_5xx"), (408, "http_408")]
)
def test_server_errors_and_408_are_retried(server: WebhookServer, status: int, reason: str) -> None:
    server.respond(status, body=b"busy")
    result = send(server.url)
    assert (result.outcome, result.reason, result.status) == ("retry", reason, status)
    assert result.answer == "busy"


def test_429_retry_after_seconds(server: WebhookServer) -> None:
    server.respond(429, headers={"Retry-After": "7"})
    result = send(server.url)
    assert (result.outcome, result.reason, result.retry_after_s) == ("retry", "http_429", 7.0)


def test_503_retry_after_http_date(server: WebhookServer) -> None:
    server.respond(503, headers={"Retry-After": formatdate(time.time() + 30, usegmt=True)})
    result = send(server.url)
    assert result.outcome == "retry"
    assert result.retry_after_s is not None and 25 <= result.retry_after_s <= 31


def test_429_without_or_with_bad_retry_after(server: WebhookServer) -> None:
    assert send(server.url).retry_after_s is None  # 200: never set
    server.respond(429, headers={"Retry-After": "soon"})
    assert send(server.url).retry_after_s is None


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410, 413, 422])
def test_other_4xx_are_rejected_with_an_excerpt(server: WebhookServer, status: int) -> None:
    server.respond(status, body=b"invalid_payload: " + b"x" * 500 + b"\n\x1b[31m")
    result = send(server.url)
    assert (result.outcome, result.reason, result.status) == ("rejected", "http_4xx", status)
    assert result.answer.startswith("invalid_payload: xxx")
    assert len(result.answer) == 200
    assert result.retry_after_s is None


def test_3xx_is_rejected_not_followed(server: WebhookServer) -> None:
    server.respond(302, headers={"Location": "http://127.0.0.1:1/elsewhere"})
    result = send(server.url)
    assert (result.outcome, result.reason, result.status) == ("rejected", "http_3xx", 302)
    assert len(server.requests()) == 1


def test_connection_refused_is_retried() -> None:
    result = send(f"http://127.0.0.1:{free_port()}/hook")
    assert (result.outcome, result.reason, result.status) == ("retry", "connect", None)


def test_down_then_up_on_the_same_port(server: WebhookServer) -> None:
    assert send(server.url).outcome == "delivered"
    server.down()
    assert send(server.url).reason == "connect"
    server.up()
    assert send(server.url).outcome == "delivered"


def test_slow_answer_times_out_and_is_retried(server: WebhookServer) -> None:
    server.slow(3.0)
    started = time.monotonic()
    result = send(server.url, timeout_s=0.3)
    assert (result.outcome, result.reason) == ("retry", "timeout")
    assert time.monotonic() - started < 2.0
    assert 0.25 <= result.elapsed_s < 1.5


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/x", "not a url", "http://"])
def test_unusable_url_is_retried_as_bad_url(url: str) -> None:
    assert send(url).reason == "bad_url"


def test_one_client_keeps_working_across_a_restart(server: WebhookServer) -> None:
    """A pooled keep-alive connection to a server that restarted is not an error to keep."""
    endpoint = AlertEndpoint(name="test", kind="generic", url=server.url, timeout_s=2.0)

    async def scenario() -> list[str]:
        async with httpx.AsyncClient() as client:
            sender = AlertSender(client, SECRET)
            outcomes: list[str] = [(await sender.send(endpoint, make_alert())).outcome]
            server.down()
            outcomes.append((await sender.send(endpoint, make_alert())).reason)
            server.up()
            outcomes.append((await sender.send(endpoint, make_alert())).outcome)
            return outcomes

    assert asyncio.run(scenario()) == ["delivered", "connect", "delivered"]


@pytest.mark.parametrize(
    "path, expected", [("", "/api/v2/alerts"), ("/", "/api/v2/alerts"), ("/am/x", "/am/x")]
)
def test_alertmanager_base_url_gets_the_api_path(
    server: WebhookServer, path: str, expected: str
) -> None:
    assert send(server.url_for(path), kind="alertmanager").outcome == "delivered"
    assert server.wait_for(1)[0].path == expected


def test_the_url_never_reaches_the_logs(
    server: WebhookServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    url = server.url_for("/services/T000/B000/XXXXtokenXXXX")
    assert send(url, kind="slack").outcome == "delivered"
    server.respond(500)
    assert send(url, kind="slack").outcome == "retry"
    assert caplog.records, "the test must see what is logged"
    assert not [r for r in caplog.records if "tokenXXXX" in r.getMessage()]
