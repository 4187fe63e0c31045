"""The aggregating stage's window store: idempotent merges, closing by watermark,
late events, roll-ups, and partials from many partitions equal to one pass."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.windows.aggregate import Aggregate
from monitor.windows.dedupe import SeenEvents
from monitor.windows.labels import LabelCap
from monitor.windows.partial import Partial, PartialBuilder, SourceRange
from monitor.windows.store import WindowKind, WindowStore

TUMBLING = WindowKind("tumbling", 60_000, 60_000)
HOPPING = WindowKind("hopping", 300_000, 60_000)


def vals(value: float) -> dict[str, float]:
    """A scored event's values: every scored event also has ``pipeline.dead_letter`` 0."""
    return {"quality.overall": value, "pipeline.dead_letter": 0.0}


def partial(offset: int, events: list[tuple[int, float]], variant: str = "a") -> Partial:
    b = PartialBuilder(60_000, LabelCap(20), SeenEvents())
    for i, (ts, value) in enumerate(events):
        b.add_event(f"{offset}-{i}", ts, (variant, "t", "app", "none"), vals(value))
    return b.build([SourceRange("events", 0, offset, offset + max(len(events) - 1, 0))])


def counts(store: WindowStore) -> list[tuple[str, int, int, int]]:
    return [
        (w.kind, w.start_ms, w.end_ms, w.series[(None, None, None)]["quality.overall"].count)
        for w in store.close()
    ]


@pytest.mark.parametrize(
    ("timestamp_ms", "window"),
    [(0, (0, 60_000)), (59_999, (0, 60_000)), (60_000, (60_000, 120_000))],
    ids=["on-boundary", "one-before-end", "next-boundary"],
)
def test_event_lands_in_the_half_open_window(timestamp_ms: int, window: tuple[int, int]) -> None:
    store = WindowStore([TUMBLING], lateness_ms=0)
    store.merge(partial(0, [(timestamp_ms, 0.5)]))
    store.advance(10**9)
    assert counts(store) == [("tumbling", *window, 1)]


def test_window_closes_exactly_at_end_plus_lateness() -> None:
    store = WindowStore([TUMBLING], lateness_ms=5_000)
    store.merge(partial(0, [(1_000, 0.5)]))
    store.advance(64_999)
    assert store.close() == []
    store.advance(65_000)
    assert counts(store) == [("tumbling", 0, 60_000, 1)]


def test_a_range_already_merged_is_skipped() -> None:
    store = WindowStore([TUMBLING], lateness_ms=0)
    p = partial(10, [(1_000, 0.5), (2_000, 0.7)])
    assert store.merge(p) is True
    assert store.merge(p) is False  # the same partial re-read after a restart
    assert store.merge(partial(5, [(3_000, 0.1)])) is False  # an older range
    store.advance(60_000)
    assert counts(store) == [("tumbling", 0, 60_000, 2)]


def test_late_events_are_counted_not_merged() -> None:
    store = WindowStore([TUMBLING], lateness_ms=0)
    store.merge(partial(0, [(1_000, 0.5), (61_000, 0.5)]))
    store.advance(60_000)
    assert counts(store) == [("tumbling", 0, 60_000, 1)]
    store.merge(partial(2, [(2_000, 0.9), (3_000, 0.9)]))  # window [0, 60s) is closed
    assert store.late_events == {"tumbling": 2}
    store.advance(120_000)
    assert counts(store) == [("tumbling", 60_000, 120_000, 1)]


def test_hopping_windows_are_unions_of_panes() -> None:
    store = WindowStore([HOPPING], lateness_ms=0)
    store.merge(partial(0, [(ts, 0.5) for ts in range(0, 600_000, 30_000)]))
    store.advance(600_000)
    got = {(s, e): n for _, s, e, n in counts(store)}
    # a 5-minute window every minute: each full window holds 10 events at 30 s spacing
    assert got[(0, 300_000)] == 10
    assert got[(300_000, 600_000)] == 10
    assert got[(-240_000, 60_000)] == 2
    assert len(got) == 10  # starts -240 s .. 300 s end by the watermark (600 s)


