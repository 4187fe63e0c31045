"""diagnose: which perspective dropped, which look healthy, and advice without event text."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from monitor.alerts.rules.diagnosis import ADVICE, PERSPECTIVES, diagnose, worsening


@dataclass
class Stats:
    count: int
    mean: float | None

    def quantile(self, q: float) -> float | None:
        return None


BASE = {
    "quality.overall": 0.75,
    "quality.retrieval_confidence": 0.8,
    "quality.context_sufficiency": 0.7,
    "quality.diversity_score": 0.6,
    "quality.estimated_faithfulness": 0.8,
    "crag.incorrect": 0.05,
    "grounding.claim_support_rate": 0.9,
    "grounding.citation_validity_content": 0.9,
    "grounding.unsupported_answer": 0.1,
    "safety.injection.blocked": 0.0,
    "safety.leakage.detected": 0.0,
    "latency_ms.total": 800.0,
}


def _window(**means: float) -> dict[str, Stats]:
    window = {m: Stats(200, v) for m, v in BASE.items()}
    for name, value in means.items():
        window[name.replace("__", ".")] = Stats(200, value)
    return window


def test_faithfulness_is_computed_before_the_answer_so_it_is_a_retrieval_signal() -> None:
    stats = _window(quality__overall=0.55, quality__estimated_faithfulness=0.35)
    d = diagnose(["quality.overall"], stats, BASE.get)
    assert d.perspective == "retrieval"
    assert d.failing == ["retrieval"]
    assert d.healthy == ["context_quality", "groundedness", "safety", "pipeline"]
    assert d.advice.startswith("Retrieval failing, context quality OK, groundedness OK")


def test_generator_off_context_with_healthy_retrieval_is_groundedness() -> None:
    stats = _window(
        grounding__claim_support_rate=0.3,
        grounding__citation_validity_content=0.2,
        grounding__unsupported_answer=0.9,
    )
    d = diagnose(["grounding.claim_support_rate", "grounding.unsupported_answer"], stats, BASE.get)
    assert d.perspective == "groundedness" and d.failing == ["groundedness"]
    assert d.healthy == ["retrieval", "context_quality", "safety", "pipeline"]
    assert d.advice.startswith("Retrieval OK, context quality OK, groundedness failing")
    assert "prompt engineering" in d.advice


def test_a_retrieval_break_starves_the_generator_but_is_named_retrieval() -> None:
    stats = _window(
        quality__overall=0.35,
        quality__retrieval_confidence=0.3,
        crag__incorrect=0.8,
        grounding__claim_support_rate=0.3,  # dropped more than retrieval did
        grounding__citation_validity_content=0.1,
    )
    named = ["grounding.claim_support_rate", "quality.overall", "grounding.unsupported_answer"]
    d = diagnose(named, stats, BASE.get)
    assert d.perspective == "retrieval"
    assert d.failing[0] == "retrieval" and "groundedness" in d.failing
    assert "index freshness" in d.advice


def test_a_safety_rate_that_fires_wins_over_a_quality_drop() -> None:
    stats = _window(
        quality__overall=0.4,
        quality__context_sufficiency=0.3,
        safety__injection__blocked=0.3,
    )
    d = diagnose(["quality.overall", "safety.injection.blocked"], stats, BASE.get)
    assert d.perspective == "safety"
    assert d.failing[0] == "safety" and "context_quality" in d.failing


def test_a_safety_rate_firing_next_to_a_quality_page_wins_only_with_evidence() -> None:
    stats = _window(quality__overall=0.4, quality__retrieval_confidence=0.3)
    stats["safety.leakage.detected"] = Stats(100, 0.02)  # 2 leaks against a 1 % threshold
    base = {**BASE, "safety.leakage.detected": 0.007}
    d = diagnose(["quality.overall"], stats, base.get, also_firing=["safety.leakage.detected"])
    assert d.perspective == "retrieval" and "safety" in d.healthy
    stats["safety.injection.blocked"] = Stats(100, 0.3)  # an injection wave
    also = ["safety.leakage.detected", "safety.injection.blocked"]
    d = diagnose(["quality.overall"], stats, base.get, also_firing=also)
    assert d.perspective == "safety" and d.failing == ["safety", "retrieval"]


def test_a_latency_incident_is_the_pipeline_even_with_a_quality_drop_in_its_window() -> None:
    stats = _window(latency_ms__total=9000.0, quality__retrieval_confidence=0.5)
    d = diagnose(["latency_ms.total"], stats, BASE.get)
    assert d.perspective == "pipeline" and d.failing == ["pipeline", "retrieval"]


def test_a_small_rise_of_a_rate_in_a_small_window_is_noise() -> None:
    # 3 of 20 CRAG incorrect against a baseline of 5 %: not evidence of a retrieval break
    base = {**BASE, "crag.incorrect": 0.05, "grounding.claim_support_rate": 0.9}
    stats = _window(grounding__claim_support_rate=0.4)
    stats["crag.incorrect"] = Stats(20, 0.15)
    d = diagnose(["grounding.claim_support_rate"], stats, base.get)
    assert d.perspective == "groundedness" and "retrieval" in d.healthy
    stats["crag.incorrect"] = Stats(20, 0.5)
    assert diagnose(["grounding.claim_support_rate"], stats, base.get).perspective == "retrieval"


def test_retrieval_dropped() -> None:
    stats = _window(quality__overall=0.5, quality__retrieval_confidence=0.3)
    d = diagnose(["quality.overall"], stats, BASE.get)
    assert d.perspective == "retrieval" and d.failing == ["retrieval"]
    assert "context_quality" in d.healthy
    assert d.advice.startswith("Retrieval failing, context quality OK")
    assert "index freshness" in d.advice and "embedding model" in d.advice


def test_the_most_upstream_failing_stage_is_primary_and_others_listed() -> None:
    stats = _window(
        quality__overall=0.4,
        quality__retrieval_confidence=0.6,  # -25 %
        quality__context_sufficiency=0.2,  # -71 %
    )
    d = diagnose(["quality.overall"], stats, BASE.get)
    assert d.failing == ["retrieval", "context_quality"]
    assert d.perspective == "retrieval"
    assert ADVICE["context_quality"] in d.advice


def test_an_alert_on_a_perspective_metric_makes_it_primary() -> None:
    stats = _window(safety__leakage__detected=0.2, latency_ms__total=3000.0)
    d = diagnose(["safety.leakage.detected"], stats, BASE.get)
    assert d.perspective == "safety"
    assert d.failing == ["safety", "pipeline"]
    assert "guardrail thresholds" in d.advice


def test_no_baselines_falls_back_to_context_quality() -> None:
    d = diagnose(["quality.overall"], {"quality.overall": Stats(10, 0.2)}, lambda m: None)
    assert (d.perspective, d.failing, d.healthy) == ("context_quality", ["context_quality"], [])
    assert "no perspective dropped" in d.advice


def test_unknown_metrics_and_empty_windows_are_ignored() -> None:
    stats = {"custom.score": Stats(10, 0.0), "quality.retrieval_confidence": Stats(0, None)}
    d = diagnose(["latency_ms.embed"], stats, lambda m: 1.0)
    assert d.perspective == "pipeline" and d.healthy == []


def test_advice_holds_no_event_text() -> None:
    stats = _window(quality__overall=0.1, quality__estimated_faithfulness=0.0)
    d = diagnose(["quality.overall"], stats, BASE.get)
    fixed = [*ADVICE.values(), *PERSPECTIVES, "OK", "failing", "context quality"]
    rest = d.advice.lower()
    for text in sorted(fixed, key=len, reverse=True):
        rest = rest.replace(text.lower(), "")
    assert set(rest) <= set(" ,:;")


@pytest.mark.parametrize(
    ("metric", "mean", "baseline", "worse"),
    [
        ("quality.overall", 0.8 * 0.85, 0.8, False),  # exactly 0.85 x: not dropped
        ("quality.overall", 0.6, 0.8, True),
        ("latency_ms.total", 1000.0, 800.0, True),
        ("latency_ms.total", 900.0, 800.0, False),
        ("safety.leakage.detected", 0.005, 0.0, False),  # within the absolute slack
        ("safety.leakage.detected", 0.05, 0.0, True),
        ("quality.overall", 0.1, 0.0, None),  # zero baseline: not comparable
    ],
)
def test_worsening(metric: str, mean: float, baseline: float, worse: bool | None) -> None:
    got = worsening(metric, mean, baseline)
    assert (None if got is None else got > 0.0) == worse
