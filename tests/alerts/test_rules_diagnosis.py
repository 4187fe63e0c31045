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
    "safety.leakage.detected": 0.0,
    "latency_ms.total": 800.0,
}


def _window(**means: float) -> dict[str, Stats]:
    window = {m: Stats(200, v) for m, v in BASE.items()}
    for name, value in means.items():
        window[name.replace("__", ".")] = Stats(200, value)
    return window


def test_retrieval_ok_faithfulness_dropped_is_groundedness() -> None:
    stats = _window(quality__overall=0.55, quality__estimated_faithfulness=0.35)
    d = diagnose(["quality.overall"], stats, BASE.get)
    assert d.perspective == "groundedness"
    assert d.failing == ["groundedness"]
    assert d.healthy == ["retrieval", "context_quality", "safety", "pipeline"]
    assert d.advice.startswith("Retrieval OK, context quality OK, groundedness failing")
    assert "prompt engineering" in d.advice


def test_retrieval_dropped() -> None:
    stats = _window(quality__overall=0.5, quality__retrieval_confidence=0.3)
    d = diagnose(["quality.overall"], stats, BASE.get)
    assert d.perspective == "retrieval" and d.failing == ["retrieval"]
    assert "context_quality" in d.healthy
    assert d.advice.startswith("Retrieval failing, context quality OK")
    assert "index freshness" in d.advice and "embedding model" in d.advice


def test_largest_relative_drop_is_primary_and_others_listed() -> None:
    stats = _window(
        quality__overall=0.4,
        quality__retrieval_confidence=0.6,  # -25 %
        quality__estimated_faithfulness=0.2,  # -75 %
    )
    d = diagnose(["quality.overall"], stats, BASE.get)
    assert d.failing == ["groundedness", "retrieval"]
    assert d.perspective == "groundedness"
    assert ADVICE["retrieval"] in d.advice


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
