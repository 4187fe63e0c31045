"""A comparison's verdict, from the confidence sequence (never from a point estimate).

In order of precedence:

1. ``invalid_sample_ratio_mismatch``: the variants' counts do not fit the split, so the
   assignment or the logging is broken and no comparison can be trusted;
2. ``insufficient_data``: no usable look yet (fewer than ``min_samples`` values a side);
3. ``effect_changed``: the effect is found to have changed during the experiment (the
   sequence's running intersection became empty, or the homogeneity test across
   windows rejected): a cumulative direction would describe a mix, so none is given;
4. ``treatment_higher`` / ``treatment_lower``: the confidence sequence lies entirely
   above / below 0 (the always-valid p-value is then below alpha) *and* the latest look
   still excludes 0 by itself (its own ``1 / Λ`` below alpha): the running intersection
   keeps the tightest bound ever seen, so an effect that faded or turned would otherwise
   keep its early direction until the change is detected;
5. ``inconclusive``: the sequence excludes 0 but the latest look no longer does (the
   evidence weakened: a changing effect, or noise; keep watching or use ``--since``);
6. ``no_difference_detected`` otherwise.

Simulated (``tests/ab/test_ab_verdict_simulation.py``), the latest-look condition costs
little power (0.84 instead of 0.86 at 300 events per arm for a 0.33 SD effect) and stops
a reversed effect from reading "higher" while its change is not detected yet.

>>> direction(0.01, 0.04), direction(-0.04, -0.01), direction(-0.01, 0.02), direction(None, None)
('treatment_higher', 'treatment_lower', None, None)
>>> verdict(cs_low=0.01, cs_high=0.04, changed=False, sample_ratio_mismatch=False)
'treatment_higher'
>>> verdict(cs_low=0.01, cs_high=0.04, changed=False, sample_ratio_mismatch=False,
...         latest_excludes_zero=False)
'inconclusive'
>>> verdict(cs_low=0.01, cs_high=0.04, changed=True, sample_ratio_mismatch=False)
'effect_changed'
>>> verdict(cs_low=0.01, cs_high=0.04, changed=False, sample_ratio_mismatch=True)
'invalid_sample_ratio_mismatch'
>>> verdict(cs_low=None, cs_high=None, changed=False, sample_ratio_mismatch=False)
'insufficient_data'
"""

from __future__ import annotations

from typing import Literal

from monitor.events.ab_result import Verdict

__all__ = ["DIRECTIONS", "direction", "verdict"]

DIRECTIONS: frozenset[Verdict] = frozenset({"treatment_higher", "treatment_lower"})
"""The verdicts that state a direction (``is_significant``)."""


def direction(
    cs_low: float | None, cs_high: float | None
) -> Literal["treatment_higher", "treatment_lower"] | None:
    """The side of 0 the confidence sequence lies on, if it excludes 0."""
    if cs_low is None or cs_high is None:
        return None
    if cs_low > 0.0:
        return "treatment_higher"
    if cs_high < 0.0:
        return "treatment_lower"
    return None


def verdict(
    *,
    cs_low: float | None,
    cs_high: float | None,
    changed: bool,
    sample_ratio_mismatch: bool,
    latest_excludes_zero: bool = True,
) -> Verdict:
    """The verdict of one comparison (see the module docstring); ``latest_excludes_zero``:
    the latest look's own interval excludes 0 (its p-value is below alpha)."""
    if sample_ratio_mismatch:
        return "invalid_sample_ratio_mismatch"
    if cs_low is None or cs_high is None:
        return "insufficient_data"
    if changed:
        return "effect_changed"
    side = direction(cs_low, cs_high)
    if side is None:
        return "no_difference_detected"
    return side if latest_excludes_zero else "inconclusive"
