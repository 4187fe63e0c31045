"""``AbResult`` v1: the A/B statistics of one experiment, on ``rag.ab-results.v1``
(DESIGN section 8), keyed by experiment id.

One message per experiment each time a window closes: ``scope`` ``cumulative`` (every
event since the experiment's first) or ``hopping`` (the hopping window just closed).
``analyses`` holds spec 000's ``ABTestAnalysis`` fields in snake_case, one per treatment
variant, with ``is_significant`` and ``verdict`` those of ``quality.overall`` and the
guardrail metrics the treatment is worse on. ``comparisons`` holds, per treatment variant
and metric:

- the **verdict** (:data:`Verdict`), from the confidence sequence: ``treatment_higher`` /
  ``treatment_lower`` only when the sequence ``[cs_low, cs_high]`` (mixture SPRT, valid
  when read after every window) excludes 0 on that side and the latest look still
  excludes it, ``inconclusive`` when only earlier looks did, ``no_difference_detected``
  otherwise, ``effect_changed`` once the effect is found to have changed (``change``),
  ``insufficient_data`` before the first usable look, and
  ``invalid_sample_ratio_mismatch`` for every comparison while the sample ratio is off;
  ``is_significant`` is true exactly for the two directions;
- the always-valid p-value (below ``alpha`` exactly when the sequence excludes 0);
- the **fixed-horizon** statistics, valid for one look only: the difference with its
  95 % confidence interval (Welch for means, Newcombe for proportions, ``ci_*``), the
  p-value of Welch's t-test or the two-proportion z-test (``p_value``), the effect size;
- both arms' sample variances (so that results can be differenced: ``ragmon ab --since``);
- for a guardrail metric, ``guardrail``: the one-sided always-valid test of "treatment
  worse than control by more than ``margin``".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = [
    "AB_SCHEMA_VERSION",
    "AbResult",
    "Analysis",
    "Comparison",
    "EffectChange",
    "Guardrail",
    "GuardrailVerdict",
    "SampleRatio",
    "Span",
    "Verdict",
]

AB_SCHEMA_VERSION: Literal["1"] = "1"

_STRICT = ConfigDict(extra="forbid", frozen=True)


class Span(BaseModel):
    model_config = _STRICT
    scope: Literal["cumulative", "hopping"]
    start_ms: int
    end_ms: int


Verdict = Literal[
    "treatment_higher",
    "treatment_lower",
    "no_difference_detected",
    "inconclusive",
    "effect_changed",
    "insufficient_data",
    "invalid_sample_ratio_mismatch",
]
"""A comparison's verdict (see the module docstring)."""

GuardrailVerdict = Literal[
    "worse_beyond_margin",
    "within_margin",
    "undecided",
    "insufficient_data",
    "invalid_sample_ratio_mismatch",
]
"""``worse_beyond_margin``: the one-sided always-valid p-value is below alpha;
``within_margin``: the confidence sequence's upper end is below the margin (the treatment
is shown to be no worse than that); otherwise ``undecided``."""


class EffectChange(BaseModel):
    """The effect changed during the experiment: detected by the confidence sequence's
    running intersection becoming empty (``confidence_sequence``) or by the homogeneity
    test across windows (``homogeneity``, with its p-value); located in the window
    ``[window_start_ms, window_end_ms)``, with the effect before and after it."""

    model_config = _STRICT
    detected_by: Literal["confidence_sequence", "homogeneity"]
    detected_at_ms: int | None
    window_start_ms: int
    window_end_ms: int
    p_value: float | None
    difference_before: float
    difference_after: float


class Guardrail(BaseModel):
    """A guardrail metric's one-sided always-valid test (higher is worse)."""

    model_config = _STRICT
    margin: float
    worse_when: Literal["higher"] = "higher"
    p_value: float | None
    verdict: GuardrailVerdict


class Comparison(BaseModel):
    """One treatment variant against the control on one metric."""

    model_config = _STRICT
    variant: str
    metric: str
    kind: Literal["mean", "proportion"]
    control_sample_size: int
    treatment_sample_size: int
    control_mean: float | None
    treatment_mean: float | None
    control_variance: float | None
    treatment_variance: float | None
    relative_improvement: float | None
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    test: Literal["welch_t", "two_proportion_z"]
    p_value: float | None
    effect_size: float | None
    effect_size_kind: Literal["cohen_d", "cohen_h"]
    always_valid_p_value: float | None
    cs_low: float | None
    cs_high: float | None
    verdict: Verdict
    change: EffectChange | None
    guardrail: Guardrail | None
    is_significant: bool


class Analysis(BaseModel):
    """Spec 000's ``ABTestAnalysis`` in snake_case, for one treatment variant."""

    model_config = _STRICT
    variant: str
    control_sample_size: int
    treatment_sample_size: int
    control_avg_quality: float | None
    treatment_avg_quality: float | None
    quality_improvement: float | None
    control_avg_latency: float | None
    treatment_avg_latency: float | None
    latency_change: float | None
    is_significant: bool
    verdict: Verdict
    guardrails_worse: list[str]


class SampleRatio(BaseModel):
    """Sample-ratio-mismatch check: chi-square of the observed counts against the split."""

    model_config = _STRICT
    expected: dict[str, float]
    observed: dict[str, int]
    chi2: float | None
    p_value: float | None
    mismatch: bool


class AbResult(BaseModel):
    model_config = _STRICT
    schema_version: Literal["1"] = AB_SCHEMA_VERSION
    experiment: str
    control: str
    span: Span
    alpha: float
    analyses: list[Analysis]
    comparisons: list[Comparison]
    sample_ratio: SampleRatio
    invalid_reason: Literal["sample_ratio_mismatch"] | None