def test_rollups_by_variant_and_dead_letters_only_overall() -> None:
    store = WindowStore([TUMBLING], lateness_ms=0)
    b = PartialBuilder(60_000, LabelCap(20), SeenEvents())
    b.add_event("1", 1_000, ("control", "t1", "app", "none"), vals(0.2))
    b.add_event("2", 2_000, ("treatment", "t1", "app", "none"), vals(0.8))
    b.add_dead_letter(3_000)
    store.merge(b.build([SourceRange("events", 0, 0, 2)]))
    store.advance(60_000)
    [window] = store.close()
    assert window.events == 3
    assert window.series[("control", None, None)]["quality.overall"].mean == 0.2
    assert window.series[(None, "t1", None)]["quality.overall"].count == 2
    assert window.series[(None, None, None)]["pipeline.dead_letter"].mean == pytest.approx(1 / 3)
    assert ("unknown", None, None) not in window.series


def test_a_redelivered_event_id_counts_once_across_batches() -> None:
    seen = SeenEvents()
    labels = LabelCap(20)
    first = PartialBuilder(60_000, labels, seen)
    first.add_event("dup", 1_000, ("a", "t", "x", "none"), {"quality.overall": 0.5})
    again = PartialBuilder(60_000, labels, seen)
    assert again.add_event("dup", 1_000, ("a", "t", "x", "none"), {"quality.overall": 0.5}) is False
    assert again.build([SourceRange("events", 0, 1, 1)]).duplicates == 1


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 400_000), st.floats(0, 1, allow_nan=False)),
        min_size=1,
        max_size=120,
    ),
    st.integers(1, 6),
    st.randoms(use_true_random=False),
)
def test_partials_from_many_partitions_equal_one_pass(
    events: list[tuple[int, float]], partitions: int, rng: random.Random
) -> None:
    kinds = [TUMBLING, HOPPING]
    one = WindowStore(kinds, lateness_ms=0)
    b = PartialBuilder(60_000, LabelCap(20), SeenEvents())
    for i, (ts, v) in enumerate(events):
        b.add_event(str(i), ts, ("a", "t", "x", "none"), {"quality.overall": v})
    one.merge(b.build([SourceRange("events", 0, 0, len(events) - 1)]))

    many = WindowStore(kinds, lateness_ms=0)
    chunks: list[Partial] = []
    for p in range(partitions):
        mine = [(i, e) for i, e in enumerate(events) if i % partitions == p]
        for start in range(0, len(mine), 7):
            part = PartialBuilder(60_000, LabelCap(20), SeenEvents())
            for i, (ts, v) in mine[start : start + 7]:
                part.add_event(str(i), ts, ("a", "t", "x", "none"), {"quality.overall": v})
            chunks.append(part.build([SourceRange("events", p, start, start + 6)]))
    rng.shuffle(chunks)  # partitions interleave in any order (each in its own order)
    chunks.sort(key=lambda c: (c.sources[0].partition, c.sources[0].first_offset))
    rng.shuffle(chunks)
    by_partition: dict[int, list[Partial]] = {}
    for c in chunks:
        by_partition.setdefault(c.sources[0].partition, []).append(c)
    for c in sorted(chunks, key=lambda c: (c.sources[0].first_offset, rng.random())):
        many.merge(c)
    for store in (one, many):
        store.advance(10**9)
    a, b2 = one.close(), many.close()
    assert [(w.kind, w.start_ms, w.end_ms) for w in a] == [
        (w.kind, w.start_ms, w.end_ms) for w in b2
    ]
    for wa, wb in zip(a, b2, strict=True):
        x: Aggregate = wa.series[(None, None, None)]["quality.overall"]
        y: Aggregate = wb.series[(None, None, None)]["quality.overall"]
        assert (x.count, x.minimum, x.maximum, x.sketch) == (
            y.count,
            y.minimum,
            y.maximum,
            y.sketch,
        )
        assert x.total == pytest.approx(y.total, rel=1e-9, abs=1e-12)


