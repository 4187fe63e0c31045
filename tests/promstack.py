"""Real Prometheus and Alertmanager servers for tests, on free loopback ports.

Each context manager starts the binary (Debian packages ``prometheus`` and
``prometheus-alertmanager``; ``make test`` installs them) in its own process group with its
own temporary data directory under ``tmp_dir``, waits for ``/-/ready``, and kills the group
on exit, also when the test fails. The directory (configuration, data, ``*.log``) is kept
for debugging; ``handle.log_tail()`` shows the end of the log.

    with alertmanager_server(tmp_path) as am, prometheus_server(
        tmp_path, ["127.0.0.1:6066"], rule_files=[rules], alertmanager_url=am.url
    ) as prom:
        prom.wait_for_target_up()
        prom.query('rag_monitor_window_mean{metric="quality.overall"}')

``require_tools`` skips a test when a binary is missing, and fails it on CI (``CI`` set).
``exposition_server`` serves a fixed Prometheus text exposition to scrape;
``webhook_sink`` records what Alertmanager (or anything else) POSTs to it.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from monitor.stream.broker import die_with_parent, free_port

__all__ = [
    "AlertmanagerHandle",
    "PrometheusHandle",
    "StackError",
    "WebhookSink",
    "alertmanager_server",
    "exposition_server",
    "find_tool",
    "prometheus_server",
    "require_tools",
    "webhook_sink",
]

# Binary names, in order of preference (Debian renames alertmanager).
_TOOLS: dict[str, tuple[str, ...]] = {
    "prometheus": ("prometheus",),
    "promtool": ("promtool",),
    "alertmanager": ("prometheus-alertmanager", "alertmanager"),
    "amtool": ("amtool",),
}
START_TIMEOUT_S = 30.0


class StackError(RuntimeError):
    """A server did not start, or answered an API call with an error."""


def find_tool(name: str) -> str | None:
    """The path of ``name`` (prometheus, promtool, alertmanager, amtool), or None."""
    for candidate in _TOOLS.get(name, (name,)):
        path = shutil.which(candidate)
        if path:
            return path
    return None


def require_tools(*names: str) -> dict[str, str]:
    """The paths of the named tools; skip the calling test if one is missing, or fail it on
    CI (``CI`` set), where ``make test`` must have installed them."""
    found = {name: find_tool(name) for name in names}
    missing = sorted(name for name, path in found.items() if path is None)
    if missing:
        reason = (
            f"{', '.join(missing)} not installed (apt-get install prometheus "
            "prometheus-alertmanager; `make test` does it)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"on CI: {reason}", pytrace=False)
        pytest.skip(reason)
    return {name: path for name, path in found.items() if path is not None}


def _duration(seconds: float) -> str:
    """A Prometheus duration string: ``1.5`` -> ``1500ms``."""
    return f"{max(1, round(seconds * 1000))}ms"


def _http() -> httpx.Client:
    # trust_env=False: a proxy from the environment must never see loopback test traffic.
    return httpx.Client(trust_env=False, timeout=10.0)


@dataclass
class _Server:
    """One child process in its own process group, with its log file."""

    name: str
    url: str
    workdir: Path
    log_path: Path
    proc: subprocess.Popen[bytes]

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        with _http() as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise StackError(
                        f"{self.name} exited with code {self.proc.returncode}:\n{self.log_tail()}"
                    )
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(f"{self.url}/-/ready", timeout=1.0).status_code == 200:
                        return
                time.sleep(0.05)
        raise StackError(f"{self.name} not ready at {self.url} in {timeout_s}s:\n{self.log_tail()}")

    def stop(self) -> None:
        """SIGTERM to the process group, SIGKILL after 10 s."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        else:
            # The leader is gone; make sure nothing it started survives.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)


@contextmanager
def _run(
    name: str, argv: list[str], url: str, workdir: Path, timeout_s: float
) -> Iterator[_Server]:
    log_path = workdir / f"{name}.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            argv,
            cwd=workdir,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, killed as a whole
            preexec_fn=die_with_parent,
        )
    server = _Server(name=name, url=url, workdir=workdir, log_path=log_path, proc=proc)
    try:
        server.wait_ready(timeout_s)
        yield server
    finally:
        server.stop()


