"""Simulations of the verdicts, peeking after every window as the worker does.

Seeded; the data and the cumulative summaries of every experiment, arm and window are
computed at once with numpy (counts, sums and sums of squares, cumulated over windows);
each look then goes through the same code the worker runs: :func:`monitor.ab.analysis.look`
(the mSPRT, the homogeneity test, the guardrail test, with their state) and
:func:`monitor.ab.verdict.verdict`, or :func:`~monitor.ab.analysis.analyse` whole.

- A/A: the direction verdict ("treatment higher/lower") is given at *any* of 20 looks in
  at most alpha of the experiments, and so is "effect changed";
- power: a difference of 0.05 (0.33 SD) is found as "treatment higher";
- an effect that reverses halfway (+0.05, then -0.05) is reported as "effect changed"
  within a few windows of the reversal, placed at the reversal, and never ends as a
  stable "treatment higher";
- guardrails: latency 25 % worse is flagged while quality improves; at a true latency
  difference equal to the margin (the edge of the null) the flag stays below alpha;
- a sample ratio mismatch replaces every verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from monitor.ab.analysis import QUALITY_METRIC, AbConfig, ExperimentState, analyse, look
from monitor.ab.summary import Moments
from monitor.ab.verdict import verdict
from monitor.events.ab_result import Span

EXPERIMENTS, WINDOWS, PER_WINDOW = 500, 20, 50
ALPHA = 0.05
WINDOW_MS = 60_000


def cumulative_moments(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``values``: (experiments, arms, windows, events) -> count, mean, sample variance
    of everything up to and including each window, each (experiments, arms, windows)."""
    events = values.shape[-1]
    count = events * np.arange(1, values.shape[2] + 1, dtype=np.float64)
    mean_w = values.mean(axis=-1)
    m2_w = ((values - mean_w[..., None]) ** 2).sum(axis=-1)
    total = np.cumsum(mean_w * events, axis=2)
    mean = total / count
    # the windows' M2 plus the spread of their means around the running mean (exact merge)
    between = np.cumsum(events * mean_w**2, axis=2) - count * mean**2
    m2 = np.cumsum(m2_w, axis=2) + between
    return np.broadcast_to(count, mean.shape), mean, np.maximum(m2, 0.0) / (count - 1)


@dataclass
class Run:
    verdicts: np.ndarray  # (experiments, windows) of str
    changed_window: np.ndarray  # (experiments,) the window index where the change is placed
    guardrail_p: np.ndarray  # (experiments, windows), NaN when none


def run(values: np.ndarray, metric: str = QUALITY_METRIC, config: AbConfig | None = None) -> Run:
    """Every experiment looked at after every window through :func:`look`."""
    config = config or AbConfig(alpha=ALPHA)
    kind = "proportion" if metric.startswith(("crag.", "safety.", "outcome.")) else "mean"
    count, mean, variance = cumulative_moments(values)
    experiments, _, windows = mean.shape
    verdicts = np.empty((experiments, windows), dtype=object)
    changed_window = np.full(experiments, -1)
    guardrail_p = np.full((experiments, windows), np.nan)
    for e in range(experiments):
        state = ExperimentState()
        for w in range(windows):
            c = Moments(int(count[e, 0, w]), float(mean[e, 0, w]), float(variance[e, 0, w]))
            t = Moments(int(count[e, 1, w]), float(mean[e, 1, w]), float(variance[e, 1, w]))
            span = Span(scope="cumulative", start_ms=0, end_ms=(w + 1) * WINDOW_MS)
            key = ("cumulative", "treatment", metric)
            result, change, guard = look(key, kind, c, t, span, config, state)  # type: ignore[arg-type]
            verdicts[e, w] = verdict(
                cs_low=result.cs_low,
                cs_high=result.cs_high,
                changed=change is not None,
                sample_ratio_mismatch=False,
                latest_excludes_zero=(result.latest_p_value or 1.0) < config.alpha,
            )
            if change is not None and changed_window[e] < 0:
                changed_window[e] = change.window_start_ms // WINDOW_MS
            if guard is not None:
                guardrail_p[e, w] = guard
    return Run(verdicts, changed_window, guardrail_p)


def _quality(rng: np.random.Generator, effect: np.ndarray | float = 0.0) -> np.ndarray:
    values = rng.normal(0.7, 0.15, (EXPERIMENTS, 2, WINDOWS, PER_WINDOW))
    values[:, 1] += np.asarray(effect).reshape(1, -1, 1) if np.ndim(effect) else effect
    return values


