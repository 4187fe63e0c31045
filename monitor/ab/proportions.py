"""Two proportions: the pooled z-test, Newcombe's hybrid-score interval, Cohen's h.

A rate is a 0/1 metric's mean, so each side's :class:`~monitor.ab.summary.Summary` gives
``n = count`` and ``x = count * mean`` ones (rounded to the nearest integer: the mean of
an aggregate is ``total / count``, which may miss by an ulp).

- **Test**: pooled two-proportion z-test, ``z = (p_t - p_c) / sqrt(p (1 - p) (1/n_c +
  1/n_t))`` with ``p = (x_c + x_t) / (n_c + n_t)``, two-sided ``p = 2 P(Z > |z|)`` (the
  same as ``scipy.stats.chi2_contingency(..., correction=False)`` on the 2×2 table). When
  ``p`` is 0 or 1 (no variation at all) ``z`` is ``None`` and the p-value 1.0.
- **Interval** for ``d = p_t - p_c``: Newcombe's (1998) method 10, the hybrid score
  interval from the two Wilson intervals ``[l_c, u_c]``, ``[l_t, u_t]``:
  ``[d - sqrt((p_t - l_t)**2 + (u_c - p_c)**2), d + sqrt((u_t - p_t)**2 + (p_c - l_c)**2)]``.
  Wilson's interval is ``(x + z²/2) / (n + z²) ± z / (n + z²) · sqrt(x (n - x) / n +
  z²/4)``, exactly 0 (1) at its lower (upper) end when ``x = 0`` (``x = n``).
- **Effect size**: Cohen's ``h = 2 asin(sqrt(p_t)) - 2 asin(sqrt(p_c))``.

:func:`two_proportions` returns ``None`` when either side is empty.

Newcombe (1998), Table II, example (a): 56/70 against 48/80 gives 0.2000 (0.0524, 0.3339).

>>> from monitor.ab.summary import Moments
>>> r = two_proportions(Moments(80, 48 / 80, None), Moments(70, 56 / 70, None))
>>> round(r.difference, 4), round(r.ci_low, 4), round(r.ci_high, 4)
(0.2, 0.0524, 0.3339)
>>> round(r.statistic, 4), round(r.p_value, 5), round(r.cohen_h, 4)
(2.6502, 0.00805, 0.4421)
>>> [round(v, 4) for v in wilson(81, 263)]  # Newcombe (1998), Table I
[0.2553, 0.3662]
>>> two_proportions(Moments(0, None, None), Moments(70, 0.8, None)) is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from monitor.ab.distributions import normal_ppf, normal_sf
from monitor.ab.summary import Summary

__all__ = ["ProportionTest", "successes", "two_proportions", "wilson"]


@dataclass(frozen=True, slots=True)
class ProportionTest:
    """The two-proportion test of ``treatment - control``."""

    control_rate: float
    treatment_rate: float
    difference: float
    ci_low: float
    ci_high: float
    statistic: float | None
    p_value: float
    cohen_h: float


def successes(summary: Summary) -> int:
    """The number of ones of a 0/1 metric: ``count * mean`` rounded (``ValueError`` when
    the mean is outside [0, 1], i.e. not a rate)."""
    mean = summary.mean
    if summary.count == 0 or mean is None:
        return 0
    if not 0.0 <= mean <= 1.0:
        raise ValueError(f"a proportion's mean must be in [0, 1], got {mean!r}")
    return min(summary.count, max(0, round(summary.count * mean)))


def wilson(x: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval for ``x`` successes out of ``n > 0``."""
    if n <= 0 or not 0 <= x <= n:
        raise ValueError(f"wilson needs 0 <= x <= n and n > 0, got x={x}, n={n}")
    z = -normal_ppf(0.5 * (1.0 - confidence))
    z2 = z * z
    centre = (x + 0.5 * z2) / (n + z2)
    half = z / (n + z2) * math.sqrt(x * (n - x) / n + 0.25 * z2)
    low = 0.0 if x == 0 else max(0.0, centre - half)
    high = 1.0 if x == n else min(1.0, centre + half)
    return low, high


def two_proportions(
    control: Summary, treatment: Summary, confidence: float = 0.95
) -> ProportionTest | None:
    """The two-proportion test of ``treatment - control``; ``None`` when a side is empty."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    n_c, n_t = control.count, treatment.count
    if n_c < 1 or n_t < 1:
        return None
    x_c, x_t = successes(control), successes(treatment)
    p_c, p_t = x_c / n_c, x_t / n_t
    difference = p_t - p_c
    low_c, high_c = wilson(x_c, n_c, confidence)
    low_t, high_t = wilson(x_t, n_t, confidence)
    ci_low = difference - math.hypot(p_t - low_t, high_c - p_c)
    ci_high = difference + math.hypot(high_t - p_t, p_c - low_c)
    pooled = (x_c + x_t) / (n_c + n_t)
    variance = pooled * (1.0 - pooled) * (1.0 / n_c + 1.0 / n_t)
    if variance > 0.0:
        statistic: float | None = difference / math.sqrt(variance)
        p_value = min(1.0, 2.0 * normal_sf(abs(difference / math.sqrt(variance))))
    else:
        statistic, p_value = None, 1.0
    cohen_h = 2.0 * math.asin(math.sqrt(p_t)) - 2.0 * math.asin(math.sqrt(p_c))
    return ProportionTest(p_c, p_t, difference, ci_low, ci_high, statistic, p_value, cohen_h)
