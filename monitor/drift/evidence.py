"""One-sided confidence bounds: the statistical evidence a rule needs before it pages.

A rule compares a window's statistic with a threshold. On a window of a handful of events
the point estimate is mostly noise, so a rule fires only when the whole one-sided
confidence interval (at ``confidence``, e.g. 0.99) lies past the threshold:

- a mean that is bad when low (spec 000's degradation and critical rules): the **upper**
  bound ``mean + t(confidence, n - 1) * stddev / sqrt(n)`` (Student t) must be below the
  threshold: :func:`mean_upper_bound`;
- a 0/1 rate that is bad when high: the exact (Clopper-Pearson) **lower** bound must be
  above the threshold: :func:`rate_lower_bound` (exact, so 2 leaks in 30 events do not
  "prove" a leakage rate above 1 %, as the normal or Wilson bounds would);
- a quantile that is bad when high (a p95 latency budget): a distribution-free lower bound
  of the ``q``-quantile is an order statistic of the window, the one at
  :func:`quantile_lower_level` (binomial: with probability >= ``confidence`` at most that
  many values lie below the true ``q``-quantile).

The t and normal quantiles come from :mod:`monitor.ab.distributions`, the Clopper-Pearson
bound from ``scipy.special.betaincinv``.

>>> import math
>>> round(mean_upper_bound(20, 0.5, 0.2, 0.99), 4)  # t(0.99, 19) = 2.539
0.6136
>>> mean_upper_bound(1, 0.5, 0.0, 0.99)  # one event says nothing about the mean
inf
>>> round(rate_lower_bound(100, 0.05, 0.99), 4), rate_lower_bound(100, 0.0, 0.99)
(0.013, 0.0)
>>> rate_lower_bound(30, 2 / 30, 0.99) < 0.01 < rate_lower_bound(30, 3 / 30, 0.99)
True
>>> level = quantile_lower_level(20, 0.95, 0.99)  # the 16th smallest of 20 values
>>> math.floor(level * 19)
15
>>> quantile_lower_level(5, 0.5, 0.99) is None  # too few values for any bound
True
"""

from __future__ import annotations

import math
from functools import lru_cache

from monitor.ab.distributions import normal_ppf, scipy_special, t_ppf

__all__ = [
    "mean_lower_bound",
    "mean_upper_bound",
    "quantile_lower_level",
    "rate_lower_bound",
]

_EXACT_BINOMIAL_MAX_N = 2000


@lru_cache(maxsize=4096)
def _t(confidence: float, df: int) -> float:
    return t_ppf(confidence, df)


@lru_cache(maxsize=64)
def _z(confidence: float) -> float:
    return normal_ppf(confidence)


def _check(confidence: float) -> None:
    if not 0.5 <= confidence < 1.0:
        raise ValueError(f"confidence must be in [0.5, 1), got {confidence!r}")


def _half_width(count: int, stddev: float | None, confidence: float) -> float:
    _check(confidence)
    if count < 2:
        return math.inf
    spread = stddev if stddev is not None and stddev == stddev else 0.0
    return _t(confidence, count - 1) * spread / math.sqrt(count)


def mean_upper_bound(count: int, mean: float, stddev: float | None, confidence: float) -> float:
    """One-sided upper confidence bound of the mean (``inf`` with fewer than 2 values)."""
    return mean + _half_width(count, stddev, confidence)


def mean_lower_bound(count: int, mean: float, stddev: float | None, confidence: float) -> float:
    """One-sided lower confidence bound of the mean (``-inf`` with fewer than 2 values)."""
    return mean - _half_width(count, stddev, confidence)


def rate_lower_bound(count: int, rate: float, confidence: float) -> float:
    """One-sided exact (Clopper-Pearson) lower bound of a rate observed as ``rate`` over
    ``count`` 0/1 values: the rate ``p`` at which ``P(Bin(count, p) >= successes) = 1 -
    confidence``, the ``1 - confidence`` quantile of ``Beta(successes, count - successes +
    1)`` (``P(Bin(n, p) >= x) = I_p(x, n - x + 1)``). Never anti-conservative, also for a
    handful of successes (the Wilson bound is, there)."""
    _check(confidence)
    if count < 1:
        return 0.0
    successes = round(min(max(rate, 0.0), 1.0) * count)
    if successes == 0:
        return 0.0
    return float(scipy_special().betaincinv(successes, count - successes + 1, 1.0 - confidence))


def _binomial_cdf_below(n: int, q: float, limit: float) -> int | None:
    """The largest ``j`` with ``P(Bin(n, q) <= j) <= limit``, or ``None`` if none."""
    if n <= _EXACT_BINOMIAL_MAX_N:
        log_q, log_r = math.log(q), math.log1p(-q)
        cdf = 0.0
        found: int | None = None
        for j in range(n + 1):
            log_pmf = (
                math.lgamma(n + 1)
                - math.lgamma(j + 1)
                - math.lgamma(n - j + 1)
                + j * log_q
                + (n - j) * log_r
            )
            cdf += math.exp(log_pmf)
            if cdf > limit:
                return found
            found = j
        return found
    # normal approximation with continuity correction
    j = math.floor(n * q + normal_ppf(limit) * math.sqrt(n * q * (1 - q)) - 0.5)
    return j if j >= 0 else None


def quantile_lower_level(count: int, q: float, confidence: float) -> float | None:
    """The quantile level whose sample value is a lower ``confidence`` bound of the true
    ``q``-quantile, for a sketch that reads rank ``floor(level * (count - 1))``; ``None``
    when ``count`` values are too few for any bound.

    The ``k``-th smallest value (1-based) lies below the true ``q``-quantile with
    probability ``P(Bin(count, q) >= k)``; the largest ``k`` for which that is at least
    ``confidence`` is ``j + 1``, ``j`` the largest with ``P(Bin <= j) <= 1 - confidence``.
    """
    _check(confidence)
    if count < 2 or not 0.0 < q < 1.0:
        return None
    j = _binomial_cdf_below(count, q, 1.0 - confidence)
    if j is None:
        return None
    # 0-based rank j; the half keeps floor(level * (count - 1)) == j despite rounding
    return min(1.0, (j + 0.5) / (count - 1))
