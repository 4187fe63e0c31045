"""start_plots: a forked child draws the same PNGs as drawing in place."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_eval_reports_writer import make_report

from monitor.evaluation.reports import plot_process


def test_forked_drawing_equals_drawing_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = make_report()
    (tmp_path / "inline").mkdir()
    (tmp_path / "forked").mkdir()
    inline = plot_process.start_plots(report, tmp_path / "inline", "r")()
    monkeypatch.setattr(plot_process, "BACKGROUND_MIN_CASES", 1)
    forked = plot_process.start_plots(report, tmp_path / "forked", "r")()
    assert [p.name for p in forked] == [p.name for p in inline] and forked
    for a, b in zip(inline, forked, strict=True):
        assert a.read_bytes() == b.read_bytes()


def test_a_failing_child_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plot_process, "BACKGROUND_MIN_CASES", 1)
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    wait = plot_process.start_plots(make_report(), blocker, "r")
    with pytest.raises(RuntimeError, match="plotting failed"):
        wait()
