"""Window arithmetic (``monitor.windows.bounds``): boundaries, hops, negatives, lateness."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from monitor.windows.bounds import (
    WindowSpec,
    is_late,
    pane_ms,
    panes_of,
    window_start,
    window_starts,
    windows_ending_by,
)

MIN = 60_000


@pytest.mark.parametrize(
    ("ts", "step", "start"),
    [
        (0, MIN, 0),
        (MIN, MIN, MIN),  # on a boundary: the window starting there
        (MIN - 1, MIN, 0),  # one ms before a boundary: the previous window
        (MIN + 1, MIN, MIN),
        (-1, MIN, -MIN),  # negative timestamps floor towards minus infinity
        (-MIN, MIN, -MIN),
        (-MIN - 1, MIN, -2 * MIN),
        (1_700_000_123_456, MIN, 1_700_000_100_000),
        (7, 1, 7),
    ],
)
def test_window_start(ts: int, step: int, start: int) -> None:
    assert window_start(ts, step) == start


@pytest.mark.parametrize(
    ("ts", "size", "step", "starts"),
    [
        # tumbling (step == size): exactly one window
        (MIN, MIN, MIN, [MIN]),
        (MIN - 1, MIN, MIN, [0]),
        (-1, MIN, MIN, [-MIN]),
        # hopping, step divides size: size/step windows
        (300_000, 300_000, MIN, [60_000, 120_000, 180_000, 240_000, 300_000]),
        (299_999, 300_000, MIN, [0, 60_000, 120_000, 180_000, 240_000]),
        (-1, 300_000, MIN, [-300_000, -240_000, -180_000, -120_000, -60_000]),
        (0, 300_000, MIN, [-240_000, -180_000, -120_000, -60_000, 0]),
        # step not dividing size: size//step or size//step + 1 windows
        (95, 100, 30, [0, 30, 60, 90]),
        (100, 100, 30, [30, 60, 90]),
        (119, 100, 30, [30, 60, 90]),
        (120, 100, 30, [30, 60, 90, 120]),
        (-5, 100, 30, [-90, -60, -30]),
    ],
)
def test_window_starts(ts: int, size: int, step: int, starts: list[int]) -> None:
    assert window_starts(ts, size, step) == starts
    assert WindowSpec(size, step).starts(ts) == starts


@given(
    ts=st.integers(-(10**13), 10**13),
    step=st.integers(1, 10**6),
    hops=st.integers(1, 20),
    extra=st.floats(0, 1, exclude_max=True),
)
def test_window_starts_are_exactly_the_windows_containing_ts(
    ts: int, step: int, hops: int, extra: float
) -> None:
    size = step * hops + int(extra * step)
    starts = window_starts(ts, size, step)
    assert starts == sorted(starts)
    assert all(s % step == 0 and s <= ts < s + size for s in starts)
    # the neighbours just outside the list do not contain ts
    assert not starts[0] - step + size > ts
    assert starts[-1] + step > ts
    assert len(starts) in (size // step, size // step + 1)
    if size % step == 0:
        assert len(starts) == size // step


def test_pane_ms() -> None:
    assert pane_ms(60_000, 300_000, 60_000) == 60_000
    assert pane_ms(60_000) == 60_000
    assert pane_ms(100, 30) == 10
    assert pane_ms(300_000, 45_000) == 15_000


def test_panes_of() -> None:
    assert list(panes_of(300_000, 300_000, 60_000)) == [
        300_000,
        360_000,
        420_000,
        480_000,
        540_000,
    ]
    assert list(panes_of(-120_000, 120_000, 60_000)) == [-120_000, -60_000]
    assert list(panes_of(0, 60_000, 60_000)) == [0]
    with pytest.raises(ValueError, match="does not tile"):
        panes_of(30_000, 60_000, 60_000)
    with pytest.raises(ValueError, match="does not tile"):
        panes_of(0, 90_000, 60_000)


def test_every_window_is_a_union_of_panes() -> None:
    size, step = 300_000, 45_000
    pane = pane_ms(size, step)
    for start in window_starts(1_234_567, size, step):
        panes = panes_of(start, size, pane)
        assert panes[0] == start and panes[-1] + pane == start + size


@pytest.mark.parametrize(
    ("watermark", "after_end", "closed"),
    [
        (69_999, 0, []),  # one ms before end + lateness: still open
        (70_000, 0, [(0, MIN)]),  # exactly end + lateness: closes
        (70_000, MIN, []),  # already closed
        (190_000, 0, [(0, MIN), (MIN, 2 * MIN), (2 * MIN, 3 * MIN)]),
        (190_000, 59_999, [(0, MIN), (MIN, 2 * MIN), (2 * MIN, 3 * MIN)]),
        (190_000, MIN, [(MIN, 2 * MIN), (2 * MIN, 3 * MIN)]),
        (-50_001, -2 * MIN, []),
        (-50_000, -2 * MIN, [(-2 * MIN, -MIN)]),
    ],
)
def test_tumbling_windows_ending_by(
    watermark: int, after_end: int, closed: list[tuple[int, int]]
) -> None:
    assert windows_ending_by(watermark, MIN, MIN, 10_000, after_end) == closed
    assert WindowSpec.tumbling(MIN, 10_000).ending_by(watermark, after_end) == closed


def test_hopping_windows_ending_by() -> None:
    size, step, late = 300_000, MIN, 10_000
    # windows ending after 0 include those that started before 0
    assert windows_ending_by(309_999, size, step, late, 0) == [
        (-240_000, 60_000),
        (-180_000, 120_000),
        (-120_000, 180_000),
        (-60_000, 240_000),
    ]
    assert windows_ending_by(309_999, size, step, late, 240_000) == []
    assert windows_ending_by(310_000, size, step, late, 240_000) == [(0, 300_000)]
    assert windows_ending_by(430_000, size, step, late, 240_000) == [
        (0, 300_000),
        (60_000, 360_000),
        (120_000, 420_000),
    ]
    assert windows_ending_by(430_000, size, step, late, 360_000) == [(120_000, 420_000)]
    # step not dividing size: ends are 100 + 30k
    assert windows_ending_by(200, 100, 30, 0, 100) == [(30, 130), (60, 160), (90, 190)]
    assert windows_ending_by(100, 100, 30, 0, 70) == [(0, 100)]
    assert windows_ending_by(99, 100, 30, 0, 70) == []
    # zero lateness: a window closes exactly when the watermark reaches its end
    assert windows_ending_by(MIN, MIN, MIN, 0, 0) == [(0, MIN)]
    assert windows_ending_by(MIN - 1, MIN, MIN, 0, 0) == []


@given(
    watermark=st.integers(-(10**12), 10**12),
    gap=st.integers(-(10**5), 10**5),
    step=st.integers(1, 5000),
    extra=st.integers(0, 5000),
    lateness=st.integers(0, 10_000),
)
def test_windows_ending_by_matches_its_definition(
    watermark: int, gap: int, step: int, extra: int, lateness: int
) -> None:
    size = step + extra
    after_end = watermark - gap
    closed = windows_ending_by(watermark, size, step, lateness, after_end)
    for start, end in closed:
        assert start % step == 0 and end == start + size
        assert after_end < end and end + lateness <= watermark
    if closed:
        first, last = closed[0][0], closed[-1][0]
        assert [s for s, _ in closed] == list(range(first, last + 1, step))
        assert not first - step + size > after_end  # the previous window ended already
        assert last + step + size + lateness > watermark  # the next one is still open
    else:
        low = -((-(after_end - size + 1)) // step) * step
        assert low + size + lateness > watermark


@pytest.mark.parametrize(
    ("ts", "watermark", "size", "step", "late", "expected"),
    [
        (59_999, 70_000, MIN, MIN, 10_000, True),
        (59_999, 69_999, MIN, MIN, 10_000, False),
        (60_000, 70_000, MIN, MIN, 10_000, False),
        (0, 70_000, MIN, MIN, 10_000, True),
        (-1, 10_000, MIN, MIN, 10_000, True),
        (-1, 9_999, MIN, MIN, 10_000, False),
        # hopping: late only when the LAST window containing ts closed
        (0, 70_000, 300_000, MIN, 10_000, False),
        (0, 309_999, 300_000, MIN, 10_000, False),
        (0, 310_000, 300_000, MIN, 10_000, True),
        (59_999, 310_000, 300_000, MIN, 10_000, True),
        (60_000, 310_000, 300_000, MIN, 10_000, False),
        # zero lateness
        (59_999, 60_000, MIN, MIN, 0, True),
        (59_999, 59_999, MIN, MIN, 0, False),
    ],
)
def test_is_late(ts: int, watermark: int, size: int, step: int, late: int, expected: bool) -> None:
    assert is_late(ts, watermark, size, step, late) is expected
    assert WindowSpec(size, step, late).is_late(ts, watermark) is expected


@given(
    ts=st.integers(-(10**12), 10**12),
    gap=st.integers(-(10**5), 10**5),
    step=st.integers(1, 5000),
    extra=st.integers(0, 5000),
    lateness=st.integers(0, 10_000),
)
def test_is_late_iff_every_containing_window_closed(
    ts: int, gap: int, step: int, extra: int, lateness: int
) -> None:
    size = step + extra
    watermark = ts + gap
    closed = [s + size + lateness <= watermark for s in window_starts(ts, size, step)]
    assert is_late(ts, watermark, size, step, lateness) is all(closed)


@pytest.mark.parametrize(
    "call",
    [
        lambda: window_start(5, 0),
        lambda: window_start(5, -60_000),
        lambda: window_starts(5, 0, 0),
        lambda: window_starts(5, 60_000, 0),
        lambda: window_starts(5, 60_000, 120_000),  # step > size
        lambda: pane_ms(),
        lambda: pane_ms(60_000, 0),
        lambda: panes_of(0, 60_000, 0),
        lambda: windows_ending_by(0, 60_000, 60_000, -1, 0),
        lambda: windows_ending_by(0, 60_000, 90_000, 0, 0),
        lambda: is_late(0, 0, 60_000, 0, 0),
        lambda: is_late(0, 0, 60_000, 60_000, -5),
        lambda: WindowSpec(60_000, 120_000),
        lambda: WindowSpec(60_000, 60_000, -1),
    ],
)
def test_invalid_lengths_raise(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]


def test_window_spec() -> None:
    spec = WindowSpec.tumbling(MIN, lateness_ms=10_000)
    assert spec.is_tumbling and spec.step_ms == MIN
    assert spec.start(MIN + 5) == MIN
    assert not WindowSpec(300_000, MIN).is_tumbling