@dataclass
class PrometheusHandle:
    """A running Prometheus: ``url``, the HTTP API, its files."""

    url: str
    workdir: Path
    config_path: Path
    log_path: Path
    pid: int
    _server: _Server = field(repr=False)

    def log_tail(self, lines: int = 40) -> str:
        return self._server.log_tail(lines)

    def api(self, path: str, params: dict[str, str] | None = None) -> Any:
        """GET ``/api/v1/<path>`` and return its ``data``; raise ``StackError`` on an error."""
        with _http() as client:
            response = client.get(f"{self.url}/api/v1/{path}", params=params)
        try:
            body = response.json()
        except ValueError:
            raise StackError(f"{path}: HTTP {response.status_code}: {response.text}") from None
        if body.get("status") != "success":
            raise StackError(f"{path}: {body.get('errorType')}: {body.get('error')}")
        return body["data"]

    def query(self, promql: str) -> list[dict[str, Any]]:
        """An instant query: the ``result`` list of ``/api/v1/query``, each
        ``{"metric": {labels}, "value": [ts, "text"]}`` for a vector."""
        data = self.api("query", {"query": promql})
        result = data["result"]
        if data["resultType"] in ("scalar", "string"):
            return [{"metric": {}, "value": result}]
        return list(result)

    def query_until(
        self,
        promql: str,
        predicate: Callable[[list[dict[str, Any]]], bool] = bool,
        timeout_s: float = 20.0,
    ) -> list[dict[str, Any]]:
        """Repeat ``query`` until ``predicate(result)`` (default: not empty); return it."""
        deadline = time.monotonic() + timeout_s
        while True:
            result = self.query(promql)
            if predicate(result):
                return result
            if time.monotonic() > deadline:
                raise StackError(f"{promql!r} still {result!r} after {timeout_s}s")
            time.sleep(0.2)

    def targets(self) -> list[dict[str, Any]]:
        """The active scrape targets of ``/api/v1/targets``."""
        return list(self.api("targets", {"state": "active"})["activeTargets"])

    def wait_for_target_up(self, timeout_s: float = 20.0) -> list[dict[str, Any]]:
        """Wait until every active target has been scraped successfully; return them."""
        deadline = time.monotonic() + timeout_s
        while True:
            targets = self.targets()
            if targets and all(t["health"] == "up" for t in targets):
                return targets
            if time.monotonic() > deadline:
                states = [(t["scrapeUrl"], t["health"], t.get("lastError")) for t in targets]
                raise StackError(f"targets not up after {timeout_s}s: {states}")
            time.sleep(0.2)

    def rules(self) -> list[dict[str, Any]]:
        """The rule groups of ``/api/v1/rules``."""
        return list(self.api("rules")["groups"])

    def alerts(self) -> list[dict[str, Any]]:
        """Pending and firing alerts of ``/api/v1/alerts``."""
        return list(self.api("alerts")["alerts"])


@contextmanager
def prometheus_server(
    tmp_dir: Path,
    scrape_targets: Sequence[str],
    scrape_interval_s: float = 1.0,
    rule_files: Sequence[Path] = (),
    alertmanager_url: str | None = None,
    *,
    timeout_s: float = START_TIMEOUT_S,
) -> Iterator[PrometheusHandle]:
    """A Prometheus on ``127.0.0.1:<free port>`` scraping ``scrape_targets`` (``host:port``,
    job ``ragmon``), evaluating ``rule_files`` every ``scrape_interval_s`` and sending alerts
    to ``alertmanager_url`` if given."""
    binary = find_tool("prometheus")
    if binary is None:
        raise StackError("prometheus is not installed")
    tmp_dir.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="prometheus-", dir=tmp_dir))
    interval = _duration(scrape_interval_s)
    config: dict[str, Any] = {
        "global": {
            "scrape_interval": interval,
            "scrape_timeout": interval,
            "evaluation_interval": interval,
        },
        "rule_files": [str(Path(p).resolve()) for p in rule_files],
        "scrape_configs": [
            {"job_name": "ragmon", "static_configs": [{"targets": list(scrape_targets)}]}
        ],
    }
    if alertmanager_url:
        parts = urlsplit(alertmanager_url)
        config["alerting"] = {
            "alertmanagers": [
                {
                    "api_version": "v2",
                    "scheme": parts.scheme or "http",
                    "path_prefix": parts.path or "/",
                    "static_configs": [{"targets": [parts.netloc]}],
                }
            ]
        }
    config_path = workdir / "prometheus.yml"
    # JSON is YAML: no YAML library needed.
    config_path.write_text(json.dumps(config, indent=2))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    argv = [
        binary,
        f"--config.file={config_path}",
        f"--storage.tsdb.path={workdir / 'data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        f"--web.external-url={url}",
        "--storage.tsdb.retention.time=1h",
        "--log.level=info",
    ]
    with _run("prometheus", argv, url, workdir, timeout_s) as server:
        yield PrometheusHandle(
            url=url,
            workdir=workdir,
            config_path=config_path,
            log_path=server.log_path,
            pid=server.proc.pid,
            _server=server,
        )


# A configuration that accepts alerts and sends them nowhere.
_NULL_ALERTMANAGER_CONFIG = """\
route:
  receiver: "null"
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: "null"
"""


