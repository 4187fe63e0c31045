"""The faust app of ``ragmon worker``: lifecycle, signals, the liveness endpoint, and the
scoring loop as an app task.

faust gives the worker its service tree (start, graceful stop on SIGINT/SIGTERM, crash
logging) and its web server, bound to ``web_host`` (loopback by default, never 0.0.0.0
unless configured). The hot path is :class:`~monitor.stream.scoring_loop.ScoringLoop`.
``GET /healthz`` answers 200 with the loop's counters while the loop runs, 503 otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import faust

from monitor.config import Settings
from monitor.stream.kafka import ensure_topics
from monitor.stream.scoring_loop import LoopStats, ScoringLoop

__all__ = ["create_app", "run_worker"]

log = logging.getLogger(__name__)


def create_app(settings: Settings) -> tuple[faust.App, LoopStats]:
    """A configured faust app whose task runs the scoring loop; nothing starts yet."""
    app = faust.App(
        f"{settings.consumer_group}-worker",
        broker=f"kafka://{settings.bootstrap_servers}",
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
    state: dict[str, Any] = {"running": False}

    @app.task  # type: ignore[untyped-decorator]
    async def score_events() -> None:
        await ensure_topics(settings)
        loop = ScoringLoop(settings, stats)
        await loop.start()
        state["running"] = True
        log.info("scoring %s -> %s", settings.events_topic, settings.scores_topic)
        try:
            await loop.run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the scoring loop stopped")
            raise
        finally:
            state["running"] = False
            await loop.stop()

    @app.page("/healthz")
    async def healthz(web: Any, request: Any) -> Any:
        body = {"status": "ok" if state["running"] else "starting_or_failed", **stats.as_dict()}
        return web.json(body, status=200 if state["running"] else 503)

    return app, stats


def run_worker(settings: Settings) -> None:
    """Run the worker in the foreground until SIGINT/SIGTERM."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    app, _ = create_app(settings)
    worker = faust.Worker(app, loglevel=settings.log_level, quiet=True)
    worker.execute_from_commandline()
