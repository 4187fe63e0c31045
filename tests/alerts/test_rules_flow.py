"""The rules as the worker chains them: learned baseline -> window conditions -> diagnosis
-> AlertBook, and back to resolved when quality recovers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from monitor.alerts.alert import Alert, Diagnosis
from monitor.alerts.rules import AlertBook, diagnose
from monitor.drift import BaselineBook, Condition, DriftConfig, evaluate_window
from monitor.drift.stats import SeriesKey

MIN = 60_000
KEY: SeriesKey = ("treatment", None, None)


@dataclass
class Stats:
    count: int
    mean: float | None
    stddev: float | None = 0.05

    def quantile(self, q: float) -> float | None:
        return self.mean


def _window(faithfulness: float) -> dict[str, Stats]:
    retrieval = 0.8
    overall = (retrieval + faithfulness) / 2
    return {
        "quality.overall": Stats(200, overall),
        "quality.retrieval_confidence": Stats(200, retrieval),
        "quality.estimated_faithfulness": Stats(200, faithfulness),
    }


def _diagnoser(
    stats: Mapping[str, Stats], book: BaselineBook, config: DriftConfig, end: int
) -> Callable[[Condition], Diagnosis]:
    def base(metric: str) -> float | None:
        found = book.baseline(KEY, metric, end)
        return None if found is None else found.value

    def diagnosis_for(condition: Condition) -> Diagnosis:
        return diagnose([condition.metric], stats, base, ratio=config.degradation_ratio)

    return diagnosis_for


def test_degradation_fires_with_a_diagnosis_and_resolves() -> None:
    config = DriftConfig(min_events=500, min_windows=3)
    baselines = BaselineBook(config)
    alerts = AlertBook(config.cooldown_ms)
    sent: list[tuple[int, Alert]] = []
    timeline = [0.8] * 5 + [0.3] * 3 + [0.8] * 2
    for minute, faithfulness in enumerate(timeline, start=1):
        end = minute * MIN
        stats = _window(faithfulness)
        result = evaluate_window(KEY, stats, baselines, config, end)

        diagnosis_for = _diagnoser(stats, baselines, config, end)
        sent += [
            (minute, a)
            for a in alerts.evaluate(
                KEY,
                (end - MIN, end),
                result.evaluated,
                result.conditions,
                diagnosis_for,
                result.cleared,
            )
        ]
        for metric, window in stats.items():
            assert window.mean is not None
            baselines.observe(KEY, metric, end, window.count, window.mean)

    summary = [(m, a.status, a.rule, a.metric) for m, a in sent]
    assert summary == [
        (6, "firing", "degradation", "quality.overall"),
        (6, "firing", "degradation", "quality.estimated_faithfulness"),
        (9, "resolved", "degradation", "quality.overall"),
        (9, "resolved", "degradation", "quality.estimated_faithfulness"),
    ]
    overall = sent[0][1]
    assert overall.message == "Quality score degraded from baseline"
    assert overall.threshold == 0.8 * 0.85
    # spec 000's estimated faithfulness reads only the query and the chunks: retrieval
    assert overall.diagnosis.perspective == "retrieval"
    assert overall.diagnosis.failing == ["retrieval"] and overall.diagnosis.healthy == []
    assert overall.diagnosis.advice.startswith("Retrieval failing: check the retriever")
