"""The one retry policy of the HTTP clients that retry: alert delivery
(:mod:`monitor.stream.alert_delivery`, with :mod:`monitor.alerts.sender` reading the
answer), the live-target client (:mod:`monitor.evaluation.target.client`) and the judge
(:mod:`monitor.evaluation.judge.client`). Pure: the callers sleep, send and count.

* :meth:`RetryPolicy.backoff_s`: "full jitter" exponential backoff, the ``retry``-th retry
  (1 = the first) waits a uniformly random time in ``[0, min(max_s, base_s * 2 **
  (retry - 1))]``; the random spread keeps clients that failed together from retrying
  together.
* :meth:`RetryPolicy.delay_s`: a server's ``Retry-After`` (capped at
  ``retry_after_max_s``) replaces the backoff; with ``backoff_floor`` it can only lengthen
  it (an endless loop, as alert delivery is, must not spin on ``Retry-After: 0``).
* :meth:`RetryPolicy.gives_up`: after ``max_retries`` retries (``None``: never).
* :func:`retry_after_s`: how long a server asked to wait: ``retry-after-ms`` (OpenAI's,
  milliseconds), else ``Retry-After`` (seconds, or an HTTP date); ``None`` when neither is
  usable.

>>> import random
>>> policy = RetryPolicy(base_s=1.0, max_s=8.0, retry_after_max_s=30.0, max_retries=4)
>>> rng = random.Random(7)
>>> [round(policy.backoff_s(n, rng), 2) for n in (1, 2, 3, 4, 10)]
[0.32, 0.3, 2.6, 0.58, 4.29]
>>> policy.delay_s(3, retry_after_s=120.0, rng=rng)  # the server's wait, capped
30.0
>>> policy.gives_up(4), policy.gives_up(5)
(False, True)
>>> retry_after_s({"Retry-After": "2"}, now_s=0.0)
2.0
>>> retry_after_s({"retry-after-ms": "250", "retry-after": "1"}, now_s=0.0)
0.25
>>> retry_after_s({"Retry-After": "Thu, 01 Jan 1970 00:00:30 GMT"}, now_s=10.0)
20.0
>>> retry_after_s({"Retry-After": "soon"}, now_s=0.0) is None
True
"""

from __future__ import annotations

import email.utils
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["RetryPolicy", "http_date_delay_s", "retry_after_s"]


@dataclass(frozen=True)
class RetryPolicy:
    base_s: float = 0.5
    max_s: float = 30.0
    retry_after_max_s: float = 60.0
    max_retries: int | None = None
    backoff_floor: bool = False

    def backoff_s(self, retry: int, rng: random.Random) -> float:
        """Full-jitter exponential backoff before retry number ``retry`` (1 = the first)."""
        exponent = min(max(retry - 1, 0), 64)  # 2**64 * base is past any sane cap already
        return rng.uniform(0.0, min(self.max_s, self.base_s * 2.0**exponent))

    def delay_s(self, retry: int, retry_after_s: float | None, rng: random.Random) -> float:
        """The wait before retry number ``retry``, given the server's ``Retry-After``.

        >>> floor = RetryPolicy(base_s=4.0, max_s=4.0, retry_after_max_s=60.0,
        ...                     backoff_floor=True)
        >>> 0.0 < floor.delay_s(1, retry_after_s=0.0, rng=random.Random(1)) <= 4.0
        True
        >>> floor.delay_s(1, retry_after_s=45.0, rng=random.Random(1))
        45.0
        """
        backoff = self.backoff_s(retry, rng)
        if retry_after_s is None:
            return backoff
        asked = min(max(retry_after_s, 0.0), self.retry_after_max_s)
        return max(backoff, asked) if self.backoff_floor else asked

    def gives_up(self, retry: int) -> bool:
        """Whether retry number ``retry`` is one too many."""
        return self.max_retries is not None and retry > self.max_retries


def http_date_delay_s(value: str, now_s: float) -> float | None:
    """Seconds from ``now_s`` until an HTTP date (``Retry-After``'s other form), at least
    0; ``None`` when ``value`` is not a date with a time zone.

    >>> http_date_delay_s("Thu, 01 Jan 1970 00:00:30 GMT", now_s=10.0)
    20.0
    """
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now_s)


def _seconds(value: str) -> float | None:
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def retry_after_s(headers: Mapping[str, str], now_s: float) -> float | None:
    """See the module docstring; header names are matched case-insensitively."""
    lowered = {name.lower(): value.strip() for name, value in headers.items()}
    if "retry-after-ms" in lowered:
        ms = _seconds(lowered["retry-after-ms"])
        if ms is not None:
            return ms / 1000.0
    value = lowered.get("retry-after")
    if value is None:
        return None
    seconds = _seconds(value)
    if seconds is not None:
        return seconds
    return http_date_delay_s(value, now_s)
