"""The tests the regression gate runs on per-case values: exact McNemar on paired 0/1
values, the paired t-test, Welch's t-test for unpaired samples and a paired bootstrap
for metrics derived from all cases at once.

Every function returns a two-sided p-value (``1.0`` when there is nothing to test). The
t and normal distributions come from :mod:`monitor.ab.distributions` (scipy); the
values equal ``scipy.stats.binomtest(min(b, c), b + c, 0.5)``, ``ttest_rel`` and
``ttest_ind(equal_var=False)`` to ~1e-12 (checked in ``tests/evaluation/gate``).

>>> mcnemar_exact([1, 1, 1, 1, 1, 0, 0], [0, 0, 0, 0, 0, 1, 0])  # b = 5, c = 1
0.21875
>>> round(paired_t([0.5, 0.6, 0.7, 0.8], [0.4, 0.55, 0.5, 0.7]), 6)
0.037386
>>> paired_t([0.5, 0.6], [0.4, 0.5]), paired_t([0.5, 0.6], [0.5, 0.6])
(0.0, 1.0)
>>> round(welch_p([0.5, 0.6, 0.7], [0.2, 0.3, 0.35, 0.4]), 6)
0.016158
>>> from monitor.evaluation.results import CaseResult
>>> def case(i: int, signal: float) -> CaseResult:
...     return CaseResult(case_id=f"q{i}", origin="d", query="?", signals={"s": signal})
>>> def mean_s(cases):
...     return sum(c.signals["s"] for c in cases) / len(cases)
>>> old = [case(i, 0.8) for i in range(10)]
>>> new = [case(i, 0.5 if i < 8 else 0.8) for i in range(10)]
>>> paired_bootstrap_p(old, new, mean_s, resamples=200, seed=1, worse=lambda d: d < 0)
0.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from monitor.ab.distributions import t_sf
from monitor.ab.summary import Moments
from monitor.ab.welch import welch
from monitor.evaluation.results.case_result import CaseResult

__all__ = ["mcnemar_exact", "paired_bootstrap_p", "paired_t", "welch_p"]


def mcnemar_exact(baseline: Sequence[float], current: Sequence[float]) -> float:
    """Exact McNemar: with ``b`` pairs 1 → 0 and ``c`` pairs 0 → 1, ``min(1, 2 P(X <=
    min(b, c)))`` for ``X ~ Bin(b + c, 1/2)``; ``1.0`` without discordant pairs. The
    values must be 0 or 1, pairwise (``ValueError`` otherwise)."""
    before, after = _paired(baseline, current)
    for name, values in (("baseline", before), ("current", after)):
        if not np.all((values == 0.0) | (values == 1.0)):
            raise ValueError(f"mcnemar_exact: the {name} values must all be 0 or 1")
    b = int(np.count_nonzero((before == 1.0) & (after == 0.0)))
    c = int(np.count_nonzero((before == 0.0) & (after == 1.0)))
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / (1 << n))  # exact integers; one correctly rounded division


def paired_t(baseline: Sequence[float], current: Sequence[float]) -> float:
    """The paired t-test on ``current - baseline``: ``2 P(T_{n-1} > |t|)`` with ``t =
    mean(d) / (sd(d) / sqrt(n))``. All differences equal: ``1.0`` if they are all 0, else
    ``0.0`` (a certain difference); ``n < 2``: ``1.0``."""
    before, after = _paired(baseline, current)
    if before.size < 2:
        return 1.0
    diff = after - before
    if np.all(diff == diff[0]):
        return 1.0 if diff[0] == 0.0 else 0.0
    n = diff.size
    sd = float(np.std(diff, ddof=1))
    t = float(np.mean(diff)) / (sd / math.sqrt(n))
    return min(1.0, 2.0 * t_sf(abs(t), n - 1))


def welch_p(baseline_values: Sequence[float], current_values: Sequence[float]) -> float:
    """Welch's t-test p-value for two unpaired samples (:func:`monitor.ab.welch.welch`);
    ``1.0`` when a side has fewer than two values. Both sides constant: ``1.0`` if the
    means are equal, else ``0.0``."""
    result = welch(_moments(baseline_values), _moments(current_values))
    return 1.0 if result is None else result.p_value


def paired_bootstrap_p(
    baseline_cases: Sequence[CaseResult],
    current_cases: Sequence[CaseResult],
    statistic: Callable[[Sequence[CaseResult]], float | None],
    *,
    resamples: int,
    seed: int,
    worse: Callable[[float], bool],
) -> float:
    """The paired bootstrap p-value of ``statistic(current) - statistic(baseline)``.

    The case ids common to both lists (in ``current_cases`` order; the first case of a
    repeated id) are resampled with replacement ``resamples`` times, the same draw for
    both sides (``numpy`` ``Generator(PCG64(seed))``: deterministic for a seed). With
    ``d`` the difference on a resample, the p-value is the percentile method's ``min(1,
    2 min(P(worse(d) or d == 0), P(not worse(d))))``, i.e. ``2 min(P(d <= 0), P(d >=
    0))`` for ``worse = lambda d: d < 0``. A resample where either side's statistic is
    ``None`` (or NaN) is left out; ``1.0`` when no resample (or no common case) is left.
    """
    if resamples < 1:
        raise ValueError(f"paired_bootstrap_p: resamples must be >= 1, got {resamples!r}")
    before_by_id: dict[str, CaseResult] = {}
    for case in baseline_cases:
        before_by_id.setdefault(case.case_id, case)
    pairs: dict[str, tuple[CaseResult, CaseResult]] = {}
    for case in current_cases:
        if case.case_id in before_by_id and case.case_id not in pairs:
            pairs[case.case_id] = (before_by_id[case.case_id], case)
    if not pairs:
        return 1.0
    before = [pair[0] for pair in pairs.values()]
    after = [pair[1] for pair in pairs.values()]
    rng = np.random.Generator(np.random.PCG64(seed))
    draws = rng.integers(0, len(pairs), size=(resamples, len(pairs)))
    not_worse = worse_or_tie = valid = 0
    for row in draws:
        old = statistic([before[i] for i in row])
        new = statistic([after[i] for i in row])
        if old is None or new is None or math.isnan(old) or math.isnan(new):
            continue
        d = new - old
        valid += 1
        is_worse = worse(d)
        not_worse += not is_worse
        worse_or_tie += is_worse or d == 0.0
    if valid == 0:
        return 1.0
    return min(1.0, 2.0 * min(not_worse, worse_or_tie) / valid)


def _paired(
    baseline: Sequence[float], current: Sequence[float]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    before = np.asarray(baseline, dtype=np.float64)
    after = np.asarray(current, dtype=np.float64)
    if before.shape != after.shape or before.ndim != 1:
        raise ValueError(
            f"paired values need two flat sequences of one length, got {before.shape} and "
            f"{after.shape}"
        )
    return before, after


def _moments(values: Sequence[float]) -> Moments:
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return Moments(0, None, None)
    variance = float(np.var(x, ddof=1)) if x.size > 1 else None
    return Moments(int(x.size), float(np.mean(x)), variance)
