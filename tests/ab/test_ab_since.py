"""``ragmon ab --since``: later cumulative results minus the one at the point equal an
analysis of the events after it alone."""

from __future__ import annotations

import numpy as np
import pytest

from monitor.ab.analysis import QUALITY_METRIC, AbConfig, ExperimentState, analyse
from monitor.ab.since import analyse_since, summaries
from monitor.events.ab_result import AbResult, Span
from monitor.windows.aggregate import Aggregate

METRICS = (QUALITY_METRIC, "latency_ms.total", "outcome.abstained")


def _windows(rng: np.random.Generator, count: int) -> list[dict[str, dict[str, np.ndarray]]]:
    out = []
    for k in range(count):
        effect = 0.05 if k < 4 else -0.06
        out.append(
            {
                arm: {
                    QUALITY_METRIC: rng.normal(
                        0.7 + (effect if arm == "treatment" else 0), 0.15, 80
                    ),
                    "latency_ms.total": rng.lognormal(6.7, 0.3, 80),
                    "outcome.abstained": (rng.uniform(size=80) < 0.1).astype(float),
                }
                for arm in ("control", "treatment")
            }
        )
    return out


def _run(windows: list[dict[str, dict[str, np.ndarray]]], first: int = 0) -> list[AbResult]:
    state, totals = ExperimentState(), {"control": {}, "treatment": {}}
    results = []
    for k, arms in enumerate(windows[first:], start=first):
        for arm, metrics in arms.items():
            for metric, values in metrics.items():
                totals[arm].setdefault(metric, Aggregate()).merge_in(Aggregate.from_array(values))
        span = Span(scope="cumulative", start_ms=first * 60_000, end_ms=(k + 1) * 60_000)
        results.append(analyse("exp", span, totals, AbConfig(), state))  # type: ignore[arg-type]
    return results


def test_since_equals_an_experiment_started_there() -> None:
    windows = _windows(np.random.default_rng(8), 8)
    full = _run(windows)
    assert full[-1].comparisons[0].verdict == "effect_changed"
    since = analyse_since(full, 4 * 60_000 + 5, AbConfig())  # rounded down to a window end
    fresh = _run(windows, first=4)[-1]
    assert since is not None and since.span == fresh.span
    for a, b in zip(since.comparisons, fresh.comparisons, strict=True):
        assert (a.metric, a.control_sample_size, a.treatment_sample_size) == (
            b.metric,
            b.control_sample_size,
            b.treatment_sample_size,
        )
        if a.metric not in METRICS:
            assert a.treatment_mean is None and b.treatment_mean is None
            continue
        assert a.treatment_mean == pytest.approx(b.treatment_mean, rel=1e-9)
        assert a.p_value == pytest.approx(b.p_value, rel=1e-6)
        assert a.always_valid_p_value == pytest.approx(b.always_valid_p_value, rel=1e-6)
        assert a.verdict == b.verdict
    assert since.comparisons[0].verdict == "treatment_lower"
    # before the first window: the whole experiment; after the last: nothing
    whole = analyse_since(full, 0, AbConfig())
    assert whole is not None and whole.comparisons[0].verdict == "effect_changed"
    assert analyse_since(full, 10**12, AbConfig()) is None


def test_summaries_read_both_arms() -> None:
    [result] = _run(_windows(np.random.default_rng(9), 1))
    arms = summaries(result)
    assert set(arms) == {"control", "treatment"}
    quality = arms["treatment"][QUALITY_METRIC]
    assert quality.count == 80 and quality.variance is not None