@dataclass
class AlertmanagerHandle:
    """A running Alertmanager: ``url``, the v2 API and amtool, its files."""

    url: str
    workdir: Path
    config_path: Path
    log_path: Path
    pid: int
    amtool: str | None
    _server: _Server = field(repr=False)

    def log_tail(self, lines: int = 40) -> str:
        return self._server.log_tail(lines)

    def alerts(self) -> list[dict[str, Any]]:
        """``GET /api/v2/alerts``: the alerts it holds (labels, annotations, status...)."""
        with _http() as client:
            response = client.get(f"{self.url}/api/v2/alerts")
        if response.status_code != 200:
            raise StackError(f"GET /api/v2/alerts: HTTP {response.status_code}: {response.text}")
        return list(response.json())

    def post_alerts(self, alerts: Sequence[dict[str, Any]]) -> None:
        """``POST /api/v2/alerts`` (each ``{"labels": {...}, "annotations": {...}, ...}``)."""
        with _http() as client:
            response = client.post(f"{self.url}/api/v2/alerts", json=list(alerts))
        if response.status_code != 200:
            raise StackError(f"POST /api/v2/alerts: HTTP {response.status_code}: {response.text}")

    def wait_for_alerts(
        self,
        predicate: Callable[[list[dict[str, Any]]], bool] = bool,
        timeout_s: float = 20.0,
    ) -> list[dict[str, Any]]:
        """Repeat ``alerts()`` until ``predicate(alerts)`` (default: not empty)."""
        deadline = time.monotonic() + timeout_s
        while True:
            alerts = self.alerts()
            if predicate(alerts):
                return alerts
            if time.monotonic() > deadline:
                raise StackError(f"alerts still {alerts!r} after {timeout_s}s")
            time.sleep(0.2)

    def amtool_query(self, *matchers: str) -> str:
        """``amtool --alertmanager.url=<url> alert query -o json [matchers]``: its stdout."""
        if self.amtool is None:
            raise StackError("amtool is not installed")
        done = subprocess.run(
            [
                self.amtool,
                f"--alertmanager.url={self.url}",
                "alert",
                "query",
                "-o",
                "json",
                *matchers,
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            env={**os.environ, "HOME": str(self.workdir)},  # no ~/.config/amtool/config.yml
        )
        if done.returncode != 0:
            raise StackError(f"amtool exited with {done.returncode}: {done.stderr.strip()}")
        return done.stdout


@contextmanager
def alertmanager_server(
    tmp_dir: Path,
    *,
    config_file: Path | None = None,
    timeout_s: float = START_TIMEOUT_S,
) -> Iterator[AlertmanagerHandle]:
    """An Alertmanager on ``127.0.0.1:<free port>``, clustering off. By default it routes
    every alert to a receiver that sends nothing; ``config_file`` replaces that."""
    binary = find_tool("alertmanager")
    if binary is None:
        raise StackError("alertmanager (prometheus-alertmanager) is not installed")
    tmp_dir.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="alertmanager-", dir=tmp_dir))
    config_path = workdir / "alertmanager.yml"
    if config_file is None:
        config_path.write_text(_NULL_ALERTMANAGER_CONFIG)
    else:
        shutil.copyfile(config_file, config_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    argv = [
        binary,
        f"--config.file={config_path}",
        f"--storage.path={workdir / 'data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        f"--web.external-url={url}",
        "--cluster.listen-address=",
        "--log.level=info",
    ]
    with _run("alertmanager", argv, url, workdir, timeout_s) as server:
        yield AlertmanagerHandle(
            url=url,
            workdir=workdir,
            config_path=config_path,
            log_path=server.log_path,
            pid=server.proc.pid,
            amtool=find_tool("amtool"),
            _server=server,
        )


@contextmanager
def exposition_server(body: str | Callable[[], str]) -> Iterator[str]:
    """A loopback HTTP server answering every GET with ``body`` (or ``body()``) as Prometheus
    text exposition; yields its ``host:port``."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            payload = (body() if callable(body) else body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="exposition", daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class WebhookSink:
    """A loopback HTTP server that records every POST: ``(path, parsed JSON body)``."""

    url: str
    requests: list[tuple[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def received(self) -> list[tuple[str, Any]]:
        with self._lock:
            return list(self.requests)

    def wait_for(
        self,
        predicate: Callable[[list[tuple[str, Any]]], bool] = bool,
        timeout_s: float = 30.0,
    ) -> list[tuple[str, Any]]:
        """Wait until ``predicate(received())`` (default: anything arrived)."""
        deadline = time.monotonic() + timeout_s
        while True:
            received = self.received()
            if predicate(received):
                return received
            if time.monotonic() > deadline:
                raise StackError(f"webhook sink still has {received!r} after {timeout_s}s")
            time.sleep(0.1)


@contextmanager
def webhook_sink() -> Iterator[WebhookSink]:
    """A ``WebhookSink`` on ``127.0.0.1:<free port>``, answering 200 to every POST."""
    sink: WebhookSink | None = None

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(size)
            try:
                body: Any = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            assert sink is not None
            with sink._lock:
                sink.requests.append((self.path, body))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    sink = WebhookSink(url=f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, name="webhook-sink", daemon=True)
    thread.start()
    try:
        yield sink
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
