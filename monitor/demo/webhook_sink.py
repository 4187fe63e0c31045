"""A tiny webhook receiver for ``ragmon demo``: shows the alerts the worker delivers.

It listens on loopback (a free port by default), accepts ``POST``s of the generic format
(the ``Alert`` JSON), checks the Standard Webhooks signature (``webhook-id``,
``webhook-timestamp``, ``webhook-signature``) when it knows the secret, and hands
each alert to a callback, by default one printed line:
``[FIRING] critical threshold quality.overall: current 0.31 < threshold 0.40
(variant=treatment) perspective=retrieval``. It never prints a raw body.

Answers: 200 taken; 401 signature missing, wrong or older than 5 minutes; 400 not an
``Alert``; 413 larger than ``max_body_bytes``; 405 not a ``POST``; 500 the callback failed
(so the sender retries). The callback runs on a server thread, one alert at a time.

>>> import httpx, time
>>> from monitor.alerts.signing import new_secret, signed_headers
>>> from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis
>>> alert = Alert(fingerprint="f1", status="firing", type="threshold", severity="critical",
...     rule="critical_quality", message="low", metric="quality.overall",
...     current_value=0.31, threshold=0.4, labels=AlertLabels(variant="treatment"),
...     window=AlertWindow(start_ms=0, end_ms=60_000), starts_at_ms=60_000,
...     diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"], advice="x"))
>>> body = alert.model_dump_json().encode()
>>> secret = new_secret()
>>> headers = signed_headers(body, secret, "msg_1", int(time.time()))
>>> with WebhookSink(secret=secret) as sink:
...     ok = httpx.post(sink.url, content=body, headers=headers)
...     forged = httpx.post(sink.url, content=body,
...                         headers=headers | {"webhook-signature": "v1,AAAA"})
[FIRING] critical threshold quality.overall: current 0.31 < threshold 0.40 \
(variant=treatment) perspective=retrieval
>>> ok.status_code, forged.status_code
(200, 401)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

from pydantic import SecretStr, ValidationError

from monitor.alerts.alert import Alert
from monitor.alerts.payloads import alert_line
from monitor.alerts.signing import check_secret, verify

__all__ = ["WebhookSink", "sink_line"]

log = logging.getLogger(__name__)

AlertCallback = Callable[[Alert], None]


def sink_line(alert: Alert) -> str:
    """The line the sink prints: status, severity, type, metric, values, labels, perspective."""
    return f"{alert_line(alert)} perspective={alert.diagnosis.perspective}"


def _print_line(alert: Alert) -> None:
    print(sink_line(alert), flush=True)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, host: str, port: int, sink: WebhookSink) -> None:
        self.sink = sink
        super().__init__((host, port), _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "ragmon-webhook-sink"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("webhook sink: " + format, *args)

    def _answer(self, status: int, text: str) -> None:
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        sink = self.server.sink
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if length < 0:
            self._answer(400, "bad Content-Length")
            return
        if length > sink.max_body_bytes:
            self.close_connection = True
            self._answer(413, "too large")
            return
        body = self.rfile.read(length)
        status, text = sink._take(body, dict(self.headers.items()))
        self._answer(status, text)

    def _not_allowed(self) -> None:
        self._answer(405, "POST alerts here")

    do_GET = _not_allowed
    do_PUT = _not_allowed
    do_DELETE = _not_allowed


class WebhookSink:
    """A context manager: a receiver listening on ``host``:``port`` (0 = a free port)."""

    def __init__(
        self,
        port: int = 0,
        *,
        secret: SecretStr | str | None = None,
        on_alert: AlertCallback | None = None,
        host: str = "127.0.0.1",
        max_body_bytes: int = 1_048_576,
    ) -> None:
        self.host = host
        self.port = port
        raw = secret.get_secret_value() if isinstance(secret, SecretStr) else secret
        self._secret = check_secret(raw) if raw else None
        self.on_alert = on_alert or _print_line
        self.max_body_bytes = max_body_bytes
        self.received = 0
        self.refused = 0
        self._callback_lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/alerts"

    def start(self) -> WebhookSink:
        self._server = _Server(self.host, self.port, self)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.1},
            name="ragmon-webhook-sink",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> WebhookSink:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _take(self, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        """Check and hand over one delivery; the status and text to answer with."""
        if self._secret is not None and not verify(body, headers, self._secret):
            with self._callback_lock:
                self.refused += 1
            log.warning("webhook sink: refused a delivery with a missing or bad signature")
            return 401, "bad signature"
        try:
            alert = Alert.model_validate_json(body)
        except ValidationError as exc:
            return 400, f"not an Alert ({exc.error_count()} errors)"
        with self._callback_lock:
            self.received += 1
            try:
                self.on_alert(alert)
            except Exception:
                log.exception("webhook sink: the alert callback failed")
                return 500, "callback failed"
        return 200, "ok"
