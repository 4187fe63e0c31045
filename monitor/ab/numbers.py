"""Numbers as people read them in the A/B outputs (``ragmon ab``, the demo line).

- a p-value below ``1e-4`` prints as ``<1e-4`` (a float's ``0`` or ``1.3e-47`` suggests a
  precision no model assumption has), else with four decimals;
- a difference always carries its sign, an interval is ``[low, high]`` with signs;
- a verdict is words: ``treatment higher``, ``no difference detected``,
  ``invalid: sample ratio mismatch``.

>>> p_text(0.0), p_text(3e-7), p_text(0.00012), p_text(0.548), p_text(None)
('<1e-4', '<1e-4', '0.0001', '0.5480', '-')
>>> signed(-0.00147), signed(0.04), signed(812.34), interval(-0.0063, 0.0033)
('-0.00147', '+0.04', '+812.3', '[-0.0063, +0.0033]')
>>> verdict_text("invalid_sample_ratio_mismatch"), verdict_text("treatment_lower")
('invalid: sample ratio mismatch', 'treatment lower')
"""

from __future__ import annotations

__all__ = ["P_FLOOR", "interval", "p_text", "plain", "signed", "verdict_text"]

P_FLOOR = 1e-4
"""Below this, a p-value prints as ``<1e-4``."""

_VERDICTS = {
    "treatment_higher": "treatment higher",
    "treatment_lower": "treatment lower",
    "no_difference_detected": "no difference detected",
    "inconclusive": "inconclusive: the latest look no longer excludes 0",
    "effect_changed": "effect changed during the experiment",
    "insufficient_data": "too little data",
    "invalid_sample_ratio_mismatch": "invalid: sample ratio mismatch",
    "worse_beyond_margin": "WORSE beyond the margin",
    "within_margin": "within the margin",
    "undecided": "undecided",
}


def p_text(p: float | None) -> str:
    """A p-value: ``<1e-4`` below :data:`P_FLOOR`, else four decimals; ``-`` for none."""
    if p is None:
        return "-"
    return f"<{P_FLOOR:.0e}".replace("e-04", "e-4") if p < P_FLOOR else f"{p:.4f}"


def signed(x: float | None, digits: int = 4) -> str:
    """``x`` with an explicit sign and ``digits`` significant digits; ``-`` for none."""
    return "-" if x is None else f"{x:+.{digits}g}"


def plain(x: float | None, digits: int = 4) -> str:
    """``x`` with ``digits`` significant digits; ``-`` for none."""
    return "-" if x is None else f"{x:.{digits}g}"


def interval(low: float | None, high: float | None, digits: int = 2) -> str:
    """``[low, high]`` with signs, ``digits`` significant digits (``-`` for none)."""
    if low is None or high is None:
        return "-"
    return f"[{signed(low, digits)}, {signed(high, digits)}]"


def verdict_text(verdict: str) -> str:
    """A verdict (of a comparison or a guardrail) in words."""
    return _VERDICTS.get(verdict, verdict.replace("_", " "))
