"""One HTTP delivery attempt of an alert, classified for the retry policy.

:meth:`AlertSender.send` POSTs the endpoint's format (:mod:`monitor.alerts.payloads`) once,
with ``Content-Type: application/json``, ``User-Agent: ragmon`` and, for ``generic``
endpoints when a secret is configured, the Standard Webhooks headers ``webhook-id`` (one id
per alert notification, the same on every retry and redelivery), ``webhook-timestamp`` and
``webhook-signature`` (:mod:`monitor.alerts.signing`); an ``alertmanager`` URL without a path gets
``/api/v2/alerts`` (:func:`target_url`). It never raises for a network or HTTP problem; the
:class:`SendResult` says what to do next:

* ``delivered`` (reason ``ok``): a 2xx answer.
* ``retry``: ``connect`` (refused, DNS failure), ``timeout`` (no status line within
  ``endpoint.timeout_s``), ``network`` (connection dropped, broken answer), ``http_5xx``,
  ``http_429`` and ``http_408`` (``Retry-After`` seconds or HTTP date, or
  ``retry-after-ms``, kept in ``retry_after_s``), ``bad_url`` (the URL cannot be used:
  fix the configuration; the alerts wait in the topic meanwhile).
* ``rejected`` (``http_4xx``, ``http_3xx``): any other status; retrying would not help.

A rejection keeps the status and the first 200 characters of the endpoint's answer for the
log. Neither the URL (a Slack URL holds a token) nor the secret is ever part of a result.

What to wait before the next attempt is the retry policy's (:mod:`monitor.retry`, shared
with the live-target client and the judge); this module reads the answer's
``Retry-After`` / ``retry-after-ms`` with its :func:`~monitor.retry.retry_after_s`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import SecretStr

from monitor.alerts.alert import Alert
from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.payloads import DEFAULT_FIRING_TTL_MS, AlertLinks, payload_for
from monitor.alerts.signing import check_secret, message_id, signed_headers
from monitor.retry import retry_after_s

__all__ = [
    "ALERTMANAGER_PATH",
    "ANSWER_EXCERPT_CHARS",
    "AlertSender",
    "Outcome",
    "SendResult",
    "quiet_httpx_logs",
    "target_url",
]

ALERTMANAGER_PATH = "/api/v2/alerts"
ANSWER_EXCERPT_CHARS = 200
_ANSWER_READ_BYTES = 4096  # never read a large error page into memory

Outcome = Literal["delivered", "retry", "rejected"]


@dataclass(frozen=True)
class SendResult:
    """What one attempt did. ``retry_after_s`` is the endpoint's ``Retry-After``, if any."""

    outcome: Outcome
    reason: str
    status: int | None = None
    retry_after_s: float | None = None
    answer: str = ""
    elapsed_s: float = 0.0


