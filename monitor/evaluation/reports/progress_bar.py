"""``ProgressBar``: how far ``ragmon eval`` is, on stderr.

On a terminal it redraws one line (``\\r``), at most every ``min_interval_s`` (and at
the end)::

    eval  [##########..........]  52/100   52%  3.1 s  ETA 2.9 s

Elsewhere (a CI log, a file) it prints a plain line each time another 10 % is done, and
one at :meth:`~ProgressBar.close` if the last one was not at the end: at most 11 lines.

>>> import io
>>> ticks = iter(range(100))
>>> out = io.StringIO()
>>> with ProgressBar(4, stream=out, clock=lambda: float(next(ticks))) as bar:
...     for _ in range(4):
...         bar.advance()
>>> print(out.getvalue(), end="")
eval  1/4   25%  1.0 s  ETA 3.0 s
eval  2/4   50%  2.0 s  ETA 2.0 s
eval  3/4   75%  3.0 s  ETA 1.0 s
eval  4/4  100%  4.0 s
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """See the module docstring. ``total`` may be 0 (shown as done)."""

    def __init__(
        self,
        total: int,
        *,
        stream: TextIO,
        label: str = "eval",
        min_interval_s: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        width: int = 20,
    ) -> None:
        self.total = max(0, total)
        self.done = 0
        self._stream = stream
        self._label = label
        self._min_interval_s = min_interval_s
        self._clock = clock
        self._width = max(1, width)
        self._start = clock()
        self._tty = _isatty(stream)
        self._last_draw: float | None = None
        self._last_decile = 0
        self._last_len = 0
        self._drawn_done: int | None = None
        self._closed = False

    def _fraction(self) -> float:
        if self.total == 0:
            return 1.0
        return min(1.0, self.done / self.total)

    def _line(self, now: float) -> str:
        fraction = self._fraction()
        elapsed = max(0.0, now - self._start)
        digits = len(str(self.total))
        parts = [self._label]
        if self._tty:
            filled = int(fraction * self._width)
            parts.append("[" + "#" * filled + "." * (self._width - filled) + "]")
        parts.append(f"{self.done:>{digits}}/{self.total}  {int(fraction * 100):>3d}%")
        parts.append(f"{elapsed:.1f} s")
        if fraction < 1.0:
            if self.done > 0:
                eta = elapsed / self.done * (self.total - self.done)
                parts.append(f"ETA {eta:.1f} s")
            else:
                parts.append("ETA ?")
        return "  ".join(parts)

    def _draw(self, now: float) -> None:
        line = self._line(now)
        if self._tty:
            pad = " " * max(0, self._last_len - len(line))
            self._stream.write("\r" + line + pad)
            self._last_len = len(line)
        else:
            self._stream.write(line + "\n")
        self._stream.flush()
        self._last_draw = now
        self._drawn_done = self.done

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more items done, and redraw if it is time to."""
        if self._closed:
            return
        self.done += n
        now = self._clock()
        at_end = self.total > 0 and self.done >= self.total
        if self._tty:
            due = self._last_draw is None or now - self._last_draw >= self._min_interval_s
            if due or at_end:
                self._draw(now)
            return
        decile = 10 if self.total == 0 else min(10, self.done * 10 // self.total)
        if decile > self._last_decile:
            self._last_decile = decile
            self._draw(now)

    def close(self) -> None:
        """Draw the final state (unless it is on screen already) and end the line."""
        if self._closed:
            return
        self._closed = True
        if self._drawn_done != self.done or self._drawn_done is None:
            self._draw(self._clock())
        if self._tty:
            self._stream.write("\n")
            self._stream.flush()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
