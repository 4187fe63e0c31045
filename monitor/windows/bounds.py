"""Window arithmetic on integer milliseconds of event time.

A window is half-open, ``[start, start + size)``. Hopping windows of ``size`` advance by
``step``; a tumbling window is a hopping window with ``step == size``. Windows are
aligned to epoch 0 (``start % step == 0``), so every worker computes the same windows.
Every length must be positive and ``step <= size`` (a larger step would leave gaps that
no window covers); the functions raise ``ValueError`` otherwise.

A window *closes* once the watermark (the largest event time seen) reaches its end plus
the allowed lateness: ``end + lateness <= watermark``. An event is *late* when every
window containing it has closed.

Windows are assembled from *panes*: ``pane_ms(*lengths)`` (the gcd of every configured
size and step) divides every window into whole panes, so per-pane aggregates merge into
any window.

>>> window_start(61_000, 60_000), window_start(-1, 60_000)
(60000, -60000)
>>> window_starts(61_000, 300_000, 60_000)
[-180000, -120000, -60000, 0, 60000]
>>> pane_ms(60_000, 300_000, 60_000)
60000
>>> list(panes_of(0, 300_000, 60_000))
[0, 60000, 120000, 180000, 240000]
>>> windows_ending_by(130_000, 60_000, 60_000, 10_000, after_end_ms=60_000)
[(60000, 120000)]
>>> is_late(59_999, 70_000, 60_000, 60_000, 10_000), is_late(60_000, 70_000, 60_000, 60_000, 10_000)
(True, False)
>>> spec = WindowSpec(300_000, 60_000, lateness_ms=10_000)
>>> spec.starts(61_000) == window_starts(61_000, 300_000, 60_000)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "WindowSpec",
    "is_late",
    "pane_ms",
    "panes_of",
    "window_start",
    "window_starts",
    "windows_ending_by",
]


def window_start(timestamp_ms: int, step_ms: int) -> int:
    """The start of the latest window containing the timestamp: it floored to a multiple of
    ``step_ms`` (towards minus infinity, also for negative timestamps)."""
    _check_positive(step_ms=step_ms)
    return timestamp_ms - timestamp_ms % step_ms


def window_starts(timestamp_ms: int, size_ms: int, step_ms: int) -> list[int]:
    """Every window start ``s`` with ``s <= timestamp < s + size``, ascending.

    There are ``size // step`` or ``size // step + 1`` of them (exactly ``size // step``
    when ``step`` divides ``size``).
    """
    _check_window(size_ms, step_ms)
    last = window_start(timestamp_ms, step_ms)
    first = _ceil_to(timestamp_ms - size_ms + 1, step_ms)
    return list(range(first, last + 1, step_ms))


def pane_ms(*lengths_ms: int) -> int:
    """The pane length: the gcd of every window size and step, so that each window is a
    union of whole panes. ``ValueError`` without lengths or on a length <= 0."""
    if not lengths_ms:
        raise ValueError("pane_ms needs at least one length")
    for length in lengths_ms:
        _check_positive(length_ms=length)
    return math.gcd(*lengths_ms)


def panes_of(start_ms: int, size_ms: int, pane_ms: int) -> range:
    """The starts of the panes that tile the window ``[start, start + size)``.

    ``ValueError`` unless ``pane_ms`` divides both ``start_ms`` and ``size_ms``.
    """
    _check_positive(size_ms=size_ms, pane_ms=pane_ms)
    if start_ms % pane_ms or size_ms % pane_ms:
        raise ValueError(
            f"pane {pane_ms} ms does not tile the window [{start_ms}, {start_ms + size_ms})"
        )
    return range(start_ms, start_ms + size_ms, pane_ms)


def windows_ending_by(
    watermark_ms: int, size_ms: int, step_ms: int, lateness_ms: int, after_end_ms: int
) -> list[tuple[int, int]]:
    """``(start, end)`` of every window with ``after_end < end`` and
    ``end + lateness <= watermark``, ascending: the windows that have closed once the
    watermark reaches ``watermark_ms``, except those ending at or before ``after_end_ms``
    (the last end already closed). The list is as long as the gap between the two, so
    start ``after_end_ms`` near the first event, not at some distant past.
    """
    _check_window(size_ms, step_ms)
    _check_lateness(lateness_ms)
    first = _ceil_to(after_end_ms - size_ms + 1, step_ms)
    last = _floor_to(watermark_ms - lateness_ms - size_ms, step_ms)
    return [(s, s + size_ms) for s in range(first, last + 1, step_ms)]


def is_late(
    timestamp_ms: int, watermark_ms: int, size_ms: int, step_ms: int, lateness_ms: int
) -> bool:
    """True when every window containing the timestamp has closed: the latest one's
    ``end + lateness <= watermark``."""
    _check_window(size_ms, step_ms)
    _check_lateness(lateness_ms)
    return window_start(timestamp_ms, step_ms) + size_ms + lateness_ms <= watermark_ms


@dataclass(frozen=True, slots=True)
class WindowSpec:
    """One configured window: ``size_ms``, ``step_ms`` (``== size_ms`` for tumbling) and
    the allowed ``lateness_ms``; validated on construction.

    >>> WindowSpec.tumbling(60_000).ending_by(125_000, after_end_ms=0)
    [(0, 60000), (60000, 120000)]
    """

    size_ms: int
    step_ms: int
    lateness_ms: int = 0

    def __post_init__(self) -> None:
        _check_window(self.size_ms, self.step_ms)
        _check_lateness(self.lateness_ms)

    @classmethod
    def tumbling(cls, size_ms: int, lateness_ms: int = 0) -> WindowSpec:
        return cls(size_ms, size_ms, lateness_ms)

    @property
    def is_tumbling(self) -> bool:
        return self.step_ms == self.size_ms

    def start(self, timestamp_ms: int) -> int:
        """See :func:`window_start` (the latest window containing the timestamp)."""
        return window_start(timestamp_ms, self.step_ms)

    def starts(self, timestamp_ms: int) -> list[int]:
        """See :func:`window_starts`."""
        return window_starts(timestamp_ms, self.size_ms, self.step_ms)

    def ending_by(self, watermark_ms: int, after_end_ms: int) -> list[tuple[int, int]]:
        """See :func:`windows_ending_by`."""
        return windows_ending_by(
            watermark_ms, self.size_ms, self.step_ms, self.lateness_ms, after_end_ms
        )

    def is_late(self, timestamp_ms: int, watermark_ms: int) -> bool:
        """See :func:`is_late`."""
        return is_late(timestamp_ms, watermark_ms, self.size_ms, self.step_ms, self.lateness_ms)


def _floor_to(value: int, step: int) -> int:
    return value - value % step


def _ceil_to(value: int, step: int) -> int:
    return -((-value) // step) * step


def _check_positive(**lengths: int) -> None:
    for name, length in lengths.items():
        if length <= 0:
            raise ValueError(f"{name} must be > 0, got {length}")


def _check_window(size_ms: int, step_ms: int) -> None:
    _check_positive(size_ms=size_ms, step_ms=step_ms)
    if step_ms > size_ms:
        raise ValueError(f"step_ms ({step_ms}) must not exceed size_ms ({size_ms})")


def _check_lateness(lateness_ms: int) -> None:
    if lateness_ms < 0:
        raise ValueError(f"lateness_ms must be >= 0, got {lateness_ms}")
