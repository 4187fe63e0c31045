"""A real HTTP server on loopback for tests: records every request, answers as told.

Behaviours (switchable at any time, from any thread):

* ``respond(status, body=..., headers=...)``: answer every request with that status
  (200 by default), for example ``respond(429, headers={"Retry-After": "2"})``;
* ``slow(delay_s)``: wait ``delay_s`` before answering (``slow(0)`` to stop);
* ``down()``: close the listening socket and every open connection, so connections are
  refused; ``up()`` binds the SAME port again.

It speaks HTTP/1.1 with keep-alive, as real endpoints do, so clients' pooled connections
meet a restart the way they would in production.

>>> import urllib.request
>>> with WebhookServer() as server:
...     answer = urllib.request.urlopen(urllib.request.Request(server.url, data=b"{}"))
...     (answer.status, [r.body for r in server.wait_for(1)])
(200, [b'{}'])
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = ["Received", "WebhookServer"]


@dataclass(frozen=True)
class Received:
    """One request as it arrived; ``headers`` names are lower case; ``status`` is the answer
    the server was set to give when it arrived."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    received_monotonic: float
    status: int


@dataclass(frozen=True)
class _Behaviour:
    status: int = 200
    body: bytes = b"ok"
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, port: int, owner: WebhookServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", port), _Handler)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.owner._opened(self.connection)

    def finish(self) -> None:
        with contextlib.suppress(OSError):
            super().finish()
        self.server.owner._closed(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        owner = self.server.owner
        behaviour = owner._record(self.command, self.path, dict(self.headers.items()), body)
        if behaviour.delay_s > 0 and owner._aborted.wait(behaviour.delay_s):
            self.close_connection = True
            return
        try:
            self.send_response(behaviour.status)
            for name, value in behaviour.headers:
                self.send_header(name, value)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(behaviour.body)))
            self.end_headers()
            self.wfile.write(behaviour.body)
        except OSError:  # the client gave up (timeout) or the server went down
            self.close_connection = True

    do_POST = _handle
    do_GET = _handle
    do_PUT = _handle


class WebhookServer:
    """See the module docstring. ``port=0`` picks a free port, kept across ``down``/``up``."""

    def __init__(self, port: int = 0, path: str = "/hook") -> None:
        self.port = port
        self.path = path
        self._lock = threading.Condition()
        self._received: list[Received] = []
        self._behaviour = _Behaviour()
        self._connections: set[socket.socket] = set()
        self._aborted = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # lifecycle
    def __enter__(self) -> WebhookServer:
        self.up()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.down()

    @property
    def url(self) -> str:
        return self.url_for(self.path)

    def url_for(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    @property
    def is_up(self) -> bool:
        return self._server is not None

    def up(self) -> None:
        """Listen (again) on ``self.port``; retries briefly if the port is still held."""
        if self._server is not None:
            return
        self._aborted.clear()
        deadline = time.monotonic() + 5.0
        while True:
            try:
                server = _Server(self.port, self)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def down(self) -> None:
        """Stop listening and drop every open connection: new connections are refused."""
        server, self._server = self._server, None
        if server is None:
            return
        self._aborted.set()
        server.shutdown()
        server.server_close()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)

    # behaviour
    def respond(
        self, status: int = 200, *, body: bytes = b"ok", headers: dict[str, str] | None = None
    ) -> None:
        with self._lock:
            self._behaviour = _Behaviour(
                status, body, tuple((headers or {}).items()), self._behaviour.delay_s
            )

    def slow(self, delay_s: float) -> None:
        with self._lock:
            b = self._behaviour
            self._behaviour = _Behaviour(b.status, b.body, b.headers, delay_s)

    # what arrived
    def requests(self) -> list[Received]:
        with self._lock:
            return list(self._received)

    def clear(self) -> None:
        with self._lock:
            self._received.clear()

    def wait_for(self, n: int, timeout_s: float = 10.0) -> list[Received]:
        """Wait until at least ``n`` requests arrived; all of them, or AssertionError."""
        with self._lock:
            if not self._lock.wait_for(lambda: len(self._received) >= n, timeout=timeout_s):
                got = len(self._received)
                raise AssertionError(f"{got} of {n} requests arrived within {timeout_s} s")
            return list(self._received)

    # called by the handler threads
    def _record(self, method: str, path: str, headers: dict[str, str], body: bytes) -> _Behaviour:
        with self._lock:
            behaviour = self._behaviour
            lowered = {k.lower(): v for k, v in headers.items()}
            received = Received(method, path, lowered, body, time.monotonic(), behaviour.status)
            self._received.append(received)
            self._lock.notify_all()
            return behaviour

    def _opened(self, conn: socket.socket) -> None:
        with self._lock:
            self._connections.add(conn)

    def _closed(self, conn: socket.socket) -> None:
        with self._lock:
            self._connections.discard(conn)
