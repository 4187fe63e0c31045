"""Welch's t-test and confidence interval for the difference of two means.

From each side's :class:`~monitor.ab.summary.Summary` (count ``n``, mean ``m``, sample
variance ``v``): the difference ``d = m_t - m_c`` (treatment minus control), its standard
error ``se = sqrt(v_c / n_c + v_t / n_t)``, the Welch–Satterthwaite degrees of freedom

    df = se**4 / ((v_c / n_c)**2 / (n_c - 1) + (v_t / n_t)**2 / (n_t - 1)),

the statistic ``t = d / se``, the two-sided p-value ``2 P(T_df > |t|)``, the interval
``d ± t_{df, 1 - (1 - confidence) / 2} · se`` and Cohen's d, ``d`` over the pooled standard
deviation ``sqrt(((n_c - 1) v_c + (n_t - 1) v_t) / (n_c + n_t - 2))``. These equal
``scipy.stats.ttest_ind(treatment, control, equal_var=False)`` (its ``statistic``,
``pvalue``, ``df`` and ``confidence_interval``) to ~1e-12.

:func:`welch` returns ``None`` when either side has fewer than two values (no variance).
**Both variances zero** (each side constant): ``se = 0``, so ``t``, ``df`` and Cohen's d
are ``None``, the interval is the single point ``[d, d]``, and the p-value is 1.0 when the
means are equal and 0.0 when they differ (the difference is then certain; ``scipy`` gives
NaN and 0.0). With one variance zero, ``df`` is the other side's ``n - 1``.

>>> from monitor.ab.summary import Moments
>>> r = welch(Moments(40, 0.70, 0.0225), Moments(50, 0.78, 0.0196))
>>> round(r.difference, 12), round(r.statistic, 4), round(r.df, 2), round(r.p_value, 5)
(0.08, 2.5894, 80.99, 0.0114)
>>> round(r.ci_low, 4), round(r.ci_high, 4), round(r.cohen_d, 4)
(0.0185, 0.1415, 0.5536)
>>> welch(Moments(1, 0.7, None), Moments(50, 0.78, 0.0196)) is None
True
>>> welch(Moments(5, 1.0, 0.0), Moments(5, 0.5, 0.0))
MeanTest(difference=-0.5, ci_low=-0.5, ci_high=-0.5, standard_error=0.0, statistic=None, \
df=None, p_value=0.0, cohen_d=None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from monitor.ab.distributions import t_ppf, t_sf
from monitor.ab.summary import Summary

__all__ = ["MeanTest", "welch"]


@dataclass(frozen=True, slots=True)
class MeanTest:
    """Welch's test of ``treatment - control``."""

    difference: float
    ci_low: float
    ci_high: float
    standard_error: float
    statistic: float | None
    df: float | None
    p_value: float
    cohen_d: float | None


def welch(control: Summary, treatment: Summary, confidence: float = 0.95) -> MeanTest | None:
    """Welch's t-test of ``treatment - control``; ``None`` when a side has < 2 values."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    n_c, n_t = control.count, treatment.count
    if n_c < 2 or n_t < 2:
        return None
    m_c, m_t, v_c, v_t = control.mean, treatment.mean, control.variance, treatment.variance
    if m_c is None or m_t is None or v_c is None or v_t is None:
        return None
    difference = m_t - m_c
    share_c, share_t = v_c / n_c, v_t / n_t
    variance = share_c + share_t
    pooled = ((n_c - 1) * v_c + (n_t - 1) * v_t) / (n_c + n_t - 2)
    cohen_d = difference / math.sqrt(pooled) if pooled > 0.0 else None
    if variance <= 0.0:
        return MeanTest(
            difference, difference, difference, 0.0, None, None, float(difference == 0.0), None
        )
    se = math.sqrt(variance)
    df = variance * variance / (share_c * share_c / (n_c - 1) + share_t * share_t / (n_t - 1))
    statistic = difference / se
    p_value = min(1.0, 2.0 * t_sf(abs(statistic), df))
    half = -t_ppf(0.5 * (1.0 - confidence), df) * se
    return MeanTest(
        difference, difference - half, difference + half, se, statistic, df, p_value, cohen_d
    )
