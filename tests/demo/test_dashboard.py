"""The demo's alert panel: what fires stays on screen until it resolves, the most
important first, however many other alerts arrive meanwhile."""

from __future__ import annotations

from typing import Any

from monitor.alerts.alert import Alert, AlertLabels, AlertWindow, Diagnosis
from monitor.demo.dashboard import Dashboard


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