def test_cumulative_moments_are_the_merged_aggregates() -> None:
    from monitor.windows.aggregate import Aggregate

    rng = np.random.default_rng(7)
    values = rng.normal(0.7, 0.15, (2, 2, 5, 30))
    count, mean, variance = cumulative_moments(values)
    merged = Aggregate.from_array(values[1, 0, :3].ravel())
    assert count[1, 0, 2] == merged.count == 90
    assert mean[1, 0, 2] == pytest.approx(merged.mean, rel=1e-12)
    assert variance[1, 0, 2] == pytest.approx(merged.variance, rel=1e-9)


def test_a_a_direction_and_change_false_positives_stay_under_alpha(
    record_property: pytest.RecordProperty,
) -> None:
    rng = np.random.default_rng(2024)
    result = run(_quality(rng))
    direction = np.isin(result.verdicts, ["treatment_higher", "treatment_lower"]).any(axis=1)
    changed = (result.verdicts == "effect_changed").any(axis=1)
    fpr, change_fpr = float(direction.mean()), float(changed.mean())
    record_property("direction_fpr", fpr)
    record_property("change_fpr", change_fpr)
    print(
        f"\nA/A, {EXPERIMENTS} experiments x {WINDOWS} looks of {PER_WINDOW} events per arm: "
        f"a direction at any look {fpr:.3f}, 'effect changed' at any look {change_fpr:.3f}"
    )
    assert fpr <= ALPHA
    assert change_fpr <= ALPHA


def test_a_a_on_a_rate_with_guardrail(record_property: pytest.RecordProperty) -> None:
    rng = np.random.default_rng(2025)
    values = (rng.uniform(size=(EXPERIMENTS, 2, WINDOWS, PER_WINDOW)) < 0.1).astype(np.float64)
    result = run(values, "outcome.abstained")
    direction = np.isin(result.verdicts, ["treatment_higher", "treatment_lower"]).any(axis=1)
    guard = (result.guardrail_p < ALPHA).any(axis=1)
    record_property("direction_fpr_rate", float(direction.mean()))
    print(
        f"\nA/A on a 10 % rate: a direction at any look {direction.mean():.3f}, "
        f"guardrail flagged at any look {guard.mean():.3f}"
    )
    assert direction.mean() <= ALPHA
    assert guard.mean() <= ALPHA


def test_power_against_a_difference_of_0_05(record_property: pytest.RecordProperty) -> None:
    rng = np.random.default_rng(2026)
    result = run(_quality(rng, 0.05))
    higher = result.verdicts == "treatment_higher"
    power = higher.mean(axis=0)
    record_property("power_by_look", [round(float(p), 3) for p in power])
    print(
        "\n'treatment higher' (difference 0.05, SD 0.15) by events per arm: "
        + ", ".join(f"{(w + 1) * PER_WINDOW}: {power[w]:.3f}" for w in (1, 3, 5, 9, 19))
    )
    assert power[5] > 0.8  # 300 events per arm
    assert power[-1] > 0.99  # 1000 events per arm
    assert not (result.verdicts == "treatment_lower").any()


def test_an_effect_that_reverses_halfway_is_reported_as_changed(
    record_property: pytest.RecordProperty,
) -> None:
    rng = np.random.default_rng(2027)
    half = WINDOWS // 2
    effect = np.where(np.arange(WINDOWS) < half, 0.05, -0.05)
    result = run(_quality(rng, effect))
    changed = result.verdicts == "effect_changed"
    detected = changed.any(axis=1)
    first = np.where(detected, changed.argmax(axis=1), WINDOWS)
    delay = first - half  # windows after the first reversed window
    placed = result.changed_window[detected]
    record_property("reversal_detected", float(detected.mean()))
    record_property("reversal_delay_median", float(np.median(delay[detected])))
    print(
        f"\nreversal +0.05 -> -0.05 after {half} windows of {PER_WINDOW} per arm: reported as "
        f"changed in {detected.mean():.3f} of experiments; windows after the reversal: "
        f"median {np.median(delay[detected]):.0f}, 90th percentile "
        f"{np.percentile(delay[detected], 90):.0f}; placed within one window of it in "
        f"{(np.abs(placed - half) <= 1).mean():.3f}; final verdicts "
        f"{dict(zip(*np.unique(result.verdicts[:, -1], return_counts=True), strict=True))}"
    )
    assert detected.mean() > 0.95
    assert np.median(delay[detected]) <= 3
    assert (np.abs(placed - half) <= 1).mean() > 0.8
    # never a stable "higher": once changed, always changed; and no run ends "higher"
    assert (np.diff(changed.astype(int), axis=1) >= 0).all()
    assert not (result.verdicts[:, -1] == "treatment_higher").any()
    assert (result.verdicts[:, half + 5 :] == "treatment_higher").mean() <= 0.01
    # before the reversal, a change is as rare as under A/A
    assert changed[:, :half].any(axis=1).mean() <= ALPHA


