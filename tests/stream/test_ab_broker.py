"""A/B statistics on the real broker: two variants with known means, and the AbResult the
worker publishes to the results topic when the experiment's windows close."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path

import numpy as np
import orjson
import pytest
from kafka_io import produce, read_until
from scipy import stats

from monitor.ab.analysis import DEFAULT_GUARDRAIL_MARGINS
from monitor.cli import main
from monitor.config import Settings
from monitor.demo.traffic import EXPERIMENT, TrafficGenerator
from monitor.events.ab_result import AbResult
from monitor.pipeline import decode_event, score_event
from monitor.stream.worker_process import settings_env, start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(240)]

WINDOW_MS = 10_000
BASE_MS = 1_700_000_000_000


def test_two_variants_give_the_expected_ab_result(
    stream_settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    s = stream_settings.model_copy(
        update={
            "tumbling_window_ms": WINDOW_MS,
            "hopping_window_ms": 3 * WINDOW_MS,
            "hopping_step_ms": WINDOW_MS,
            "allowed_lateness_ms": 0,
            "window_idle_close_s": 2.0,
        }
    )
    gen = TrafficGenerator(seed=41, malformed_rate=0.0)
    raw, values, later = [], defaultdict(list), defaultdict(list)
    for i in range(1_500):
        event = gen.event()
        event["timestamp_ms"] = BASE_MS + i * 20  # 3 tumbling windows
        payload = orjson.dumps(event)
        raw.append((event["event_id"].encode(), payload))
        scored = score_event(decode_event(payload))
        values[scored.variant].append(scored.quality.overall)
        if event["timestamp_ms"] >= BASE_MS + WINDOW_MS:
            later[scored.variant].append(scored.quality.overall)
    control, treatment = values["control"], values["treatment"]
    assert control and treatment

    asyncio.run(produce(s, raw))
    worker = start_worker(s, tmp_path / "worker.log")
    try:

        def final(g: dict[str, list]) -> bool:  # type: ignore[type-arg]
            return any(
                orjson.loads(r.value)["span"]
                == {"scope": "cumulative", "start_ms": BASE_MS, "end_ms": BASE_MS + 3 * WINDOW_MS}
                for r in g[s.ab_results_topic]
            )

        got = asyncio.run(read_until(s, [s.ab_results_topic], final, timeout_s=120))
    finally:
        assert stop_process(worker) == 0
    results = [AbResult.model_validate_json(r.value) for r in got[s.ab_results_topic]]
    assert {r.experiment for r in results} == {EXPERIMENT}
    assert all(r.key == EXPERIMENT.encode() for r in got[s.ab_results_topic])
    result = next(
        r
        for r in results
        if r.span.scope == "cumulative" and r.span.end_ms == BASE_MS + 3 * WINDOW_MS
    )
    assert result.control == "control"
    quality = next(c for c in result.comparisons if c.metric == "quality.overall")
    assert (quality.control_sample_size, quality.treatment_sample_size) == (
        len(control),
        len(treatment),
    )
    mean_c, mean_t = sum(control) / len(control), sum(treatment) / len(treatment)
    assert quality.control_mean == pytest.approx(mean_c, rel=1e-12)
    assert quality.treatment_mean == pytest.approx(mean_t, rel=1e-12)
    assert quality.difference == pytest.approx(mean_t - mean_c, rel=1e-9)
    welch = stats.ttest_ind(treatment, control, equal_var=False)
    assert quality.p_value == pytest.approx(welch.pvalue, rel=1e-9, abs=1e-15)
    [analysis] = result.analyses
    assert analysis.quality_improvement == pytest.approx((mean_t - mean_c) / mean_c, rel=1e-9)
    # the new fields: variances, the verdict from the confidence sequence, guardrails
    assert quality.control_variance == pytest.approx(np.var(control, ddof=1), rel=1e-9)
    assert quality.treatment_variance == pytest.approx(np.var(treatment, ddof=1), rel=1e-9)
    assert quality.cs_low is not None and quality.cs_high is not None
    assert quality.cs_low <= quality.difference <= quality.cs_high
    assert result.invalid_reason is None and not result.sample_ratio.mismatch
    assert quality.verdict in {
        "treatment_higher",
        "treatment_lower",
        "no_difference_detected",
        "inconclusive",
        "effect_changed",
    }
    if quality.verdict == "treatment_higher":
        assert quality.cs_low > 0.0 and quality.always_valid_p_value < result.alpha
    elif quality.verdict == "treatment_lower":
        assert quality.cs_high < 0.0 and quality.always_valid_p_value < result.alpha
    elif quality.verdict == "no_difference_detected":
        assert quality.cs_low <= 0.0 <= quality.cs_high
    assert quality.is_significant == (quality.verdict in ("treatment_higher", "treatment_lower"))
    assert (analysis.verdict, analysis.is_significant) == (quality.verdict, quality.is_significant)
    guarded = {c.metric: c.guardrail for c in result.comparisons if c.guardrail is not None}
    assert set(guarded) == set(s.ab_guardrail_margins or DEFAULT_GUARDRAIL_MARGINS)
    latency = guarded["latency_ms.total"]
    assert latency is not None and latency.margin == 100.0 and latency.worse_when == "higher"
    assert latency.p_value is not None and 0.0 < latency.p_value <= 1.0
    assert analysis.guardrails_worse == [
        m for m, g in guarded.items() if g is not None and g.verdict == "worse_beyond_margin"
    ]
    assert any(r.span.scope == "hopping" for r in results)

    # ragmon ab reads the same result back from the topic
    for name, value in settings_env(s).items():
        monkeypatch.setenv(name, value)
    assert main(["ab", "--experiment", EXPERIMENT, "--json"]) == 0
    printed = AbResult.model_validate_json(capsys.readouterr().out)
    assert printed == result
    assert main(["ab", "--experiment", EXPERIMENT]) == 0
    table = capsys.readouterr().out
    assert "quality.overall" in table and "95% CS (always valid)" in table
    assert "95% CI (fixed)" in table

    # --since: the events from the second window on, analysed afresh from the topic
    since = str(BASE_MS + WINDOW_MS)
    assert main(["ab", "--experiment", EXPERIMENT, "--since", since, "--json"]) == 0
    after = AbResult.model_validate_json(capsys.readouterr().out)
    assert after.span.start_ms == BASE_MS + WINDOW_MS
    assert after.span.end_ms == BASE_MS + 3 * WINDOW_MS
    part = next(c for c in after.comparisons if c.metric == "quality.overall")
    assert (part.control_sample_size, part.treatment_sample_size) == (
        len(later["control"]),
        len(later["treatment"]),
    )
    assert part.treatment_mean == pytest.approx(np.mean(later["treatment"]), rel=1e-9)
    assert part.p_value == pytest.approx(
        stats.ttest_ind(later["treatment"], later["control"], equal_var=False).pvalue, rel=1e-6
    )
    # the per-window view: both sides of every hopping window
    assert main(["ab", "--experiment", EXPERIMENT, "--windows", "2"]) == 0
    view = capsys.readouterr().out
    assert "quality.overall per window" in view and "n treatment" in view
    assert main(["ab", "--experiment", EXPERIMENT, "--since", "yesterday"]) == 2
    assert "--since" in capsys.readouterr().err
    assert main(["ab", "--experiment", "no-such-experiment"]) == 1