def _excerpt(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")[:ANSWER_EXCERPT_CHARS]
    return "".join(c if c.isprintable() else " " for c in text)


def _classify(status: int) -> tuple[Outcome, str]:
    if 200 <= status < 300:
        return "delivered", "ok"
    if status >= 500:
        return "retry", "http_5xx"
    if status == 429:
        return "retry", "http_429"
    if status == 408:
        return "retry", "http_408"
    if status >= 400:
        return "rejected", "http_4xx"
    return "rejected", f"http_{status // 100}xx"


def target_url(endpoint: AlertEndpoint) -> str:
    """Where to POST: the URL as configured, except that an Alertmanager URL without a path
    gets Alertmanager's ``/api/v2/alerts``.

    >>> target_url(AlertEndpoint(name="am", kind="alertmanager", url="http://am:9093/"))
    'http://am:9093/api/v2/alerts'
    >>> target_url(AlertEndpoint(name="am", kind="alertmanager", url="http://am/x/api/v2/alerts"))
    'http://am/x/api/v2/alerts'
    """
    url = endpoint.url
    if endpoint.kind == "alertmanager":
        parts = urlsplit(url)
        if parts.path in ("", "/") and not parts.query:
            return urlunsplit(parts._replace(path=ALERTMANAGER_PATH))
    return url


def quiet_httpx_logs() -> None:
    """Keep httpx's own INFO line (``HTTP Request: POST <full URL> ...``) out of the logs:
    a Slack webhook URL holds a token."""
    logger = logging.getLogger("httpx")
    if logger.level < logging.WARNING:  # NOTSET (0) inherits the root level
        logger.setLevel(logging.WARNING)


class AlertSender:
    """Sends alerts over the caller's ``httpx.AsyncClient`` (one client for all endpoints).

    A firing alert sent to Alertmanager ends ``alertmanager_firing_ttl_s`` after the send
    (``clock_s``), unless re-sent (:mod:`monitor.alerts.payloads`).

    Creating one raises the ``httpx`` logger to WARNING (:func:`quiet_httpx_logs`).
    """

    def __init__(
        self,
        client: httpx.AsyncClient,
        secret: SecretStr | str | None = None,
        *,
        clock_s: Callable[[], float] = time.time,
        alertmanager_firing_ttl_s: float = DEFAULT_FIRING_TTL_MS / 1000,
        links: AlertLinks | None = None,
    ) -> None:
        self._client = client
        raw = secret.get_secret_value() if isinstance(secret, SecretStr) else secret
        self._secret = check_secret(raw) if raw else None
        self._clock_s = clock_s
        self._firing_ttl_ms = int(alertmanager_firing_ttl_s * 1000)
        self._links = links or AlertLinks()
        quiet_httpx_logs()

    def request_for(self, endpoint: AlertEndpoint, alert: Alert) -> tuple[bytes, dict[str, str]]:
        """The body and headers :meth:`send` would POST to ``endpoint``."""
        now_ms = int(self._clock_s() * 1000)
        body = payload_for(
            endpoint.kind,
            alert,
            now_ms=now_ms,
            firing_ttl_ms=self._firing_ttl_ms,
            links=self._links,
        )
        headers = {"Content-Type": "application/json", "User-Agent": "ragmon"}
        if endpoint.kind == "generic" and self._secret:
            at_s = int(self._clock_s())
            headers |= signed_headers(body, self._secret, message_id(alert), at_s)
        return body, headers

    async def send(self, endpoint: AlertEndpoint, alert: Alert) -> SendResult:
        """One attempt; never raises for network or HTTP trouble (see the module table).

        ``endpoint.timeout_s`` bounds the whole attempt up to the status line; once a
        status has arrived it is the answer, even if reading the body then fails.
        """
        body, headers = self.request_for(endpoint, alert)
        started = time.monotonic()
        deadline = asyncio.get_running_loop().time() + endpoint.timeout_s
        reason = ""
        try:
            async with asyncio.timeout_at(deadline):
                request = self._client.build_request(
                    "POST",
                    target_url(endpoint),
                    content=body,
                    headers=headers,
                    timeout=httpx.Timeout(endpoint.timeout_s),
                )
                response = await self._client.send(request, stream=True)
        except (TimeoutError, httpx.TimeoutException):
            reason = "timeout"
        except httpx.ConnectError:
            reason = "connect"
        except (httpx.UnsupportedProtocol, httpx.InvalidURL):
            reason = "bad_url"
        except httpx.HTTPError:
            reason = "network"
        if reason:
            return SendResult("retry", reason, elapsed_s=time.monotonic() - started)
        raw = await _read_some(response, deadline)
        outcome, reason = _classify(response.status_code)
        retry_after = None
        if outcome == "retry":
            retry_after = retry_after_s(response.headers, self._clock_s())
        return SendResult(
            outcome,
            reason,
            status=response.status_code,
            retry_after_s=retry_after,
            answer="" if outcome == "delivered" else _excerpt(raw),
            elapsed_s=time.monotonic() - started,
        )


async def _read_some(response: httpx.Response, deadline: float) -> bytes:
    """Up to a few KiB of the answer, within the deadline; whatever arrived if it fails."""
    raw = b""
    try:
        async with asyncio.timeout_at(deadline):
            async for chunk in response.aiter_bytes():
                raw += chunk
                if len(raw) >= _ANSWER_READ_BYTES:
                    break
    except (TimeoutError, httpx.HTTPError):
        pass
    finally:
        await response.aclose()
    return raw
