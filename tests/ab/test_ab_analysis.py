"""``analyse``: an experiment's windows in, a valid ``AbResult`` out."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping

import numpy as np
import pytest

from monitor.ab.analysis import (
    AB_METRICS,
    AbConfig,
    ExperimentState,
    analyse,
    choose_control,
)
from monitor.ab.msprt import SequentialTest
from monitor.ab.proportions import two_proportions
from monitor.ab.summary import Moments, Summary
from monitor.ab.welch import welch
from monitor.events.ab_result import AbResult, Span
from monitor.windows.aggregate import Aggregate

Merge = Callable[[np.ndarray], Aggregate]
CUMULATIVE = Span(scope="cumulative", start_ms=0, end_ms=60_000)
HOPPING = Span(scope="hopping", start_ms=0, end_ms=60_000)


def _variant(
    rng: np.random.Generator, n: int, quality: float, latency: float, leak: float
) -> dict[str, np.ndarray]:
    """Raw values of every A/B metric for ``n`` events."""
    out = {
        metric: np.clip(rng.normal(quality, 0.15, n), 0.0, 1.0)
        for metric, kind in AB_METRICS.items()
        if metric.startswith("quality.")
    }
    out["latency_ms.total"] = rng.lognormal(np.log(latency), 0.4, n)
    out["crag.incorrect"] = (rng.uniform(size=n) < 0.2).astype(float)
    out["safety.injection.blocked"] = (rng.uniform(size=n) < 0.01).astype(float)
    out["safety.leakage.detected"] = (rng.uniform(size=n) < leak).astype(float)
    out["outcome.abstained"] = (rng.uniform(size=n) < 0.1).astype(float)
    return out


def _summaries(raw: Mapping[str, np.ndarray], merge: Merge) -> dict[str, Summary]:
    return {metric: merge(values) for metric, values in raw.items()}


def test_end_to_end_two_variants(merge: Merge) -> None:
    rng = np.random.default_rng(51)
    raw = {
        "control": _variant(rng, 800, 0.70, 900.0, 0.01),
        "hybrid": _variant(rng, 800, 0.75, 1100.0, 0.05),
    }
    variants = {name: _summaries(metrics, merge) for name, metrics in raw.items()}
    state = ExperimentState()
    result = analyse("exp-7", CUMULATIVE, variants, AbConfig(), state)

    # a valid message, identical after a JSON round trip
    assert AbResult.model_validate_json(result.model_dump_json()) == result
    assert AbResult.model_validate(json.loads(result.model_dump_json())) == result
    assert (result.experiment, result.control, result.alpha) == ("exp-7", "control", 0.05)
    assert [(c.variant, c.metric) for c in result.comparisons] == [
        ("hybrid", metric) for metric in AB_METRICS
    ]

    for comparison in result.comparisons:
        c_values, t_values = raw["control"][comparison.metric], raw["hybrid"][comparison.metric]
        c_sum, t_sum = variants["control"][comparison.metric], variants["hybrid"][comparison.metric]
        assert comparison.kind == AB_METRICS[comparison.metric]
        assert comparison.control_sample_size == c_values.size
        assert comparison.control_mean == pytest.approx(c_values.mean(), rel=1e-12)
        assert comparison.relative_improvement == pytest.approx(
            (t_values.mean() - c_values.mean()) / c_values.mean(), rel=1e-9
        )
        if comparison.kind == "mean":
            expected = welch(c_sum, t_sum)
            assert expected is not None
            assert (comparison.test, comparison.effect_size_kind) == ("welch_t", "cohen_d")
            assert comparison.effect_size == expected.cohen_d
        else:
            rates = two_proportions(c_sum, t_sum)
            assert rates is not None
            assert (comparison.test, comparison.effect_size_kind) == ("two_proportion_z", "cohen_h")
            assert comparison.effect_size == rates.cohen_h
        assert comparison.ci_low is not None and comparison.ci_high is not None
        assert comparison.ci_low <= comparison.difference <= comparison.ci_high  # type: ignore[operator]
        assert comparison.always_valid_p_value is not None
        assert comparison.is_significant == (comparison.always_valid_p_value < 0.05)
        # the always-valid p-value is never below the fixed-sample one here (one look)
        assert comparison.p_value is not None

    by_metric = {c.metric: c for c in result.comparisons}
    assert by_metric["quality.overall"].is_significant  # 0.05 on 800 events per arm
    assert by_metric["latency_ms.total"].is_significant
    assert by_metric["safety.leakage.detected"].is_significant  # 1 % -> 5 %
    assert not by_metric["outcome.abstained"].is_significant  # the same 10 %

    (analysis,) = result.analyses
    quality, latency = by_metric["quality.overall"], by_metric["latency_ms.total"]
    assert analysis.variant == "hybrid"
    assert analysis.control_sample_size == analysis.treatment_sample_size == 800
    assert analysis.control_avg_quality == quality.control_mean
    assert analysis.treatment_avg_quality == quality.treatment_mean
    assert analysis.quality_improvement == quality.relative_improvement
    assert analysis.control_avg_latency == latency.control_mean
    assert analysis.latency_change == latency.relative_improvement
    assert analysis.latency_change == pytest.approx(
        raw["hybrid"]["latency_ms.total"].mean() / raw["control"]["latency_ms.total"].mean() - 1
    )
    assert analysis.is_significant == quality.is_significant

    assert result.sample_ratio.observed == {"control": 800, "hybrid": 800}
    assert result.sample_ratio.expected == {"control": 0.5, "hybrid": 0.5}
    assert not result.sample_ratio.mismatch
    assert set(state.tests) == {("cumulative", "hybrid", metric) for metric in AB_METRICS}


def test_significance_is_never_a_sample_size_rule() -> None:
    """Spec 000 called 100 events per arm significant; equal means are not, at any size."""
    same = {"quality.overall": Moments(50_000, 0.7, 0.0225)}
    result = analyse("e", CUMULATIVE, {"control": same, "b": same}, AbConfig(), ExperimentState())
    assert not result.analyses[0].is_significant
    assert result.comparisons[0].always_valid_p_value == 1.0
    small = {
        "control": {"quality.overall": Moments(9, 0.5, 0.01)},
        "b": {"quality.overall": Moments(9, 0.9, 0.01)},
    }
    early = analyse("e", CUMULATIVE, small, AbConfig(), ExperimentState())
    # too few events for the plug-in variance: no always-valid p-value yet, not significant
    assert early.comparisons[0].always_valid_p_value is None
    assert early.comparisons[0].p_value is not None and early.comparisons[0].p_value < 1e-6
    assert not early.analyses[0].is_significant


def test_cumulative_looks_accumulate_and_state_round_trips(merge: Merge) -> None:
    rng = np.random.default_rng(52)
    config = AbConfig()
    state = ExperimentState()
    totals: dict[str, dict[str, Aggregate]] = {"control": {}, "b": {}}
    p_values = []
    for window in range(6):
        for name, quality in (("control", 0.70), ("b", 0.72)):
            for metric, values in _variant(rng, 150, quality, 900.0, 0.01).items():
                totals[name].setdefault(metric, Aggregate()).merge_in(merge(values))
        span = Span(scope="cumulative", start_ms=0, end_ms=(window + 1) * 60_000)
        result = analyse("e", span, totals, config, state)
        p_values.append(result.comparisons[0].always_valid_p_value)
        # a restored state carries on exactly as the live one
        restored = ExperimentState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert restored == state
        state = restored
    assert state.tests[("cumulative", "b", "quality.overall")].looks == 6
    assert len(state.changes[("cumulative", "b", "quality.overall")].blocks) == 6
    assert set(state.guardrails) == {("cumulative", "b", m) for m in config.guardrail_margins}
    assert all(a >= b for a, b in itertools.pairwise(p_values))  # running min

    # hopping windows: one look each, nothing stored
    before = state.to_dict()
    hop = analyse("e", HOPPING, totals, config, state)
    assert state.to_dict() == before
    fresh = SequentialTest("mean", config.tau2_mean, config.alpha)
    fresh.update(totals["control"]["quality.overall"], totals["b"]["quality.overall"])
    assert hop.comparisons[0].always_valid_p_value == fresh.p_value

    with pytest.raises(ValueError):
        ExperimentState.from_dict({"control": None, "tests": [{"scope": "cumulative"}]})


def test_sample_ratio_mismatch_sixty_forty() -> None:
    def events(n: int) -> dict[str, Summary]:
        return {"quality.overall": Moments(n, 0.7, 0.02)}

    variants = {"control": events(1200), "treatment": events(800)}
    result = analyse("e", CUMULATIVE, variants, AbConfig(), ExperimentState())
    assert result.sample_ratio.mismatch
    assert result.sample_ratio.observed == {"control": 1200, "treatment": 800}
    assert result.sample_ratio.p_value is not None and result.sample_ratio.p_value < 1e-15
    planned = AbConfig(split={"control": 60, "treatment": 40})
    fine = analyse("e", CUMULATIVE, variants, planned, ExperimentState())
    assert not fine.sample_ratio.mismatch
    assert fine.sample_ratio.expected == {"control": 0.6, "treatment": 0.4}
    # too few events to tell
    few = analyse(
        "e",
        CUMULATIVE,
        {"control": events(30), "treatment": events(20)},
        AbConfig(),
        ExperimentState(),
    )
    assert not few.sample_ratio.mismatch


def test_control_choice() -> None:
    assert choose_control(["b", "control", "a"], AbConfig()) == "control"
    assert choose_control(["b", "a"], AbConfig()) == "b"
    assert choose_control(["b", "a"], AbConfig(control="a")) == "a"
    assert choose_control([], AbConfig(control="a")) == "a"
    with pytest.raises(ValueError):
        choose_control([], AbConfig())

    v = {"quality.overall": Moments(100, 0.7, 0.02), "latency_ms.total": Moments(100, 0.0, 0.0)}
    three = analyse("e", CUMULATIVE, {"x": v, "control": v, "y": v}, AbConfig(), ExperimentState())
    assert three.control == "control"
    assert [a.variant for a in three.analyses] == ["x", "y"]
    # a control mean of 0: no relative change
    assert three.analyses[0].latency_change is None

    # a configured control with no events yet: sample sizes 0, no statistics, SRM flags it
    missing = analyse(
        "e", CUMULATIVE, {"x": v, "y": v}, AbConfig(control="base"), ExperimentState()
    )
    assert missing.control == "base"
    assert [a.variant for a in missing.analyses] == ["x", "y"]
    first = missing.comparisons[0]
    assert (first.control_sample_size, first.control_mean, first.difference) == (0, None, None)
    assert first.always_valid_p_value is None and not first.is_significant
    assert missing.sample_ratio.observed == {"base": 0, "x": 100, "y": 100}
    assert missing.sample_ratio.mismatch


def test_a_new_control_restarts_the_tests() -> None:
    v = {"quality.overall": Moments(100, 0.7, 0.02)}
    w = {"quality.overall": Moments(100, 0.8, 0.02)}
    state = ExperimentState()
    analyse("e", CUMULATIVE, {"a": v, "b": w}, AbConfig(), state)
    assert state.control == "a" and ("cumulative", "b", "quality.overall") in state.tests
    analyse("e", CUMULATIVE, {"a": v, "b": w}, AbConfig(control="b"), state)
    assert state.control == "b"
    assert set(state.tests) == {("cumulative", "a", metric) for metric in AB_METRICS}
    # a changed tau2 restarts that kind's tests
    test = state.tests[("cumulative", "a", "quality.overall")]
    analyse("e", CUMULATIVE, {"a": v, "b": w}, AbConfig(control="b", tau2_mean=0.5), state)
    assert state.tests[("cumulative", "a", "quality.overall")] is not test
    assert state.tests[("cumulative", "a", "quality.overall")].looks == 1


def test_config_validation() -> None:
    for kwargs in (
        {"alpha": 0.0},
        {"alpha": 1.0},
        {"tau2_mean": 0.0},
        {"tau2_proportion": -1.0},
        {"srm_threshold_p": 0.0},
        {"split": {"a": -1.0}},
        {"split": {"a": 0.0}},
    ):
        with pytest.raises(ValueError):
            AbConfig(**kwargs)
    split = {"a": 1.0, "b": 3.0}
    config = AbConfig(split=split)
    split["a"] = 100.0  # the config keeps its own copy
    assert config.split == {"a": 1.0, "b": 3.0}
    assert config.tau2("mean") == config.tau2_mean
    assert config.tau2("proportion") == config.tau2_proportion
