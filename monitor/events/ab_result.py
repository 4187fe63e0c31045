"""``AbResult`` v1: the A/B statistics of one experiment, on ``rag.ab-results.v1``
(DESIGN section 8), keyed by experiment id.

One message per experiment each time a window closes: ``scope`` ``cumulative`` (every
event since the experiment's first) or ``hopping`` (the hopping window just closed).
``analyses`` holds spec 000's ``ABTestAnalysis`` fields in snake_case, one per treatment
variant, with ``is_significant`` decided by the always-valid p-value of
``quality.overall`` at ``alpha`` (never by a sample-size rule). ``comparisons`` holds, per
treatment variant and metric, the difference with its 95 % confidence interval (Welch for
means, Newcombe for proportions), the fixed-sample p-value (Welch's t-test or the
two-proportion z-test), the effect size (Cohen's d or h), and the always-valid p-value and
confidence sequence (mixture SPRT), which stay valid when read after every window.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["AB_SCHEMA_VERSION", "AbResult", "Analysis", "Comparison", "SampleRatio", "Span"]

AB_SCHEMA_VERSION: Literal["1"] = "1"

_STRICT = ConfigDict(extra="forbid", frozen=True)


class Span(BaseModel):
    model_config = _STRICT
    scope: Literal["cumulative", "hopping"]
    start_ms: int
    end_ms: int


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
