"""What the A/B statistics read: one metric's count, mean and sample variance.

Every test in :mod:`monitor.ab` takes :class:`Summary` values, never raw lists, so it runs
on the mergeable window aggregates (:class:`monitor.windows.aggregate.Aggregate` is one):
merge the partial aggregates first, then test. ``variance`` is the *sample* variance
(divided by ``count - 1``) and ``None`` below two values; ``mean`` is ``None`` when empty.
For a 0/1 metric (a rate) the mean is the rate and ``count * mean`` the number of ones.

:class:`Moments` is a plain, frozen ``Summary``; :data:`EMPTY` stands for a metric a
variant has no value of. :func:`subtract` undoes a merge: the values of a later cumulative
summary that an earlier one did not hold yet.

>>> from monitor.windows.aggregate import Aggregate
>>> s: Summary = Aggregate.of([0.5, 0.7, 0.9])
>>> s.count, round(s.mean, 12), round(s.variance, 12)
(3, 0.7, 0.04)
>>> Moments.of(s) == Moments(3, s.mean, s.variance)
True
>>> EMPTY.count, EMPTY.mean, EMPTY.variance
(0, None, None)
>>> later = subtract(Aggregate.of([0.5, 0.7, 0.9, 0.2, 0.4]), Aggregate.of([0.5, 0.7, 0.9]))
>>> later.count, round(later.mean, 12), round(later.variance, 12)
(2, 0.3, 0.02)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["EMPTY", "Moments", "Summary", "subtract"]


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


def subtract(total: Summary, part: Summary) -> Moments:
    """The summary of the values of ``total`` that are not in ``part`` (``part``'s values
    being a subset of ``total``'s, as an earlier cumulative summary is of a later one):
    Chan et al.'s merge run backwards, the sum of squared deviations ``M2 = v (n - 1)``
    being ``M2_total - M2_part - δ² n_part n / n_total``, ``δ`` the difference of the
    two means (clamped at 0 against rounding). ``ValueError`` when ``part`` has more
    values than ``total``."""
    n_total, n_part = total.count, part.count
    if n_part > n_total:
        raise ValueError(f"cannot subtract {n_part} values from {n_total}")
    if n_part == 0 or part.mean is None:
        return Moments.of(total)
    n = n_total - n_part
    if n == 0 or total.mean is None:
        return EMPTY
    mean = (n_total * total.mean - n_part * part.mean) / n
    if n < 2:
        return Moments(n, mean, None)
    m2_total = (total.variance or 0.0) * (n_total - 1)
    m2_part = (part.variance or 0.0) * (n_part - 1)
    delta = mean - part.mean
    m2 = m2_total - m2_part - delta * delta * n_part * n / n_total
    return Moments(n, mean, max(m2, 0.0) / (n - 1))
