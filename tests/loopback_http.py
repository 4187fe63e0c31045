"""``LoopbackHttpService``: what the JSON-over-HTTP test servers share (the chat server,
the RAG stub): a ``ThreadingHTTPServer`` on 127.0.0.1 (a free port unless one is given),
served by a daemon thread for the duration of a ``with`` block, that answers ``POST`` on
its ``routes`` and records every request.

A subclass sets ``routes`` and ``request_class`` (a :class:`RecordedRequest` with its own
properties) and implements ``_answer(path, headers, body) -> Answer`` (called with the
parsed JSON object; the subclass records the request itself, under ``_lock``, with
:meth:`_recorded`). A body that is not a JSON object gets 400 and an unknown route 404,
both recorded. An ``Answer`` with ``delay_s`` waits before it is sent, unless the block
ends first (``_stopping``); ``_before_stop`` is the hook to release anything else a
handler waits on. ``max_concurrent`` is the most requests seen in flight at once.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, ClassVar, Self

__all__ = ["Answer", "LoopbackHttpService", "RecordedRequest", "json_error"]


@dataclass(frozen=True)
class RecordedRequest:
    """One request as it arrived (``path`` without the query string, ``headers`` names
    lower case) and the status it got."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    status: int
    received_monotonic: float


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def json_error(status: int, message: str, headers: dict[str, str] | None = None) -> Answer:
    """An OpenAI-style JSON error answer."""
    body = json.dumps({"error": {"message": message}}).encode()
    return Answer(status, body, headers=headers or {})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, port: int, owner: LoopbackHttpService) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", port), _Handler)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, answer: Answer) -> None:
        try:
            self.send_response(answer.status)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Type", answer.content_type)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)
        except OSError:  # the client went away (timeout, killed)
            self.close_connection = True

    def do_POST(self) -> None:
        owner = self.server.owner
        owner._enter()
        try:
            self._post(owner)
        finally:
            owner._leave()

    def _post(self, owner: LoopbackHttpService) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        path = self.path.partition("?")[0]
        try:
            body = json.loads(raw)
            if not isinstance(body, dict):
                raise ValueError("not an object")
        except ValueError:
            owner._record(path, headers, {}, 400)
            self._send(json_error(400, "the body is not a JSON object"))
            return
        if path not in owner.routes:
            owner._record(path, headers, body, 404)
            self._send(json_error(404, f"no route {path}"))
            return
        answer = owner._answer(path, headers, body)
        if answer.delay_s > 0 and owner._stopping.wait(answer.delay_s):
            self.close_connection = True
            return
        self._send(answer)


class LoopbackHttpService:
    routes: ClassVar[frozenset[str]]
    request_class: ClassVar[type[RecordedRequest]] = RecordedRequest

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._lock = threading.Lock()
        self._requests: list[Any] = []
        self._in_flight = 0
        self._max_concurrent = 0
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Self:
        server = _Server(self.port, self)
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stopping.set()
        self._before_stop()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _before_stop(self) -> None:
        """Release what a waiting handler holds (the base has nothing)."""

    def _answer(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Answer:
        raise NotImplementedError

    @property
    def max_concurrent(self) -> int:
        with self._lock:
            return self._max_concurrent

    # called by the handler threads
    def _enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self._max_concurrent = max(self._max_concurrent, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _recorded(
        self, path: str, headers: dict[str, str], body: dict[str, Any], status: int
    ) -> None:
        """Record a request; the caller holds ``_lock``."""
        self._requests.append(self.request_class(path, headers, body, status, time.monotonic()))

    def _record(
        self, path: str, headers: dict[str, str], body: dict[str, Any], status: int
    ) -> None:
        with self._lock:
            self._recorded(path, headers, body, status)
