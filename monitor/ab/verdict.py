"""A comparison's verdict, from the confidence sequence (never from a point estimate).

In order of precedence:

1. ``invalid_sample_ratio_mismatch``: the variants' counts do not fit the split, so the
   assignment or the logging is broken and no comparison can be trusted;
2. ``insufficient_data``: no usable look yet (fewer than ``min_samples`` values a side);
3. ``effect_changed``: the effect is found to have changed during the experiment (the
   sequence's running intersection became empty, or the homogeneity test across
   windows rejected): a cumulative direction would describe a mix, so none is given;
4. ``treatment_higher`` / ``treatment_lower``: the confidence sequence lies entirely
   above / below 0 (the always-valid p-value is then below alpha);
5. ``no_difference_detected`` otherwise.

>>> direction(0.01, 0.04), direction(-0.04, -0.01), direction(-0.01, 0.02), direction(None, None)
('treatment_higher', 'treatment_lower', None, None)
>>> verdict(cs_low=0.01, cs_high=0.04, changed=False, sample_ratio_mismatch=False)
'treatment_higher'
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
) -> Verdict:
    """The verdict of one comparison (see the module docstring)."""
    if sample_ratio_mismatch:
        return "invalid_sample_ratio_mismatch"
    if cs_low is None or cs_high is None:
        return "insufficient_data"
    if changed:
        return "effect_changed"
    return direction(cs_low, cs_high) or "no_difference_detected"
