"""Readiness of a worker for ``/healthz``: not ready, with a reason, when batches keep
failing or the windows stop closing. Pure (the caller passes the clocks).

>>> r = Readiness(max_failed_batches=3, window_stall_s=60.0, max_ahead_ms=1_000)
>>> r.check(failed_batches=3, scored=0, watermark_ms=None, now_s=0.0, now_ms=0)
('batches_failing', '3 consecutive batches failed')
>>> r.check(failed_batches=0, scored=10, watermark_ms=5_000, now_s=1.0, now_ms=0)
('watermark_ahead', 'the window watermark is more than 1000 ms ahead of the clock')
>>> r.check(failed_batches=0, scored=10, watermark_ms=0, now_s=2.0, now_ms=0) is None
True
>>> r.check(failed_batches=0, scored=20, watermark_ms=0, now_s=63.0, now_ms=0)[0]
'windows_stalled'
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Readiness"]


@dataclass
class Readiness:
    """Remembers when the window watermark last moved, to tell a stall from quiet.

    ``check`` returns ``None`` when ready, else ``(reason, detail)``: ``batches_failing``
    after ``max_failed_batches`` consecutive failed batches, ``watermark_ahead`` when the
    watermark is further ahead of the clock than any accepted event time, and
    ``windows_stalled`` when events were scored but the watermark has not moved for
    ``window_stall_s`` seconds (a watermark of ``None``, before the first partial, counts
    as a value that has not moved). ``windows=False`` (a score-only worker) checks only
    the batches.
    """

    max_failed_batches: int
    window_stall_s: float
    max_ahead_ms: int
    _watermark_ms: int | None = field(default=None, init=False)
    _moved_s: float | None = field(default=None, init=False)
    _scored_when_moved: int = field(default=0, init=False)

    def check(
        self,
        *,
        failed_batches: int,
        scored: int,
        watermark_ms: int | None,
        now_s: float,
        now_ms: int,
        windows: bool = True,
    ) -> tuple[str, str] | None:
        if failed_batches >= self.max_failed_batches:
            return "batches_failing", f"{failed_batches} consecutive batches failed"
        if not windows:
            return None
        if watermark_ms is not None and watermark_ms > now_ms + self.max_ahead_ms:
            detail = f"the window watermark is more than {self.max_ahead_ms} ms ahead of the clock"
            return "watermark_ahead", detail
        if self._moved_s is None or watermark_ms != self._watermark_ms:
            self._watermark_ms, self._moved_s, self._scored_when_moved = watermark_ms, now_s, scored
            return None
        still_s = now_s - self._moved_s
        if scored > self._scored_when_moved and still_s > self.window_stall_s:
            detail = (
                f"events were scored but the window watermark has not moved for {still_s:.0f} s"
            )
            return "windows_stalled", detail
        return None
