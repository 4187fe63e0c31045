"""``ragmon demo``: embedded broker, a worker process, seeded traffic, a local webhook sink
and a live table of scores, closed windows and the alerts the sink receives.

The demo uses short windows (10 s by default) and learns its baselines after three of
them; halfway through (or after ``--degrade-after``) the generator degrades the treatment
variant's retrieval, and the worker's degradation, critical and change-point alerts
arrive at the sink, signed, with their diagnosis; they resolve if traffic recovers.

Everything it starts it stops: the worker and the broker run in their own sessions (so a
terminal's Ctrl-C reaches only the demo, which then stops them in order) and are told by
the kernel to exit if the demo itself dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson
from aiokafka import AIOKafkaConsumer, TopicPartition
from pydantic import SecretStr

from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.signing import new_secret
from monitor.config import Settings
from monitor.demo.dashboard import Dashboard
from monitor.demo.traffic import TrafficGenerator
from monitor.demo.webhook_sink import WebhookSink
from monitor.stream.broker import EmbeddedBroker, free_port
from monitor.stream.kafka import client_options, ensure_topics, new_producer
from monitor.stream.worker_process import start_worker, stop_process

__all__ = ["CLIENT_STOP_S", "WORKER_STOP_S", "run_demo"]

WORKER_STOP_S = 3.0
"""How long the worker may take to stop gracefully (it is told at once, while the demo's
own clients close) before it is killed: Ctrl-C stops the whole demo within 5 s."""

CLIENT_STOP_S = 2.0
"""How long the demo's own producer and consumer may take to close."""


async def _generate(
    settings: Settings, gen: TrafficGenerator, rate: float, sent: list[int]
) -> None:
    producer = new_producer(settings, linger_ms=10)
    await producer.start()
    started = time.monotonic()
    try:
        while True:
            due = int((time.monotonic() - started) * rate) - sent[0]
            for key, value in gen.messages(max(due, 0)):
                await producer.send(settings.events_topic, value, key=key)
                sent[0] += 1
            await asyncio.sleep(0.05)
    finally:
        await producer.stop()


async def _watch(settings: Settings, board: Dashboard) -> None:
    consumer = AIOKafkaConsumer(
        **client_options(settings),
        group_id=None,
        enable_auto_commit=False,
        max_partition_fetch_bytes=settings.max_message_bytes,
    )
    await consumer.start()
    try:
        partitions = [
            TopicPartition(topic, p)
            for topic in (
                settings.scores_topic,
                settings.dlq_topic,
                settings.windows_topic,
                settings.ab_results_topic,
            )
            for p in sorted(consumer.partitions_for_topic(topic) or ())
        ]
        consumer.assign(partitions)
        await consumer.seek_to_beginning(*partitions)
        while True:
            batch = await consumer.getmany(timeout_ms=500, max_records=5000)
            for tp, records in batch.items():
                for record in records:
                    value = orjson.loads(record.value or b"{}")
                    if tp.topic == settings.scores_topic:
                        board.add_scored(value)
                    elif tp.topic == settings.windows_topic:
                        board.add_window(value)
                    elif tp.topic == settings.ab_results_topic:
                        board.add_ab_result(value)
                    else:
                        board.add_dead_letter(value)
    finally:
        await consumer.stop()


async def _live(
    settings: Settings,
    worker: subprocess.Popen[bytes],
    *,
    duration_s: float | None,
    rate: float,
    seed: int,
    refresh_s: float,
    header: str,
    board: Dashboard,
    degrade_after: int,
) -> int:
    gen = TrafficGenerator(
        seed, start_ms=int(time.time() * 1000), events_per_s=rate, degrade_after=degrade_after
    )
    sent = [0]
    tasks = [
        asyncio.create_task(_generate(settings, gen, rate, sent)),
        asyncio.create_task(_watch(settings, board)),
    ]
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    started = time.monotonic()
    last_scored, last_t = 0, started
    clear = "\x1b[2J\x1b[H" if sys.stdout.isatty() else ""
    code = 0
    try:
        while duration_s is None or time.monotonic() - started < duration_s:
            remaining_s = (duration_s or float("inf")) - (time.monotonic() - started)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=max(0.1, min(refresh_s, remaining_s)))
            if stop.is_set():
                print("\nstopping ...", flush=True)
                break
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            now = time.monotonic()
            rate_now = (board.scored - last_scored) / max(now - last_t, 1e-9)
            last_scored, last_t = board.scored, now
            status = "running" if worker.poll() is None else f"EXITED ({worker.returncode})"
            if gen.degraded:
                status += "   treatment DEGRADED"
            table = board.render(elapsed_s=now - started, produced=sent[0], events_per_s=rate_now)
            print(f"{clear}{header}   worker {status}\n\n{table}", flush=True)
            if worker.poll() is not None:
                code = 1
                break
            if not clear:
                print()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        # the worker shuts down (leaves its group, flushes) while our clients close
        if worker.poll() is None:
            worker.terminate()
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=CLIENT_STOP_S)
        for task in tasks:
            if task.done() and not task.cancelled():
                task.exception()  # retrieved: never "exception was never retrieved"
    return code