def test_the_watermark_waits_for_the_slowest_active_partition() -> None:
    store = WindowStore([TUMBLING], lateness_ms=0, idle_partition_ms=60_000)
    # one batch: partition 0 is at 100 s, partition 1 (a backlog) only at 50 s
    both = partial(0, [(100_000, 0.5), (50_000, 0.5)])
    both.sources = (
        SourceRange("events", 0, 0, 0, 100_000),
        SourceRange("events", 1, 0, 0, 50_000),
    )
    store.merge(both)
    assert store.watermark_ms == 50_000  # partition 1 still has events for [0, 60 s)
    assert store.close() == []
    behind = partial(1, [(55_000, 0.5)])
    behind.sources = (SourceRange("events", 1, 1, 1, 55_000),)
    store.merge(behind)
    assert store.late_events == {"tumbling": 0}
    ahead = partial(2, [(200_000, 0.5)])
    ahead.sources = (SourceRange("events", 0, 1, 1, 200_000),)
    store.merge(ahead)  # partition 1 is now over 60 s behind: it no longer holds windows
    assert store.watermark_ms == 200_000
    assert [(s, n) for _, s, _, n in counts(store)] == [(0, 2), (60_000, 1)]


def test_a_partition_not_heard_of_yet_holds_the_watermark() -> None:
    store = WindowStore([TUMBLING], lateness_ms=0, idle_partition_ms=60_000)
    store.expect([("events", 0), ("events", 1)])
    first = partial(0, [(10_000, 0.5), (50_000, 0.5)])
    first.sources = (SourceRange("events", 0, 0, 1, 50_000),)
    store.merge(first)
    assert store.watermark_ms == 0  # partition 1 may still hold events of the first pane
    other = partial(0, [(20_000, 0.5)])
    other.sources = (SourceRange("events", 1, 0, 0, 20_000),)
    store.merge(other)
    assert store.watermark_ms == 20_000 and store.late_events == {"tumbling": 0}


def test_a_partition_with_a_backlog_holds_the_watermark_however_far_behind() -> None:
    store = WindowStore([TUMBLING], lateness_ms=0, idle_partition_ms=60_000)
    slow = partial(0, [(50_000, 0.5)])
    # partition 1's worker scored offsets 0..0 while the partition held 1,000 records
    slow.sources = (SourceRange("events", 1, 0, 0, 50_000, highwater=1_000),)
    store.merge(slow)
    ahead = partial(1, [(200_000, 0.5)])
    ahead.sources = (SourceRange("events", 0, 0, 0, 200_000, highwater=1),)
    store.merge(ahead)
    assert store.watermark_ms == 50_000  # a lagging worker is not an idle partition
    rest = partial(2, [(55_000, 0.5)])
    rest.sources = (SourceRange("events", 1, 1, 999, 55_000, highwater=1_000),)
    store.merge(rest)
    assert store.late_events == {"tumbling": 0}
    assert store.watermark_ms == 200_000  # caught up, and over 60 s behind: idle now
    assert [(s, n) for _, s, _, n in counts(store)] == [(0, 2)]


def test_dead_letters_do_not_move_event_time() -> None:
    store = WindowStore([TUMBLING], lateness_ms=0)
    b = PartialBuilder(60_000, LabelCap(20), SeenEvents())
    b.add_dead_letter(10**12)  # stamped by the broker's clock, years after the events
    only_dead = b.build([SourceRange("events", 0, 0, 0)])
    assert only_dead.max_timestamp_ms is None
    store.merge(only_dead)
    assert store.watermark_ms is None
    store.merge(partial(1, [(30_000, 0.5)]))
    assert store.late_events == {"tumbling": 0}
