"""What the drift rules read from a closed window, and how a series is named.

``WindowStats`` is the read side of a window aggregate (``monitor.windows``): the rules
only need the event count, the mean, the standard deviation (for the evidence check) and a
quantile, so any object with those four members will do. ``SeriesKey`` names one series
as ``(variant, tenant, application)``; ``None`` means "rolled up over every value of that
label", so ``(None, None, None)`` is the whole traffic and ``("treatment", None, None)`` one
variant.

>>> from dataclasses import dataclass
>>> @dataclass
... class Fixed:
...     count: int
...     mean: float | None
...     stddev: float | None = None
...     def quantile(self, q: float) -> float | None:
...         return self.mean
>>> stats: WindowStats = Fixed(count=3, mean=0.5)
>>> stats.count, stats.quantile(0.95)
(3, 0.5)
>>> key: SeriesKey = ("treatment", None, None)
>>> key_labels(key)
{'variant': 'treatment', 'tenant': None, 'application': None}
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["ALL_TRAFFIC", "SeriesKey", "WindowStats", "key_labels"]

SeriesKey = tuple[str | None, str | None, str | None]
"""``(variant, tenant, application)``; ``None`` rolls that label up."""

ALL_TRAFFIC: SeriesKey = (None, None, None)


class WindowStats(Protocol):
    """One metric's aggregate over one closed window."""

    @property
    def count(self) -> int: ...

    @property
    def mean(self) -> float | None: ...

    @property
    def stddev(self) -> float | None: ...

    def quantile(self, q: float) -> float | None: ...


def key_labels(key: SeriesKey) -> dict[str, str | None]:
    """The key as the label mapping used in alerts and JSON messages."""
    variant, tenant, application = key
    return {"variant": variant, "tenant": tenant, "application": application}
