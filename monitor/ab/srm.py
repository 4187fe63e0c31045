"""Sample-ratio mismatch: are the variants' event counts consistent with the split?

A mismatch (a 50/50 experiment logging 60/40) means the assignment or the logging is
broken, and every other statistic of the experiment is then suspect. The check is
Pearson's chi-square goodness of fit of the observed counts against ``total × share``,
with ``k - 1`` degrees of freedom over the ``k`` variants of positive expected share,
flagged when its p-value is below ``threshold_p`` (0.001 by default: the check runs after
every window, so it is kept strict).

``expected_split`` is normalised to sum to 1. A variant observed but absent from the split
(share 0) holding events is a mismatch outright (``chi2`` ``None``, p-value 0.0); a variant
of the split never observed counts 0. With no events, or fewer than two variants of
positive share, there is nothing to test (``chi2`` and p-value ``None``, no mismatch).

>>> r = sample_ratio_mismatch({"control": 600, "treatment": 400}, {"control": 1, "treatment": 1})
>>> r.chi2, f"{r.p_value:.2e}", r.mismatch, r.expected
(40.0, '2.54e-10', True, {'control': 0.5, 'treatment': 0.5})
>>> sample_ratio_mismatch({"control": 510, "treatment": 490}, {"control": 0.5, "treatment": 0.5}
...                       ).mismatch
False
>>> sample_ratio_mismatch({"a": 10, "rogue": 3}, {"a": 1.0})
SampleRatio(expected={'a': 1.0, 'rogue': 0.0}, observed={'a': 10, 'rogue': 3}, chi2=None, \
p_value=0.0, mismatch=True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from monitor.ab.distributions import chi2_sf
from monitor.events.ab_result import SampleRatio

__all__ = ["sample_ratio_mismatch"]


def sample_ratio_mismatch(
    observed: Mapping[str, int],
    expected_split: Mapping[str, float],
    threshold_p: float = 0.001,
) -> SampleRatio:
    """The chi-square goodness-of-fit check of ``observed`` counts against the split."""
    if not 0.0 < threshold_p < 1.0:
        raise ValueError(f"threshold_p must be in (0, 1), got {threshold_p!r}")
    weights = {name: float(share) for name, share in expected_split.items()}
    if any(not (math.isfinite(w) and w >= 0.0) for w in weights.values()):
        raise ValueError(f"split shares must be finite and >= 0, got {dict(expected_split)}")
    weight_sum = sum(weights.values())
    if weight_sum <= 0.0:
        raise ValueError("the split needs a positive share")
    if any(count < 0 for count in observed.values()):
        raise ValueError(f"counts must be >= 0, got {dict(observed)}")
    names = list(weights) + [name for name in observed if name not in weights]
    expected = {name: weights.get(name, 0.0) / weight_sum for name in names}
    counts = {name: int(observed.get(name, 0)) for name in names}
    total = sum(counts.values())
    if any(counts[name] > 0 and expected[name] == 0.0 for name in names):
        return SampleRatio(
            expected=expected, observed=counts, chi2=None, p_value=0.0, mismatch=True
        )
    tested = [name for name in names if expected[name] > 0.0]
    if total == 0 or len(tested) < 2:
        return SampleRatio(
            expected=expected, observed=counts, chi2=None, p_value=None, mismatch=False
        )
    chi2 = 0.0
    for name in tested:
        expected_count = total * expected[name]
        chi2 += (counts[name] - expected_count) ** 2 / expected_count
    p_value = chi2_sf(chi2, len(tested) - 1)
    return SampleRatio(
        expected=expected,
        observed=counts,
        chi2=chi2,
        p_value=p_value,
        mismatch=p_value < threshold_p,
    )
