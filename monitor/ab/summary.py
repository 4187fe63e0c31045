"""What the A/B statistics read: one metric's count, mean and sample variance.

Every test in :mod:`monitor.ab` takes :class:`Summary` values, never raw lists, so it runs
on the mergeable window aggregates (:class:`monitor.windows.aggregate.Aggregate` is one):
merge the partial aggregates first, then test. ``variance`` is the *sample* variance
(divided by ``count - 1``) and ``None`` below two values; ``mean`` is ``None`` when empty.
For a 0/1 metric (a rate) the mean is the rate and ``count * mean`` the number of ones.

:class:`Moments` is a plain, frozen ``Summary``; :data:`EMPTY` stands for a metric a
variant has no value of.

>>> from monitor.windows.aggregate import Aggregate
>>> s: Summary = Aggregate.of([0.5, 0.7, 0.9])
>>> s.count, round(s.mean, 12), round(s.variance, 12)
(3, 0.7, 0.04)
>>> Moments.of(s) == Moments(3, s.mean, s.variance)
True
>>> EMPTY.count, EMPTY.mean, EMPTY.variance
(0, None, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["EMPTY", "Moments", "Summary"]


class Summary(Protocol):
    """One metric's values, summarised: ``count``, ``mean`` and the sample ``variance``."""

    @property
    def count(self) -> int: ...

    @property
    def mean(self) -> float | None: ...

    @property
    def variance(self) -> float | None: ...


@dataclass(frozen=True, slots=True)
class Moments:
    """A plain :class:`Summary`."""

    count: int
    mean: float | None
    variance: float | None

    @classmethod
    def of(cls, summary: Summary) -> Moments:
        """A frozen copy of any summary's three numbers."""
        return cls(summary.count, summary.mean, summary.variance)


EMPTY = Moments(0, None, None)
"""The summary of no values."""
