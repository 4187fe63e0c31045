"""A change of leader on the real broker: the new leader publishes every closed window the
previous one did not (and the rest of a window it left half written), none twice; the
group's progress is read from the broker, so an outage is not idle traffic."""

from __future__ import annotations

import asyncio
import os
import signal
from collections import Counter

import orjson
import pytest
from kafka_io import produce, read_until

from monitor.config import Settings
from monitor.decider import Decider
from monitor.stream.aggregation import AggregationStage
from monitor.stream.broker import EmbeddedBroker
from monitor.stream.group_progress import GroupProgress
from monitor.stream.kafka import new_producer
from monitor.windows.dedupe import SeenEvents
from monitor.windows.labels import LabelCap
from monitor.windows.partial import PartialBuilder, SourceRange

pytestmark = [pytest.mark.broker, pytest.mark.timeout(180)]

WINDOW_MS = 10_000
WINDOWS = 8


def windowed(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "tumbling_window_ms": WINDOW_MS,
            "hopping_window_ms": 3 * WINDOW_MS,
            "hopping_step_ms": WINDOW_MS,
            "allowed_lateness_ms": 0,
            "changepoint_metrics": [],
        }
    )


def partials(settings: Settings) -> list[tuple[bytes | None, bytes]]:
    """Windows of 40 events each; quality falls to 0.2 from window 4 on (critical alerts)."""
    out: list[tuple[bytes | None, bytes]] = []
    for index in range(WINDOWS):
        b = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
        quality = 0.8 if index < 4 else 0.2
        for i in range(40):
            values = {"quality.overall": quality, "pipeline.dead_letter": 0.0}
            series = ("control", "acme", "bot", "none")
            b.add_event(f"{index}-{i}", index * WINDOW_MS + i * 100, series, values)
        sources = [SourceRange(settings.events_topic, 0, index * 40, index * 40 + 39)]
        out.append((None, b.build(sources).to_json()))
    watermark = {"kind": "watermark", "watermark_ms": (WINDOWS + 5) * WINDOW_MS}
    out.append((None, orjson.dumps(watermark)))
    return out


async def until(condition: object, timeout_s: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def follow(settings: Settings, then_lead: bool) -> AggregationStage:
    """A worker's stage closes every window as a follower; with ``then_lead`` it then
    becomes leader and publishes what is pending."""
    producer = new_producer(settings)
    await producer.start()
    stage = AggregationStage(settings, Decider(settings), producer)
    await stage.start()
    task = asyncio.create_task(stage.run())
    try:
        await until(lambda: stage.windows_closed >= 2 * WINDOWS - 2)
        assert stage.windows_published == 0
        if then_lead:
            await stage.set_leader(True)
            await until(lambda: stage.leader and not stage.pending)
        return stage
    finally:
        task.cancel()
        await stage.stop()
        await producer.stop()


def test_a_new_leader_publishes_every_window_the_old_one_did_not_and_none_twice(
    stream_settings: Settings,
) -> None:
    s = windowed(stream_settings)
    asyncio.run(produce(s, partials(s), topic=s.partials_topic))
    rendered = asyncio.run(follow(s, then_lead=False)).pending.take()
    with_alerts = [i for i, p in enumerate(rendered) if p.results]
    assert with_alerts, "the degraded windows raise alerts"
    # the old leader published the windows before the first with alerts, then was killed
    # after writing that window's alerts but before its summary
    cut = with_alerts[0]
    written = [r for p in rendered[:cut] for r in p.records] + rendered[cut].results
    for topic in (s.alerts_topic, s.windows_topic, s.ab_results_topic):
        mine = [(r.key, r.value) for r in written if r.topic == topic]
        if mine:
            asyncio.run(produce(s, mine, topic=topic))

    stage = asyncio.run(follow(s, then_lead=True))
    assert stage.windows_published == len(rendered) - cut

    every = {r.ident for p in rendered for r in p.records}
    got = asyncio.run(
        read_until(
            s,
            [s.windows_topic, s.alerts_topic],
            lambda g: sum(map(len, g.values())) >= len([i for i in every if "ab:" not in i]),
            timeout_s=30,
        )
    )
    windows = Counter(
        (w["kind"], w["start_ms"]) for w in (orjson.loads(r.value) for r in got[s.windows_topic])
    )
    expected = {(p.kind, p.start_ms) for p in rendered}
    assert set(windows) == expected
    assert max(windows.values()) == 1, f"published twice: {windows}"
    alerts = Counter(
        (a["fingerprint"], a["status"], a["window"]["start_ms"])
        for a in (orjson.loads(r.value) for r in got[s.alerts_topic])
    )
    assert sum(len([r for r in p.results if r.counts]) for p in rendered) == sum(alerts.values())
    assert max(alerts.values()) == 1, f"alerts published twice: {alerts}"


def test_group_progress_reads_the_broker_not_the_quiet(
    stream_settings: Settings, broker: EmbeddedBroker
) -> None:
    s = stream_settings
    messages = [(f"k{i}".encode(), b"{}") for i in range(40)]

    async def scenario() -> None:
        await produce(s, messages)
        progress = GroupProgress(s)
        await progress.start(range(s.topic_partitions))
        try:
            assert not await progress.caught_up({})
            got = await read_until(s, [s.events_topic], lambda g: len(g[s.events_topic]) >= 40)
            last: dict[tuple[str, int], int] = {}
            for r in got[s.events_topic]:
                last[(r.topic, r.partition)] = max(r.offset, last.get((r.topic, r.partition), -1))
            assert await progress.caught_up(last)
            behind = dict(last)
            behind[next(iter(last))] -= 1
            assert not await progress.caught_up(behind)
            pid = broker._proc.pid  # type: ignore[union-attr]
            os.kill(pid, signal.SIGSTOP)
            try:
                assert not await progress.caught_up(last), "a frozen broker is not idle"
            finally:
                os.kill(pid, signal.SIGCONT)
            await until(lambda: True)
            assert await progress.caught_up(last, timeout_ms=5_000)
        finally:
            await progress.stop()

    asyncio.run(scenario())