def run_demo(
    settings: Settings,
    *,
    duration_s: float | None = None,
    rate: float = 300.0,
    seed: int = 7,
    refresh_s: float = 3.0,
    window_s: float = 10.0,
    degrade_after_s: float | None = None,
) -> int:
    # A demo started in the background of a script inherits SIGINT as ignored: restore it,
    # and let SIGTERM stop the demo as Ctrl-C does.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    workdir = Path(tempfile.mkdtemp(prefix="ragmon-demo-"))
    print(f"starting the embedded broker and a worker (logs in {workdir}) ...", flush=True)
    board = Dashboard()
    secret = new_secret()
    sink = WebhookSink(secret=secret, on_alert=board.add_alert)
    sink.start()
    broker = EmbeddedBroker(log_path=workdir / "broker.log").start()
    window_ms = int(window_s * 1000)
    demo = settings.model_copy(
        update={
            "tumbling_window_ms": window_ms,
            "hopping_window_ms": 3 * window_ms,
            "hopping_step_ms": window_ms,
            "allowed_lateness_ms": min(2_000, window_ms // 2),
            "window_idle_close_s": max(2.0, window_s / 2),
            "baseline_min_windows": 3,
            "baseline_min_events": 100,
            "page_hinkley_min_instances": 100,
            "alert_cooldown_ms": 6 * window_ms,
            # the generator sends about 2 % malformed messages and 6 % injections on
            # purpose: alert on clearly more than that, so the story is the degradation
            "rate_thresholds": {
                **settings.rate_thresholds,
                "pipeline.dead_letter": 0.05,
                "safety.injection.blocked": 0.15,
            },
            "alert_endpoints": [AlertEndpoint(name="demo-sink", kind="generic", url=sink.url)],
            "webhook_secret": SecretStr(secret),
            "delivery_max_backoff_s": 2.0,
            "bootstrap_servers": broker.bootstrap_servers,
            # the demo's own embedded broker: plaintext on loopback, whatever MONITOR_KAFKA_*
            # says about a production cluster
            "kafka_security_protocol": "PLAINTEXT",
            "kafka_ssl_cafile": None,
            "kafka_ssl_certfile": None,
            "kafka_ssl_keyfile": None,
            "kafka_ssl_key_password": None,
            "web_host": "127.0.0.1",
            "web_port": free_port(),
            "data_dir": workdir / "worker",
            "consumer_group": "ragmon-demo",
            "session_timeout_s": 6.0,
            "heartbeat_interval_s": 1.0,
        }
    )
    worker: subprocess.Popen[bytes] | None = None
    code = 0
    try:
        asyncio.run(ensure_topics(demo))
        worker = start_worker(demo, workdir / "worker.log")
        web = f"http://127.0.0.1:{demo.web_port}"
        header = (
            f"ragmon demo   broker {broker.bootstrap_servers}   {web}/healthz   {web}/metrics\n"
            f"webhook sink {sink.url}   windows {window_s:g} s   Ctrl-C stops"
        )
        if degrade_after_s is None:
            degrade_after_s = duration_s / 2 if duration_s is not None else 60.0
        code = asyncio.run(
            _live(
                demo,
                worker,
                duration_s=duration_s,
                rate=rate,
                seed=seed,
                refresh_s=refresh_s,
                header=header,
                board=board,
                degrade_after=int(degrade_after_s * rate),
            )
        )
    except KeyboardInterrupt:
        print("\nstopping ...", flush=True)
    finally:
        # in order: the worker (a client of the broker), then the broker, which runs in a
        # session of its own so that a terminal's Ctrl-C never stops it first
        if worker is not None:
            stop_process(worker, timeout_s=WORKER_STOP_S)
        broker.stop(timeout_s=1.0)
        sink.stop()
    if code:
        print(f"the worker stopped unexpectedly; see {workdir / 'worker.log'}", file=sys.stderr)
    else:
        print(f"demo finished; logs in {workdir}")
    return code
