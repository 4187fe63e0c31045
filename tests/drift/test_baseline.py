"""BaselineBook: trust (events, windows), horizon expiry, configured wins, bounded memory."""

from __future__ import annotations

import pytest

from monitor.drift.baseline import Baseline, BaselineBook
from monitor.drift.config import DriftConfig

KEY = (None, None, None)
M = "quality.overall"
MIN = 60_000


def _book(**kwargs: object) -> BaselineBook:
    base: dict[str, object] = {"min_events": 100, "min_windows": 3, "horizon_ms": 10 * MIN}
    base.update(kwargs)
    return BaselineBook(DriftConfig(**base))  # type: ignore[arg-type]


def _fill(book: BaselineBook, windows: list[tuple[int, float]], key: object = KEY) -> None:
    for i, (count, mean) in enumerate(windows, start=1):
        book.observe(key, M, window_end_ms=i * MIN, count=count, mean=mean)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("windows", "trusted"),
    [
        ([(50, 0.8), (49, 0.8), (1, 0.8)], True),  # exactly 100 events, 3 windows
        ([(50, 0.8), (49, 0.8)], False),  # too few windows
        ([(50, 0.8), (48, 0.8), (1, 0.8)], False),  # 99 events
        ([(200, 0.8), (200, 0.8)], False),  # plenty of events, 2 windows
        ([], False),
    ],
)
def test_trust_needs_min_events_and_min_windows(
    windows: list[tuple[int, float]], trusted: bool
) -> None:
    book = _book()
    _fill(book, windows)
    got = book.baseline(KEY, M, now_ms=(len(windows) + 1) * MIN)
    assert (got is not None) is trusted
    if got is not None:
        assert got.source == "learned"
        assert got.value == pytest.approx(0.8)


def test_learned_value_is_count_weighted() -> None:
    book = _book(min_events=1, min_windows=1)
    _fill(book, [(300, 0.9), (100, 0.5)])
    got = book.baseline(KEY, M, now_ms=3 * MIN)
    assert got == Baseline(pytest.approx(0.8), 400, 2, "learned")  # type: ignore[arg-type]


def test_horizon_is_half_open_and_windows_expire() -> None:
    book = _book(min_events=1, min_windows=1, horizon_ms=2 * MIN)
    _fill(book, [(10, 0.9), (10, 0.5)])  # ends at 1 and 2 minutes
    # (now - horizon, now]: at now = 3 min only the window ending at 2 min counts
    assert book.baseline(KEY, M, now_ms=3 * MIN) == Baseline(0.5, 10, 1, "learned")
    # at now = 2 min both count
    got = book.baseline(KEY, M, now_ms=2 * MIN)
    assert got is not None and got.windows == 2 and got.value == pytest.approx(0.7)
    # a window ending after now is not used
    assert book.baseline(KEY, M, now_ms=MIN) == Baseline(0.9, 10, 1, "learned")
    assert book.baseline(KEY, M, now_ms=4 * MIN) is None


def test_configured_baseline_wins() -> None:
    book = _book(baselines={M: 0.6})
    assert book.baseline(KEY, M, now_ms=0) == Baseline(0.6, 0, 0, "configured")
    _fill(book, [(500, 0.9)] * 3)
    got = book.baseline(KEY, M, now_ms=4 * MIN)
    assert got == Baseline(0.6, 1500, 3, "configured")
    # a metric without a configured value is learned
    assert book.baseline(KEY, "quality.diversity_score", now_ms=4 * MIN) is None


def test_series_are_separate() -> None:
    book = _book(min_events=1, min_windows=1)
    _fill(book, [(10, 0.9)], key=("a", None, None))
    _fill(book, [(10, 0.3)], key=("b", None, None))
    a = book.baseline(("a", None, None), M, now_ms=2 * MIN)
    b = book.baseline(("b", None, None), M, now_ms=2 * MIN)
    assert a is not None and a.value == 0.9
    assert b is not None and b.value == 0.3
    assert book.baseline(KEY, M, now_ms=2 * MIN) is None


def test_replaying_a_window_replaces_it_and_empty_windows_are_ignored() -> None:
    book = _book(min_events=1, min_windows=1)
    book.observe(KEY, M, window_end_ms=MIN, count=10, mean=0.9)
    book.observe(KEY, M, window_end_ms=MIN, count=10, mean=0.9)
    book.observe(KEY, M, window_end_ms=2 * MIN, count=0, mean=0.0)
    assert book.baseline(KEY, M, now_ms=2 * MIN) == Baseline(0.9, 10, 1, "learned")


def test_memory_is_bounded_by_the_horizon() -> None:
    book = _book(min_events=1, min_windows=1, horizon_ms=10 * MIN)
    for i in range(1, 1001):
        book.observe(KEY, M, window_end_ms=i * MIN, count=1, mean=float(i % 2))
    history = book._history[(KEY, M)]
    assert len(history.ends) == 10
    got = book.baseline(KEY, M, now_ms=1001 * MIN)
    assert got is not None and got.windows == 9 and got.events == 9


def test_out_of_order_windows_are_sorted() -> None:
    book = _book(min_events=1, min_windows=1)
    book.observe(KEY, M, window_end_ms=3 * MIN, count=1, mean=0.3)
    book.observe(KEY, M, window_end_ms=1 * MIN, count=1, mean=0.1)
    assert book.baseline(KEY, M, now_ms=2 * MIN) == Baseline(0.1, 1, 1, "learned")
    book.forget(KEY)
    assert book.series_count() == 0
