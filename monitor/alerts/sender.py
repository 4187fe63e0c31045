"""One HTTP delivery attempt of an alert, classified for the retry policy; and the backoff.

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
  ``http_429`` and ``http_408`` (``Retry-After`` seconds or HTTP date kept in
  ``retry_after_s``), ``bad_url`` (the URL cannot be used: fix the configuration; the
  alerts wait in the topic meanwhile).
* ``rejected`` (``http_4xx``, ``http_3xx``): any other status; retrying would not help.

A rejection keeps the status and the first 200 characters of the endpoint's answer for the
log. Neither the URL (a Slack URL holds a token) nor the secret is ever part of a result.

:func:`backoff_s` is "full jitter" exponential backoff: the ``attempt``-th retry waits a
uniformly random time in ``[0, min(max_s, base_s * 2 ** (attempt - 1))]``. The random
spread keeps many workers that failed together from retrying together.

>>> import random
>>> rng = random.Random(7)
>>> [round(backoff_s(n, base_s=1.0, max_s=8.0, rng=rng), 2) for n in (1, 2, 3, 4, 10)]
[0.32, 0.3, 2.6, 0.58, 4.29]
>>> all(backoff_s(n, 0.5, 3.0, rng) <= 3.0 for n in range(1, 1000))
True
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
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

__all__ = [
    "ALERTMANAGER_PATH",
    "ANSWER_EXCERPT_CHARS",
    "AlertSender",
    "Outcome",
    "SendResult",
    "backoff_s",
    "http_date_delay_s",
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


def backoff_s(attempt: int, base_s: float, max_s: float, rng: random.Random) -> float:
    """Full-jitter exponential backoff before retry number ``attempt`` (1 = first retry)."""
    exponent = min(max(attempt - 1, 0), 64)  # 2**64 * base is past any sane cap already
    return rng.uniform(0.0, min(max_s, base_s * 2.0**exponent))


def _retry_after_s(value: str | None, now_s: float) -> float | None:
    """``Retry-After`` as seconds from now: delta-seconds or an HTTP date; else ``None``."""
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    return http_date_delay_s(value, now_s)


def http_date_delay_s(value: str, now_s: float) -> float | None:
    """Seconds from ``now_s`` until an HTTP date (``Retry-After``'s other form), at least
    0; ``None`` when ``value`` is not a date with a time zone.

    >>> http_date_delay_s("Thu, 01 Jan 1970 00:00:30 GMT", now_s=10.0)
    20.0
    """
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now_s)


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
            retry_after = _retry_after_s(response.headers.get("Retry-After"), self._clock_s())
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
