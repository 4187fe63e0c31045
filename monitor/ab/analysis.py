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
  (:class:`~monitor.ab.msprt.SequentialTest`), the change found by
  :class:`~monitor.ab.homogeneity.HomogeneityTest` or by the sequence becoming empty,
  the verdict (:func:`~monitor.ab.verdict.verdict`: the direction only when the
  confidence sequence excludes 0 on that side) and ``is_significant`` (a direction was
  found); for the metrics of ``AbConfig.guardrail_margins``, the guardrail verdict
  (:class:`~monitor.ab.guardrail.GuardrailTest`);
- ``analyses``: spec 000's ``ABTestAnalysis`` per treatment variant, quality being
  ``quality.overall`` and latency ``latency_ms.total``; ``is_significant`` and
  ``verdict`` are those of the ``quality.overall`` comparison (never a sample-size rule),
  ``guardrails_worse`` the guardrail metrics found worse beyond their margin;
- ``sample_ratio``: :func:`~monitor.ab.srm.sample_ratio_mismatch` of the variants' event
  counts (the count of ``quality.overall``, which every scored event has) against
  ``AbConfig.split`` (an equal split when ``None``). A mismatch invalidates every verdict
  (``invalid_sample_ratio_mismatch``, ``invalid_reason``): the statistics are still
  computed and shown, the verdicts are not given.

**Scopes.** ``cumulative`` summaries hold every event since the experiment's first: each
call is one more look of the sequential test of ``(scope, variant, metric)`` kept in the
:class:`ExperimentState`, so its p-value may be read after every window. A ``hopping``
window is a different sample each time (overlapping the previous ones), and a running
minimum over different samples would not be valid: its sequential test is a fresh one
with a single look, ``min(1, 1/Λ)`` of that window alone (valid for that window; reading
many windows is many tests), and it has no change detection (one window has one
effect). Only cumulative tests are stored; the homogeneity test of a cumulative
``(variant, metric)`` sees every look, so an effect that reverses is reported as
``effect_changed`` with the window where it changed. A change of control, or
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
...                "latency_ms.total": Moments(500, 1000.0, 40000.0)},
... }
>>> state = ExperimentState()
>>> result = analyse("exp-1", Span(scope="cumulative", start_ms=0, end_ms=60_000), variants,
...                  AbConfig(), state)
>>> a = result.analyses[0]
>>> a.variant, a.control_sample_size, round(a.quality_improvement, 4), a.latency_change
('rerank', 500, 0.0571, 0.25)
>>> a.is_significant, a.verdict, a.guardrails_worse, result.sample_ratio.mismatch
(True, 'treatment_higher', ['latency_ms.total'], False)
>>> q = result.comparisons[0]
>>> q.metric, round(q.ci_low, 4), round(q.ci_high, 4), f"{q.always_valid_p_value:.1e}"
('quality.overall', 0.0214, 0.0586, '9.9e-04')
>>> round(q.cs_low, 4), round(q.cs_high, 4), q.verdict
(0.0106, 0.0694, 'treatment_higher')
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

from monitor.ab import guardrail as guardrails
from monitor.ab.guardrail import GuardrailTest
from monitor.ab.homogeneity import HomogeneityTest
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
from monitor.ab.verdict import DIRECTIONS, verdict
from monitor.ab.welch import welch
from monitor.events.ab_result import (
    AbResult,
    Analysis,
    Comparison,
    EffectChange,
    Guardrail,
    Span,
)

