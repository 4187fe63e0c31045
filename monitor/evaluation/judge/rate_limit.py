"""A token bucket: at most ``rate_per_s`` requests per second on average, bursts of
``burst``.

:meth:`TokenBucket.reserve` takes a token now and says how long to wait before using it;
tokens may go negative, each negative token being a reservation further in the future, so
concurrent callers queue fairly without a lock (nothing awaits between reading and taking).

>>> bucket = TokenBucket(rate_per_s=2.0, burst=1, clock_s=lambda: 10.0)
>>> [bucket.reserve(now_s=10.0) for _ in range(3)]
[0.0, 0.5, 1.0]
>>> bucket.reserve(now_s=12.0)  # two seconds later: the queue has drained
0.0
>>> TokenBucket(rate_per_s=5.0, burst=2, clock_s=lambda: 0.0).reserve(now_s=0.0)
0.0
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["TokenBucket"]


class TokenBucket:
    """See the module docstring. The bucket starts full."""

    def __init__(
        self,
        rate_per_s: float,
        burst: int = 1,
        *,
        clock_s: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate_per_s <= 0:
            raise ValueError(f"rate_per_s must be > 0, got {rate_per_s}")
        if burst < 1:
            raise ValueError(f"burst must be >= 1, got {burst}")
        self.rate_per_s = rate_per_s
        self.burst = burst
        self._clock_s = clock_s
        self._tokens = float(burst)
        self._updated_s = clock_s()

    def reserve(self, now_s: float | None = None) -> float:
        """Take one token; the seconds to wait before it may be used (0 when available)."""
        now = self._clock_s() if now_s is None else now_s
        elapsed = max(0.0, now - self._updated_s)
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.rate_per_s)
        self._updated_s = now
        self._tokens -= 1.0
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate_per_s

    async def acquire(self) -> None:
        """Wait for a token."""
        wait_s = self.reserve()
        if wait_s > 0:
            await asyncio.sleep(wait_s)
