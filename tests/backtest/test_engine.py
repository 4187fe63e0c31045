"""The backtest engine: event-time order, batching and the end of the input do not change
what the worker's path decides."""

from __future__ import annotations

import random

import orjson
import pytest

from monitor.backtest.engine import Backtest
from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator

WINDOW_MS = 10_000


def settings(**overrides: object) -> Settings:
    base: dict[str, object] = {
        "tumbling_window_ms": WINDOW_MS,
        "hopping_window_ms": 3 * WINDOW_MS,
        "hopping_step_ms": WINDOW_MS,
        "allowed_lateness_ms": 2_000,
        "baselines": {"quality.overall": 0.6},
    }
    return Settings(**{**base, **overrides})


def traffic(n: int = 3_000, degrade_after: int = 1_500, malformed: float = 0.01) -> list[bytes]:
    """``n`` events at 50/s (60 s), the treatment arm degraded half way, 1 % malformed."""
    gen = TrafficGenerator(
        seed=11, events_per_s=50.0, degrade_after=degrade_after, malformed_rate=malformed
    )
    return [value for _, value in gen.messages(n)]


def key(alerts: list) -> list[tuple[str, str, int]]:  # type: ignore[type-arg]
    return [(a.fingerprint, a.status, a.window.start_ms) for a in alerts]


def test_input_order_does_not_matter() -> None:
    # (a dead letter has no event time of its own: it takes its neighbour's in the input)
    lines = traffic(malformed=0.0)
    shuffled = lines[:]
    random.Random(3).shuffle(shuffled)
    first = list(Backtest(settings()).alerts(lines))
    second = list(Backtest(settings()).alerts(shuffled))
    assert first, "the degraded arm pages"
    assert [a.model_dump() for a in first] == [a.model_dump() for a in second]


@pytest.mark.parametrize("batch", [1, 37, 5_000])
def test_batch_size_does_not_change_the_notifications(batch: int) -> None:
    lines = traffic(1_500, 700)
    expected = key(list(Backtest(settings()).alerts(lines)))
    assert key(list(Backtest(settings(), batch_events=batch).alerts(lines))) == expected


def test_every_window_closes_at_the_end_and_the_summary_counts() -> None:
    lines = traffic()
    bt = Backtest(settings())
    alerts = list(bt.alerts([*lines, b"", b"   "]))  # blank lines are not records
    s = bt.summary
    times = []
    for line in lines:
        try:
            times.append(orjson.loads(line)["timestamp_ms"])
        except (orjson.JSONDecodeError, KeyError, TypeError):
            continue
    windows = {t // WINDOW_MS for t in times if isinstance(t, int)}
    assert s.windows_closed["tumbling"] == len(windows)
    assert s.events == len(lines)
    assert s.scored + sum(s.dead_letters.values()) == s.events
    assert sum(s.dead_letters.values()) > 0
    assert sum(s.notifications.values()) == len(alerts)
    assert any(status == "firing" for _, _, status in s.notifications)
    # every notification names a window of the input, in order of window end
    ends = [a.window.end_ms for a in alerts]
    assert ends == sorted(ends)


def test_a_condition_that_clears_resolves() -> None:
    bad = TrafficGenerator(seed=5, events_per_s=50.0, degrade_after=0, malformed_rate=0.0)
    good = TrafficGenerator(seed=6, events_per_s=50.0, malformed_rate=0.0)
    events = []
    for i in range(4_000):  # 80 s: degraded from 20 s to 40 s
        e = (bad if 1_000 <= i < 2_000 else good).event()
        e["timestamp_ms"] = 1_795_353_600_000 + i * 20
        events.append(orjson.dumps(e))
    alerts = [a for a in Backtest(settings()).alerts(events) if a.metric.startswith("quality.")]
    firing = {a.fingerprint for a in alerts if a.status == "firing"}
    resolved = {a.fingerprint for a in alerts if a.status == "resolved"}
    assert firing and firing == resolved  # the quality incident of the degraded period
    first = min(a.window.start_ms for a in alerts)
    assert first >= 1_795_353_600_000 + 20_000


def test_no_events_no_notifications() -> None:
    bt = Backtest(settings())
    assert list(bt.alerts([])) == []
    assert bt.summary.events == 0 and not bt.summary.windows_closed
