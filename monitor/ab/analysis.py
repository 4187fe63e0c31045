"""One experiment's ``AbResult``: every treatment variant against the control, per metric.

:func:`analyse` takes each variant's window summaries (variant -> metric id ->
:class:`~monitor.ab.summary.Summary`, the variants in first-seen order) and returns the
:class:`~monitor.events.ab_result.AbResult` of DESIGN section 8:

- ``comparisons``: for every treatment variant and every metric of :data:`AB_METRICS`
  (always all of them, so the shape is fixed; a metric without values has sample size 0
  and ``None`` statistics): the means, ``relative_improvement = (m_t - m_c) / m_c``
  (``None`` when the control mean is 0 or missing), the difference with its 95 % interval
  and fixed-sample p-value (:func:`~monitor.ab.welch.welch` for means,
  :func:`~monitor.ab.proportions.two_proportions` for rates), the effect size (Cohen's d
  or h), the always-valid p-value and confidence sequence
  (:class:`~monitor.ab.msprt.SequentialTest`), and ``is_significant`` = always-valid
  p-value ``< alpha``;
- ``analyses``: spec 000's ``ABTestAnalysis`` per treatment variant, quality being
  ``quality.overall`` and latency ``latency_ms.total``; ``is_significant`` is that of the
  ``quality.overall`` comparison: the always-valid p-value decides, never a sample size;
- ``sample_ratio``: :func:`~monitor.ab.srm.sample_ratio_mismatch` of the variants' event
  counts (the count of ``quality.overall``, which every scored event has) against
  ``AbConfig.split`` (an equal split when ``None``).

**Scopes.** ``cumulative`` summaries hold every event since the experiment's first: each
call is one more look of the sequential test of ``(scope, variant, metric)`` kept in the
:class:`ExperimentState`, so its p-value may be read after every window. A ``hopping``
window is a different sample each time (overlapping the previous ones), and a running
minimum over different samples would not be valid: its sequential test is a fresh one
with a single look, ``min(1, 1/Λ)`` of that window alone (valid for that window; reading
many windows is many tests). Only cumulative tests are stored. A change of control, or
of a test's ``alpha`` or mixing variance, restarts the affected tests.

**Control.** :func:`choose_control`: ``AbConfig.control`` when set (even before it has an
event: its sample sizes are then 0), else the variant named ``control``, else the first
variant seen.

>>> from monitor.ab.summary import Moments
>>> from monitor.events.ab_result import Span
>>> variants = {
...     "control": {"quality.overall": Moments(500, 0.70, 0.0225),
...                 "latency_ms.total": Moments(500, 800.0, 40000.0)},
...     "rerank": {"quality.overall": Moments(500, 0.74, 0.0225),
...                "latency_ms.total": Moments(500, 880.0, 40000.0)},
... }
>>> state = ExperimentState()
>>> result = analyse("exp-1", Span(scope="cumulative", start_ms=0, end_ms=60_000), variants,
...                  AbConfig(), state)
>>> a = result.analyses[0]
>>> a.variant, a.control_sample_size, round(a.quality_improvement, 4), a.latency_change
('rerank', 500, 0.0571, 0.1)
>>> a.is_significant, result.sample_ratio.mismatch
(True, False)
>>> q = result.comparisons[0]
>>> q.metric, round(q.ci_low, 4), round(q.ci_high, 4), f"{q.always_valid_p_value:.1e}"
('quality.overall', 0.0214, 0.0586, '9.9e-04')
>>> state.tests[("cumulative", "rerank", "quality.overall")].looks
1
>>> choose_control(["a", "control"], AbConfig()), choose_control(["a", "b"], AbConfig())
('control', 'a')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from monitor.ab.msprt import (
    DEFAULT_TAU2_MEAN,
    DEFAULT_TAU2_PROPORTION,
    MetricKind,
    SequentialResult,
    SequentialTest,
)
from monitor.ab.proportions import two_proportions
from monitor.ab.srm import sample_ratio_mismatch
from monitor.ab.summary import EMPTY, Summary
from monitor.ab.welch import welch
from monitor.events.ab_result import AbResult, Analysis, Comparison, Span

__all__ = [
    "AB_METRICS",
    "LATENCY_METRIC",
    "QUALITY_METRIC",
    "AbConfig",
    "ExperimentState",
    "TestKey",
    "analyse",
    "choose_control",
]

QUALITY_METRIC = "quality.overall"
LATENCY_METRIC = "latency_ms.total"

AB_METRICS: dict[str, MetricKind] = {
    QUALITY_METRIC: "mean",
    "quality.retrieval_confidence": "mean",
    "quality.context_sufficiency": "mean",
    "quality.diversity_score": "mean",
    "quality.estimated_faithfulness": "mean",
    LATENCY_METRIC: "mean",
    "crag.incorrect": "proportion",
    "safety.injection.blocked": "proportion",
    "safety.leakage.detected": "proportion",
    "outcome.abstained": "proportion",
}
"""The metrics compared, in output order: means, then 0/1 rates (``"proportion"``)."""

_CONFIDENCE = 0.95  # DESIGN section 8: the difference with a 95 % confidence interval

TestKey = tuple[str, str, str]
"""``(scope, variant, metric)``."""


@dataclass(frozen=True)
class AbConfig:
    """The A/B settings. ``split``: each variant's expected share of the traffic (any
    positive weights; ``None`` = equal); ``tau2_*``: the mSPRT mixing variances of the
    standardised effect (see :mod:`monitor.ab.msprt`)."""

    alpha: float = 0.05
    control: str | None = None
    split: Mapping[str, float] | None = None
    tau2_mean: float = DEFAULT_TAU2_MEAN
    tau2_proportion: float = DEFAULT_TAU2_PROPORTION
    srm_threshold_p: float = 0.001

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha!r}")
        if not 0.0 < self.srm_threshold_p < 1.0:
            raise ValueError(f"srm_threshold_p must be in (0, 1), got {self.srm_threshold_p!r}")
        for name in ("tau2_mean", "tau2_proportion"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0.0):
                raise ValueError(f"{name} must be > 0, got {value!r}")
        if self.split is not None:
            split = {str(k): float(v) for k, v in self.split.items()}
            if any(not (math.isfinite(v) and v >= 0.0) for v in split.values()):
                raise ValueError(f"split shares must be finite and >= 0, got {split}")
            if sum(split.values()) <= 0.0:
                raise ValueError("the split needs a positive share")
            object.__setattr__(self, "split", MappingProxyType(split))

    def tau2(self, kind: MetricKind) -> float:
        """The mixing variance for a metric of this kind."""
        return self.tau2_mean if kind == "mean" else self.tau2_proportion


def choose_control(variants: Sequence[str], config: AbConfig) -> str:
    """The configured control, else ``"control"`` if seen, else the first variant seen;
    ``ValueError`` when there is none of these."""
    if config.control is not None:
        return config.control
    if "control" in variants:
        return "control"
    if variants:
        return variants[0]
    raise ValueError("no variants to choose a control from")


@dataclass(slots=True)
class ExperimentState:
    """One experiment's sequential tests, keyed by ``(scope, variant, metric)``, and the
    control they compare against."""

    control: str | None = None
    tests: dict[TestKey, SequentialTest] = field(default_factory=dict)

    def sequential_test(
        self, key: TestKey, kind: MetricKind, tau2: float, alpha: float
    ) -> SequentialTest:
        """The stored test of ``key``, created (or restarted, if its settings differ)."""
        test = self.tests.get(key)
        if test is None or (test.kind, test.tau2, test.alpha) != (kind, tau2, alpha):
            test = self.tests[key] = SequentialTest(kind, tau2, alpha)
        return test

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; :meth:`from_dict` restores an equal state."""
        return {
            "control": self.control,
            "tests": [
                {"scope": scope, "variant": variant, "metric": metric, **test.to_dict()}
                for (scope, variant, metric), test in self.tests.items()
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ExperimentState:
        """The inverse of :meth:`to_dict`; ``ValueError`` on malformed data."""
        try:
            control = data["control"]
            tests = {
                (str(item["scope"]), str(item["variant"]), str(item["metric"])): (
                    SequentialTest.from_dict(item)
                )
                for item in data["tests"]
            }
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed ExperimentState data: {exc!r}") from exc
        return cls(None if control is None else str(control), tests)


def analyse(
    experiment: str,
    span: Span,
    variants: Mapping[str, Mapping[str, Summary]],
    config: AbConfig,
    state: ExperimentState,
) -> AbResult:
    """The ``AbResult`` of one experiment for one window (see the module docstring);
    updates ``state`` when ``span.scope`` is ``cumulative``."""
    seen = list(variants)
    control = choose_control(seen, config)
    if state.control != control:
        state.control = control
        state.tests.clear()
    control_metrics = variants.get(control, {})
    comparisons: list[Comparison] = []
    analyses: list[Analysis] = []
    for variant in (name for name in seen if name != control):
        metrics = variants[variant]
        by_metric: dict[str, Comparison] = {}
        for metric, kind in AB_METRICS.items():
            c = control_metrics.get(metric, EMPTY)
            t = metrics.get(metric, EMPTY)
            tau2 = config.tau2(kind)
            if span.scope == "cumulative":
                key = (span.scope, variant, metric)
                sequential = state.sequential_test(key, kind, tau2, config.alpha).update(c, t)
            else:
                sequential = SequentialTest(kind, tau2, config.alpha).update(c, t)
            comparison = _compare(variant, metric, kind, c, t, sequential, config.alpha)
            by_metric[metric] = comparison
            comparisons.append(comparison)
        analyses.append(_analysis(variant, by_metric[QUALITY_METRIC], by_metric[LATENCY_METRIC]))
    names = seen if control in seen else [control, *seen]
    observed = {name: _events(variants.get(name, {})) for name in names}
    split = config.split if config.split is not None else dict.fromkeys(names, 1.0)
    return AbResult(
        experiment=experiment,
        control=control,
        span=span,
        alpha=config.alpha,
        analyses=analyses,
        comparisons=comparisons,
        sample_ratio=sample_ratio_mismatch(observed, split, config.srm_threshold_p),
    )


def _compare(
    variant: str,
    metric: str,
    kind: MetricKind,
    control: Summary,
    treatment: Summary,
    sequential: SequentialResult,
    alpha: float,
) -> Comparison:
    difference: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    p_value: float | None = None
    effect: float | None = None
    if kind == "mean":
        mean_test = welch(control, treatment, _CONFIDENCE)
        if mean_test is not None:
            difference, ci_low, ci_high = mean_test.difference, mean_test.ci_low, mean_test.ci_high
            p_value, effect = mean_test.p_value, mean_test.cohen_d
    else:
        rate_test = two_proportions(control, treatment, _CONFIDENCE)
        if rate_test is not None:
            difference, ci_low, ci_high = rate_test.difference, rate_test.ci_low, rate_test.ci_high
            p_value, effect = rate_test.p_value, rate_test.cohen_h
    always_valid = sequential.p_value
    return Comparison(
        variant=variant,
        metric=metric,
        kind=kind,
        control_sample_size=control.count,
        treatment_sample_size=treatment.count,
        control_mean=control.mean,
        treatment_mean=treatment.mean,
        relative_improvement=_relative(control.mean, treatment.mean),
        difference=difference,
        ci_low=ci_low,
        ci_high=ci_high,
        test="welch_t" if kind == "mean" else "two_proportion_z",
        p_value=p_value,
        effect_size=effect,
        effect_size_kind="cohen_d" if kind == "mean" else "cohen_h",
        always_valid_p_value=always_valid,
        cs_low=sequential.cs_low,
        cs_high=sequential.cs_high,
        is_significant=always_valid is not None and always_valid < alpha,
    )


def _analysis(variant: str, quality: Comparison, latency: Comparison) -> Analysis:
    return Analysis(
        variant=variant,
        control_sample_size=quality.control_sample_size,
        treatment_sample_size=quality.treatment_sample_size,
        control_avg_quality=quality.control_mean,
        treatment_avg_quality=quality.treatment_mean,
        quality_improvement=quality.relative_improvement,
        control_avg_latency=latency.control_mean,
        treatment_avg_latency=latency.treatment_mean,
        latency_change=latency.relative_improvement,
        is_significant=quality.is_significant,
    )


def _relative(control: float | None, treatment: float | None) -> float | None:
    if control is None or treatment is None or control == 0.0:
        return None
    return (treatment - control) / control


def _events(metrics: Mapping[str, Summary]) -> int:
    """A variant's event count: that of ``quality.overall`` (every scored event has it),
    else the largest of its metrics'."""
    quality = metrics.get(QUALITY_METRIC)
    if quality is not None:
        return quality.count
    return max((summary.count for summary in metrics.values()), default=0)
