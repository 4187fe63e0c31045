"""The text of ``ragmon ab``: readable numbers, separated columns, explicit verdicts."""

from __future__ import annotations

import re

from monitor.ab.analysis import QUALITY_METRIC, AbConfig, ExperimentState, analyse
from monitor.ab.numbers import p_text, signed
from monitor.ab.summary import Moments
from monitor.ab.table import columns, render, render_windows
from monitor.events.ab_result import AbResult, Span

SPAN = Span(scope="cumulative", start_ms=0, end_ms=600_000)


def _result(control_n: int = 5000, treatment_n: int = 5000) -> AbResult:
    arms = {
        "control": {
            QUALITY_METRIC: Moments(control_n, 0.70, 0.0225),
            "quality.diversity_score": Moments(control_n, 0.573, 0.04),
            "latency_ms.total": Moments(control_n, 800.0, 4e4),
        },
        "treatment": {
            QUALITY_METRIC: Moments(treatment_n, 0.75, 0.0225),
            "quality.diversity_score": Moments(treatment_n, 0.57153, 0.04),
            "latency_ms.total": Moments(treatment_n, 1600.0, 1.6e5),
        },
    }
    return analyse("reranker-v2", SPAN, arms, AbConfig(), ExperimentState())


def test_numbers_as_people_read_them() -> None:
    assert p_text(0.0) == "<1e-4" and p_text(9.99e-5) == "<1e-4" and p_text(1e-4) == "0.0001"
    assert signed(-0.00147) == "-0.00147" and signed(0.0) == "+0"


def test_the_table_separates_columns_and_states_directions() -> None:
    text = render(_result())
    assert "p 0\n" not in text and " 0.0000 " not in text  # tiny p-values print as <1e-4
    assert "<1e-4" in text
    # no two numbers run together (the old "0.573-0.00147")
    rows = [x for x in text.splitlines() if x.startswith("  ")]
    assert rows and not any(re.search(r"\d[+-]\d", x.replace("e-", "E")) for x in rows)
    lines = text.splitlines()
    quality = lines[lines.index(next(x for x in lines if x.startswith("quality.overall"))) + 3]
    cells = re.split(r"\s{2,}", quality.strip())
    assert cells[0] == "treatment" and cells[-1] == "treatment higher"
    assert cells[3] == "+0.05"  # signed difference
    assert cells[4].startswith("[+") and cells[5] == "<1e-4"  # CS next to always-valid p
    diversity = next(x for x in lines if x.strip().startswith("treatment") and "0.5715" in x)
    assert diversity.rstrip().endswith("no difference detected")
    assert "95% CS (always valid)" in text and "95% CI (fixed)" in text
    assert "guardrails worse beyond the margin: latency_ms.total" in text
    assert "WORSE beyond the margin" in text


def test_sample_ratio_mismatch_replaces_the_verdicts() -> None:
    text = render(_result(6000, 4000))
    assert "INVALID: sample ratio mismatch" in text
    assert "treatment higher" not in text
    assert "invalid: sample ratio mismatch" in text


def test_columns_pad_to_the_widest_cell() -> None:
    assert columns([["a", "1", "x"], ["long", "-0.5", "yes"]]) == [
        "  a        1  x",
        "  long  -0.5  yes",
    ]


def test_the_per_window_view_shows_both_sides() -> None:
    state = ExperimentState()
    hops = []
    for k, treatment in enumerate((0.80, 0.60)):
        arms = {
            "control": {QUALITY_METRIC: Moments(300, 0.70, 0.0225)},
            "treatment": {QUALITY_METRIC: Moments(300, treatment, 0.0225)},
        }
        span = Span(scope="hopping", start_ms=k * 60_000, end_ms=(k + 3) * 60_000)
        hops.append(analyse("e", span, arms, AbConfig(), state))
    text = render_windows(hops, QUALITY_METRIC)
    rows = text.splitlines()[2:]
    assert [re.split(r"\s{2,}", r.strip())[3:6] for r in rows] == [
        ["0.7", "300", "0.8"],
        ["0.7", "300", "0.6"],
    ]
    assert rows[0].endswith("treatment higher") and rows[1].endswith("treatment lower")
    assert render_windows([], QUALITY_METRIC).startswith("no hopping windows")
