"""The demo's alert panel: what fires stays on screen until it resolves, the most
important first, however many other alerts arrive meanwhile."""

from __future__ import annotations

from typing import Any

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis
from monitor.demo.dashboard import Dashboard, ab_lines


def alert(fingerprint: str, status: str, severity: str, at_ms: int, **labels: Any) -> Alert:
    return Alert(
        fingerprint=fingerprint,
        status=status,  # type: ignore[arg-type]
        type="threshold",
        severity=severity,  # type: ignore[arg-type]
        rule="critical_quality",
        message="Average quality score critically low",
        metric="quality.overall",
        current_value=0.31,
        threshold=0.4,
        labels=AlertLabels(**labels),
        window=AlertWindow(start_ms=at_ms, end_ms=at_ms + 3000),
        starts_at_ms=at_ms,
        diagnosis=Diagnosis(perspective="retrieval", failing=["retrieval"], advice="retriever"),
    )


def panel(board: Dashboard) -> list[str]:
    text = board.render(elapsed_s=1.0, produced=0, events_per_s=0.0)
    return text.split("alerts received by the webhook sink: ")[1].splitlines()


def test_a_critical_variant_alert_stays_shown_among_many_warnings() -> None:
    board = Dashboard()
    board.add_alert(alert("treatment", "firing", "critical", 1, variant="treatment"))
    for i in range(20):  # a stream of narrower warnings after it
        board.add_alert(alert(f"t{i}", "firing", "warning", 10 + i, tenant=f"t{i}"))
    lines = panel(board)
    assert lines[0] == "21, firing now: 21"
    assert len(lines) == 1 + board.max_rows
    assert "[FIRING] critical" in lines[1] and "variant=treatment" in lines[1]
    assert "tenant=t19" in lines[2]  # then the latest warnings


def test_a_resolved_alert_leaves_the_panel() -> None:
    board = Dashboard()
    board.add_alert(alert("a", "firing", "warning", 1))
    board.add_alert(alert("a", "resolved", "warning", 2))
    assert panel(board) == ["2, firing now: 0", "  (none)"]


def test_the_ab_line_shows_the_sequence_the_verdict_and_a_change() -> None:
    c = {
        "metric": "quality.overall",
        "variant": "treatment",
        "difference": -0.00147,
        "treatment_sample_size": 510,
        "control_sample_size": 500,
        "cs_low": 0.012,
        "cs_high": 0.03,
        "always_valid_p_value": 3e-9,
        "ci_low": -0.0063,
        "ci_high": 0.0033,
        "p_value": 0.548,
        "verdict": "effect_changed",
        "change": {
            "detected_by": "homogeneity",
            "detected_at_ms": 420_000,
            "window_start_ms": 300_000,
            "window_end_ms": 360_000,
            "p_value": 1e-6,
            "difference_before": 0.05,
            "difference_after": -0.24,
        },
    }
    result = {"control": "control", "comparisons": [c], "analyses": []}
    first, change = ab_lines("reranker-v2", result)
    assert "95% CS n/a (changed)" in first and "always-valid p <1e-4" in first
    assert "-> effect changed during the experiment" in first
    assert "(fixed horizon: 95% CI [-0.0063, +0.0033], p 0.5480)" in first
    assert "SIGNIFICANT" not in first and " p 0 " not in first
    assert change.strip() == "effect changed in 00:05:00-00:06:00: +0.05 before, -0.24 after"
    board = Dashboard()
    board.add_ab_result({**result, "experiment": "reranker-v2", "span": {"scope": "cumulative"}})
    assert first in board.render(elapsed_s=1.0, produced=0, events_per_s=0.0)
