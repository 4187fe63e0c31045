"""The faust app of ``ragmon worker``: lifecycle, signals, the HTTP endpoints, and the
scoring loop, the aggregating stage and the alert deliveries as app tasks.

faust gives the worker its service tree (start, graceful stop on SIGINT/SIGTERM, crash
logging) and its web server, bound to ``web_host`` (loopback by default, never 0.0.0.0
unless configured). The hot path is :class:`~monitor.stream.scoring_loop.ScoringLoop`;
windows and alerts are decided by :class:`~monitor.stream.aggregation.AggregationStage`;
:func:`~monitor.stream.alert_delivery.run_deliveries` sends alerts to the configured
endpoints, each at its own pace, so a slow endpoint never stalls scoring.

- ``GET /healthz`` answers 200 with the loop's counters while the loop runs and is ready,
  503 otherwise, with a ``reason`` (see :class:`~monitor.stream.health.Readiness`);
- ``GET /metrics`` is the Prometheus exposition of this worker's registry.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import faust
from prometheus_client import CollectorRegistry, generate_latest

from monitor.alerts.delivery_stats import DeliveryStats
from monitor.config import Settings
from monitor.decider import Decider
from monitor.metrics.monitor_metrics import MonitorMetrics
from monitor.stream.aggregation import AggregationStage
from monitor.stream.alert_delivery import run_deliveries
from monitor.stream.health import Readiness
from monitor.stream.kafka import ensure_topics, new_producer
from monitor.stream.kafka_check import check_connection
from monitor.stream.kafka_security import faust_credentials
from monitor.stream.otlp_bridge import OtlpBridge, OtlpStats
from monitor.stream.scoring_loop import LoopStats, ScoringLoop
from monitor.stream.window_feed import WindowFeed
from monitor.windows.labels import LabelPolicy

__all__ = ["create_app", "run_worker"]

log = logging.getLogger(__name__)

EXPOSITION_TYPE = "text/plain; version=0.0.4"


def create_app(settings: Settings) -> tuple[faust.App, LoopStats]:
    """A configured faust app whose tasks score, aggregate and deliver; nothing starts yet."""
    app = faust.App(
        f"{settings.consumer_group}-worker",
        broker=[f"kafka://{h.strip()}" for h in settings.bootstrap_servers.split(",")],
        **faust_credentials(settings),
        datadir=str(settings.data_dir),
        web_enabled=True,
        web_bind=settings.web_host,
        web_host=settings.web_host,
        web_port=settings.web_port,
        topic_partitions=settings.topic_partitions,
        broker_session_timeout=settings.session_timeout_s,
        broker_heartbeat_interval=settings.heartbeat_interval_s,
        producer_acks=-1,
    )
    stats = LoopStats()
    registry = CollectorRegistry()
    metrics = MonitorMetrics(
        registry, settings.max_label_values, LabelPolicy.from_settings(settings)
    )
    otlp_stats = OtlpStats()
    deliveries = DeliveryStats()
    metrics.deliveries.source = deliveries
    state: dict[str, Any] = {"running": False, "stage": None}

    closing: list[Callable[[], Awaitable[None]]] = []

    @app.task  # type: ignore[untyped-decorator]
    async def score_events() -> None:
        await ensure_topics(settings)
        producer = new_producer(settings)
        await producer.start()
        on = settings.windows_enabled
        stage = AggregationStage(settings, Decider(settings), producer, metrics) if on else None
        feed = WindowFeed(settings, metrics, stage.seen) if stage is not None else None
        loop = ScoringLoop(settings, stats, feed=feed, stage=stage, producer=producer)
        # OpenTelemetry traces in: a second source, mapped onto the events topic
        bridge = OtlpBridge(settings, producer, otlp_stats) if settings.otlp_enabled else None
        tasks: list[asyncio.Task[None]] = []
        closing_task: list[asyncio.Future[None]] = []

        async def shut_down() -> None:
            state["running"] = False
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            # offsets are committed per batch, so a client that does not close in time is
            # abandoned rather than holding up the shutdown
            if stage is not None:
                await _bounded(stage.release(), "aggregating stage")  # a waiting assignment
                # stop publishing, every record sent acknowledged, before leaving the group
                await _bounded(stage.set_leader(False), "aggregating stage")
            await _bounded(loop.stop(), "scoring consumer")
            if bridge is not None:
                await _bounded(bridge.stop(), "OTLP consumer")
            if stage is not None:
                await _bounded(stage.stop(), "aggregating stage")
            await _bounded(producer.stop(), "producer")

        async def close() -> None:
            """Stop the tasks, then the clients: the scoring consumer leaves the group at
            once (LeaveGroup), so another worker takes its partitions without waiting for
            the session timeout. Runs once (from faust's shutdown, or when a task fails),
            shielded: faust cancels whatever awaits it here."""
            if not closing_task:
                closing_task.append(asyncio.ensure_future(shut_down()))
            await asyncio.shield(closing_task[0])

        closing.append(close)
        try:
            if stage is not None:
                await stage.start()
                tasks.append(asyncio.create_task(stage.run(), name="aggregate"))
            if settings.alert_endpoints:
                tasks.append(asyncio.create_task(run_deliveries(settings, deliveries)))
            await loop.start()
            state["running"], state["stage"] = True, stage
            log.info("scoring %s -> %s", settings.events_topic, settings.scores_topic)
            tasks.append(asyncio.create_task(loop.run(), name="score"))
            if bridge is not None:
                await bridge.start()
                log.info("mapping OTLP traces %s -> %s", settings.otlp_topic, settings.events_topic)
                tasks.append(asyncio.create_task(bridge.run(), name="otlp"))
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # a task that ended raised: surface it
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the worker's loop stopped")
            raise
        finally:
            await close()

    @app.on_before_shutdown.connect  # type: ignore[arg-type]
    async def leave_group(sender: Any, *args: Any, signal: Any, **kwargs: Any) -> None:
        # faust cancels the app's tasks about a second after this, whatever they are doing;
        # closing here, inside faust's own shutdown, lets the consumer leave the group
        for close in closing:
            await close()

    readiness = Readiness(
        settings.health_max_failed_batches,
        settings.health_window_stall_s,
        settings.max_event_ahead_ms,
    )

    @app.page("/healthz")
    async def healthz(web: Any, request: Any) -> Any:
        body = {"status": "ok" if state["running"] else "starting_or_failed", **stats.as_dict()}
        if settings.otlp_enabled:
            body["otlp"] = otlp_stats.as_dict()
        stage = state["stage"]
        watermark_ms = None
        if stage is not None:
            watermark_ms = stage.decider.store.watermark_ms
            body["windows"] = {
                "leader": stage.leader,
                "closed": stage.windows_closed,
                "alerts": stage.alerts_sent,
                "watermark_ms": watermark_ms,
                "late_events": stage.decider.store.late_events,
                "duplicates": stage.decider.store.duplicates,
            }
        problem = readiness.check(
            failed_batches=stats.failed_batches,
            scored=stats.scored,
            watermark_ms=watermark_ms,
            now_s=time.monotonic(),
            now_ms=int(time.time() * 1000),
            windows=stage is not None,
        )
        ready = state["running"] and problem is None
        if state["running"] and problem is not None:
            body["status"] = "not_ready"
            body["reason"], body["detail"] = problem
        return web.json(body, status=200 if ready else 503)

    @app.page("/metrics")
    async def prometheus(web: Any, request: Any) -> Any:
        # aiohttp refuses a charset in content_type; the exposition format is UTF-8 anyway
        return web.bytes(generate_latest(registry), content_type=EXPOSITION_TYPE)

    return app, stats


async def _bounded(step: Awaitable[None], name: str, timeout_s: float = 5.0) -> None:
    try:
        await asyncio.wait_for(step, timeout_s)
    except TimeoutError:
        log.warning("%s did not close within %.0f s; abandoned", name, timeout_s)


class _Worker(faust.Worker):
    """faust's worker, minus the idle second it sleeps before closing its event loop
    (mode's ``_sentinel_task``), so a stopped worker (the demo's Ctrl-C) exits at once
    once its services have stopped."""

    async def _sentinel_task(self) -> None:
        await asyncio.sleep(0.05)


def run_worker(settings: Settings) -> None:
    """Run the worker in the foreground until SIGINT/SIGTERM."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    # wrong credentials or an untrusted certificate: one line and exit 2, before faust
    # starts (its clients would only log "Unable to bootstrap" and retry)
    asyncio.run(check_connection(settings))
    app, _ = create_app(settings)
    worker = _Worker(app, loglevel=settings.log_level, quiet=True)
    worker.execute_from_commandline()