__all__ = [
    "AB_METRICS",
    "DEFAULT_GUARDRAIL_MARGINS",
    "LATENCY_METRIC",
    "QUALITY_METRIC",
    "AbConfig",
    "ExperimentState",
    "TestKey",
    "analyse",
    "choose_control",
    "look",
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

DEFAULT_GUARDRAIL_MARGINS: dict[str, float] = {
    LATENCY_METRIC: 100.0,
    "crag.incorrect": 0.02,
    "safety.injection.blocked": 0.01,
    "safety.leakage.detected": 0.005,
    "outcome.abstained": 0.02,
}
"""The guardrail metrics (higher is worse) and how much worse the treatment may be, in
the metric's unit (milliseconds, or a difference of rates): 100 ms of mean latency, 2
points of CRAG ``incorrect`` and of abstention, 1 point of injection blocks, half a point
of leakage."""

_CONFIDENCE = 0.95  # DESIGN section 8: the difference with a 95 % confidence interval

TestKey = tuple[str, str, str]
"""``(scope, variant, metric)``."""


@dataclass(frozen=True)
class AbConfig:
    """The A/B settings. ``split``: each variant's expected share of the traffic (any
    positive weights; ``None`` = equal); ``tau2_*``: the mSPRT mixing variances of the
    standardised effect (see :mod:`monitor.ab.msprt`); ``guardrail_margins``: the
    guardrail metrics and the margin each may worsen by (:mod:`monitor.ab.guardrail`);
    ``change_alpha``: the level of the homogeneity test across windows, over all looks
    (stricter than ``alpha``: a false "effect changed" withholds a verdict)."""

    alpha: float = 0.05
    control: str | None = None
    split: Mapping[str, float] | None = None
    tau2_mean: float = DEFAULT_TAU2_MEAN
    tau2_proportion: float = DEFAULT_TAU2_PROPORTION
    srm_threshold_p: float = 0.001
    change_alpha: float = 0.01
    guardrail_margins: Mapping[str, float] = field(
        default_factory=lambda: dict(DEFAULT_GUARDRAIL_MARGINS)
    )

    def __post_init__(self) -> None:
        margins = {str(k): float(v) for k, v in self.guardrail_margins.items()}
        for metric, margin in margins.items():
            if metric not in AB_METRICS:
                raise ValueError(f"guardrail metric {metric!r} is not an A/B metric")
            if not (math.isfinite(margin) and margin >= 0.0):
                raise ValueError(f"guardrail margin of {metric} must be >= 0, got {margin!r}")
        object.__setattr__(self, "guardrail_margins", MappingProxyType(margins))
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha!r}")
        if not 0.0 < self.change_alpha < 1.0:
            raise ValueError(f"change_alpha must be in (0, 1), got {self.change_alpha!r}")
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
    control they compare against: the two-sided mSPRT (``tests``), the homogeneity test
    (``changes``) and, for guardrail metrics, the one-sided test (``guardrails``)."""

    control: str | None = None
    tests: dict[TestKey, SequentialTest] = field(default_factory=dict)
    changes: dict[TestKey, HomogeneityTest] = field(default_factory=dict)
    guardrails: dict[TestKey, GuardrailTest] = field(default_factory=dict)

    def clear(self) -> None:
        """Forget every test (a new control)."""
        self.tests.clear()
        self.changes.clear()
        self.guardrails.clear()

    def sequential_test(
        self, key: TestKey, kind: MetricKind, tau2: float, alpha: float
    ) -> SequentialTest:
        """The stored test of ``key``, created (or restarted, if its settings differ)."""
        test = self.tests.get(key)
        if test is None or (test.kind, test.tau2, test.alpha) != (kind, tau2, alpha):
            test = self.tests[key] = SequentialTest(kind, tau2, alpha)
            self.changes.pop(key, None)
            self.guardrails.pop(key, None)
        return test

    def homogeneity_test(self, key: TestKey, kind: MetricKind, alpha: float) -> HomogeneityTest:
        """The stored homogeneity test of ``key``, created (or restarted) as needed."""
        test = self.changes.get(key)
        if test is None or (test.kind, test.alpha) != (kind, alpha):
            test = self.changes[key] = HomogeneityTest(kind, alpha)
        return test

    def guardrail_test(
        self, key: TestKey, kind: MetricKind, tau2: float, alpha: float, margin: float
    ) -> GuardrailTest:
        """The stored guardrail test of ``key``, created (or restarted) as needed."""
        test = self.guardrails.get(key)
        if test is None or (test.kind, test.tau2, test.alpha, test.margin) != (
            kind,
            tau2,
            alpha,
            margin,
        ):
            test = self.guardrails[key] = GuardrailTest(kind, tau2, alpha, margin)
        return test

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; :meth:`from_dict` restores an equal state."""
        return {
            "control": self.control,
            "tests": [
                {"scope": scope, "variant": variant, "metric": metric, **test.to_dict()}
                for (scope, variant, metric), test in self.tests.items()
            ],
            "changes": [
                {"scope": scope, "variant": variant, "metric": metric, **test.to_dict()}
                for (scope, variant, metric), test in self.changes.items()
            ],
            "guardrails": [
                {"scope": scope, "variant": variant, "metric": metric, **test.to_dict()}
                for (scope, variant, metric), test in self.guardrails.items()
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
            changes = {
                (str(item["scope"]), str(item["variant"]), str(item["metric"])): (
                    HomogeneityTest.from_dict(item)
                )
                for item in data.get("changes", [])
            }
            guards = {
                (str(item["scope"]), str(item["variant"]), str(item["metric"])): (
                    GuardrailTest.from_dict(item)
                )
                for item in data.get("guardrails", [])
            }
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed ExperimentState data: {exc!r}") from exc
        return cls(None if control is None else str(control), tests, changes, guards)


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
        state.clear()
    names = seen if control in seen else [control, *seen]
    observed = {name: _events(variants.get(name, {})) for name in names}
    split = config.split if config.split is not None else dict.fromkeys(names, 1.0)
    sample_ratio = sample_ratio_mismatch(observed, split, config.srm_threshold_p)
    control_metrics = variants.get(control, {})
    comparisons: list[Comparison] = []
    analyses: list[Analysis] = []
    for variant in (name for name in seen if name != control):
        metrics = variants[variant]
        by_metric: dict[str, Comparison] = {}
        for metric, kind in AB_METRICS.items():
            c = control_metrics.get(metric, EMPTY)
            t = metrics.get(metric, EMPTY)
            comparison = _compare(
                variant, metric, kind, c, t, span, config, state, sample_ratio.mismatch
            )
            by_metric[metric] = comparison
            comparisons.append(comparison)
        analyses.append(_analysis(variant, by_metric))
    return AbResult(
        experiment=experiment,
        control=control,
        span=span,
        alpha=config.alpha,
        analyses=analyses,
        comparisons=comparisons,
        sample_ratio=sample_ratio,
        invalid_reason="sample_ratio_mismatch" if sample_ratio.mismatch else None,
    )


def look(
    key: TestKey,
    kind: MetricKind,
    control: Summary,
    treatment: Summary,
    span: Span,
    config: AbConfig,
    state: ExperimentState,
) -> tuple[SequentialResult, EffectChange | None, float | None]:
    """One look at ``key = (scope, variant, metric)``: the two-sided sequential result,
    the change detected so far and the guardrail p-value (``None`` for a metric that is
    not a guardrail); updates ``state`` for a cumulative span. :func:`analyse` builds each
    comparison from it; simulations call it directly."""
    tau2 = config.tau2(kind)
    margin = config.guardrail_margins.get(key[2])
    if span.scope != "cumulative":
        once = SequentialTest(kind, tau2, config.alpha).update(control, treatment)
        guard = None
        if margin is not None:
            guard = GuardrailTest(kind, tau2, config.alpha, margin).update(control, treatment)
        return once, None, guard
    test = state.sequential_test(key, kind, tau2, config.alpha)
    sequential = test.update(control, treatment, span.end_ms)
    homogeneity = state.homogeneity_test(key, kind, config.change_alpha)
    change = homogeneity.update(control, treatment, span.start_ms, span.end_ms)
    if change is None and sequential.emptied:
        change = homogeneity.locate(control, treatment, "confidence_sequence", test.emptied_ms)
        if change is None:  # too few blocks to place it: the look where it broke
            end = test.emptied_ms if test.emptied_ms is not None else span.end_ms
            change = EffectChange(
                detected_by="confidence_sequence",
                detected_at_ms=test.emptied_ms,
                window_start_ms=span.start_ms,
                window_end_ms=end,
                p_value=None,
                difference_before=0.5 * ((test.cs_low or 0.0) + (test.cs_high or 0.0)),
                difference_after=_difference(control, treatment),
            )
        homogeneity.change = change
    guard = None
    if margin is not None:
        guard = state.guardrail_test(key, kind, tau2, config.alpha, margin).update(
            control, treatment
        )
    return sequential, change, guard


def _below(p_value: float | None, alpha: float) -> bool:
    return p_value is not None and p_value < alpha


def _difference(control: Summary, treatment: Summary) -> float:
    if control.mean is None or treatment.mean is None:
        return 0.0
    return treatment.mean - control.mean


def _compare(
    variant: str,
    metric: str,
    kind: MetricKind,
    control: Summary,
    treatment: Summary,
    span: Span,
    config: AbConfig,
    state: ExperimentState,
    mismatch: bool,
) -> Comparison:
    key = (span.scope, variant, metric)
    sequential, change, guard_p = look(key, kind, control, treatment, span, config, state)
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
    found = verdict(
        cs_low=sequential.cs_low,
        cs_high=sequential.cs_high,
        changed=change is not None,
        sample_ratio_mismatch=mismatch,
        latest_excludes_zero=_below(sequential.latest_p_value, config.alpha),
    )
    guardrail: Guardrail | None = None
    margin = config.guardrail_margins.get(metric)
    if margin is not None:
        guard_verdict = guardrails.verdict(guard_p, config.alpha, margin, sequential.cs_high)
        guardrail = Guardrail(
            margin=margin,
            p_value=guard_p,
            verdict="invalid_sample_ratio_mismatch" if mismatch else guard_verdict,
        )
    return Comparison(
        variant=variant,
        metric=metric,
        kind=kind,
        control_sample_size=control.count,
        treatment_sample_size=treatment.count,
        control_mean=control.mean,
        treatment_mean=treatment.mean,
        control_variance=control.variance,
        treatment_variance=treatment.variance,
        relative_improvement=_relative(control.mean, treatment.mean),
        difference=difference,
        ci_low=ci_low,
        ci_high=ci_high,
        test="welch_t" if kind == "mean" else "two_proportion_z",
        p_value=p_value,
        effect_size=effect,
        effect_size_kind="cohen_d" if kind == "mean" else "cohen_h",
        always_valid_p_value=sequential.p_value,
        cs_low=sequential.cs_low,
        cs_high=sequential.cs_high,
        verdict=found,
        change=change,
        guardrail=guardrail,
        is_significant=found in DIRECTIONS,
    )


def _analysis(variant: str, by_metric: Mapping[str, Comparison]) -> Analysis:
    quality, latency = by_metric[QUALITY_METRIC], by_metric[LATENCY_METRIC]
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
        verdict=quality.verdict,
        guardrails_worse=[
            c.metric
            for c in by_metric.values()
            if c.guardrail is not None and c.guardrail.verdict == "worse_beyond_margin"
        ],
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
