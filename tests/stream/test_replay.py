"""``ragmon replay FILE`` produces every line to the events topic, keyed by event_id."""

from __future__ import annotations

import asyncio
from pathlib import Path

import orjson
import pytest
from kafka_io import read_until

from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.stream.replay import produce_lines

pytestmark = [pytest.mark.broker, pytest.mark.timeout(60)]


def test_replay_produces_every_line_keyed_by_event_id(
    stream_settings: Settings, tmp_path: Path
) -> None:
    gen = TrafficGenerator(seed=2)
    events = [gen.event() for _ in range(200)]
    lines = [orjson.dumps(e) for e in events] + [b"not json at all"]
    path = tmp_path / "events.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n\n")  # a trailing blank line is skipped

    with path.open("rb") as f:
        sent = asyncio.run(produce_lines(stream_settings, f, rate=2000))
    assert sent == 201

    s = stream_settings
    got = asyncio.run(read_until(s, [s.events_topic], lambda g: len(g[s.events_topic]) >= 201))
    records = got[s.events_topic]
    assert sorted(r.value for r in records) == sorted(lines)
    keys = {r.value: r.key for r in records}
    for event, line in zip(events, lines, strict=False):
        assert keys[line] == event["event_id"].encode()
    assert keys[b"not json at all"] is None
