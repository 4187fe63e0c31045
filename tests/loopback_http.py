"""``LoopbackHttpService``: the lifecycle shared by the test HTTP servers (the chat
server, the RAG stub): a ``ThreadingHTTPServer`` on 127.0.0.1 (a free port unless one is
given) served by a daemon thread for the duration of a ``with`` block.

A subclass sets ``handler_class``; its handler reaches the service as
``self.server.owner``. ``_stopping`` is set when the block ends, so a handler that waits
(a slow or held answer) can give up; ``_before_stop`` is the subclass's hook to release
anything else it holds.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, ClassVar, Self

__all__ = ["LoopbackHttpService", "OwnedServer"]


class OwnedServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, port: int, handler: type[BaseHTTPRequestHandler], owner: Any) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", port), handler)


class LoopbackHttpService:
    handler_class: ClassVar[type[BaseHTTPRequestHandler]]

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._stopping = threading.Event()
        self._server: OwnedServer | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Self:
        server = OwnedServer(self.port, self.handler_class, self)
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