def test_guardrail_regression_is_flagged_while_quality_improves(
    record_property: pytest.RecordProperty,
) -> None:
    rng = np.random.default_rng(2028)
    experiments, windows = 200, 10
    quality = rng.normal(0.7, 0.15, (experiments, 2, windows, PER_WINDOW))
    quality[:, 1] += 0.05
    latency = rng.lognormal(np.log(800.0), 0.4, (experiments, 2, windows, PER_WINDOW))
    latency[:, 1] *= 1.25  # +200 ms against a margin of 100 ms
    config = AbConfig(alpha=ALPHA)
    q, lat = cumulative_moments(quality), cumulative_moments(latency)
    flagged = both = 0
    for e in range(experiments):
        state = ExperimentState()
        for w in range(windows):
            arms = {
                arm: {
                    QUALITY_METRIC: Moments(int(q[0][e, i, w]), q[1][e, i, w], q[2][e, i, w]),
                    "latency_ms.total": Moments(
                        int(lat[0][e, i, w]), lat[1][e, i, w], lat[2][e, i, w]
                    ),
                }
                for i, arm in enumerate(("control", "treatment"))
            }
            span = Span(scope="cumulative", start_ms=0, end_ms=(w + 1) * WINDOW_MS)
            result = analyse("exp", span, arms, config, state)
        [analysis] = result.analyses
        flagged += analysis.guardrails_worse == ["latency_ms.total"]
        both += analysis.verdict == "treatment_higher" and "latency_ms.total" in (
            analysis.guardrails_worse
        )
    record_property("guardrail_power", flagged / experiments)
    print(
        f"\nquality +0.05 and latency +25 % (margin 100 ms), {windows * PER_WINDOW} events per "
        f"arm: latency flagged in {flagged / experiments:.3f}, with quality 'higher' in "
        f"{both / experiments:.3f}"
    )
    assert flagged / experiments > 0.95
    assert both / experiments > 0.9


def test_guardrail_at_the_margin_stays_under_alpha(record_property: pytest.RecordProperty) -> None:
    rng = np.random.default_rng(2029)
    latency = rng.normal(800.0, 200.0, (EXPERIMENTS, 2, WINDOWS, PER_WINDOW))
    latency[:, 1] += 100.0  # exactly the margin: the edge of "not worse beyond it"
    result = run(latency, "latency_ms.total")
    flagged = float((result.guardrail_p < ALPHA).any(axis=1).mean())
    record_property("guardrail_fpr_at_margin", flagged)
    print(f"\nlatency +100 ms = the margin, peeking 20 times: flagged in {flagged:.3f}")
    assert flagged <= ALPHA


def test_sample_ratio_mismatch_blocks_every_verdict() -> None:
    rng = np.random.default_rng(2030)
    arms = {
        "control": {QUALITY_METRIC: Moments(600, 0.70, 0.0225)},
        "treatment": {QUALITY_METRIC: Moments(400, 0.80, 0.0225)},
    }
    span = Span(scope="cumulative", start_ms=0, end_ms=WINDOW_MS)
    result = analyse("exp", span, arms, AbConfig(), ExperimentState())
    assert result.sample_ratio.mismatch and result.invalid_reason == "sample_ratio_mismatch"
    assert {c.verdict for c in result.comparisons} == {"invalid_sample_ratio_mismatch"}
    assert not any(c.is_significant for c in result.comparisons)
    guards = [c.guardrail for c in result.comparisons if c.guardrail is not None]
    assert guards and {g.verdict for g in guards} == {"invalid_sample_ratio_mismatch"}
    [analysis] = result.analyses
    assert analysis.verdict == "invalid_sample_ratio_mismatch" and not analysis.is_significant
    # the statistics themselves are still there: the quality difference is plain to see
    quality = result.comparisons[0]
    assert quality.cs_low is not None and quality.cs_low > 0.0
    # a balanced split with the same effect gives the direction
    arms["treatment"] = {QUALITY_METRIC: Moments(600, 0.80, 0.0225)}
    ok = analyse("exp", span, arms, AbConfig(), ExperimentState())
    assert ok.invalid_reason is None and ok.comparisons[0].verdict == "treatment_higher"
    del rng
