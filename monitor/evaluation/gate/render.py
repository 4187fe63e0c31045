"""The regression gate as text: a fixed-width table for the terminal, or Markdown for a
report or a pull request, each with its one-line verdict.

Columns: metric, baseline, current, delta (``current - baseline``), tolerance (the allowed
worsening), test, p, target (``(miss)`` when the current value misses it) and status
(upper case when the row failed), then a line per row with a ``note`` (why a target
could not be checked, too few cases for a test, a one-sided metric). Numbers of magnitude
>= 100 (latencies) get one decimal, the others four; p-values three (``<0.001`` below
that); ``-`` is "none".

>>> from monitor.evaluation.gate.comparison import GateResult, GateRow
>>> row = GateRow("pipeline.pass", "pipeline", 0.9, 0.5, -0.4, 0.02, "mcnemar", 40,
...     1.2e-05, "> 0.9", "regressed", True, False)
>>> result = GateResult([row], failed=True, baseline_run_id="1a2b3c4d", alpha=0.05)
>>> print(render_gate_table(result))
metric         baseline  current    delta  tolerance  test     p       target        status
-------------  --------  -------  -------  ---------  -------  ------  ------------  ---------
pipeline.pass    0.9000   0.5000  -0.4000     0.0200  mcnemar  <0.001  > 0.9 (miss)  REGRESSED
GATE FAILED: 1 metric regressed, 1 missed its target (baseline run 1a2b3c4d)
>>> print(verdict(GateResult([], failed=False, baseline_run_id=None, alpha=0.05)))
GATE PASSED: 0 metrics checked (no baseline)
"""

from __future__ import annotations

from collections.abc import Sequence

from monitor.evaluation.gate.comparison import GateResult, GateRow

__all__ = ["INTERESTING_STATUSES", "render_gate_markdown", "render_gate_table", "verdict"]

INTERESTING_STATUSES: frozenset[str] = frozenset(
    {"improved", "worse_not_significant", "too_few_cases"}
)
"""Kept by ``only_interesting`` (with every failed row)."""

_HEADERS = ("metric", "baseline", "current", "delta", "tolerance", "test", "p", "target", "status")
_NUMERIC = frozenset({"baseline", "current", "delta", "tolerance"})


def render_gate_table(result: GateResult, *, only_interesting: bool = False) -> str:
    """A fixed-width table of the rows, then the verdict line (no trailing newline)."""
    cells = [_cells(row) for row in _rows(result, only_interesting)]
    widths = [max([len(h), *(len(c[i]) for c in cells)]) for i, h in enumerate(_HEADERS)]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(width) if header in _NUMERIC else value.ljust(width)
            for header, value, width in zip(_HEADERS, values, widths, strict=True)
        ]
        return "  ".join(parts).rstrip()

    lines = [line(_HEADERS), line(["-" * width for width in widths])]
    lines.extend(line(row) for row in cells)
    lines.extend(f"  {row.metric}: {row.note}" for row in _noted(result, only_interesting))
    lines.append(verdict(result))
    return "\n".join(lines)


def render_gate_markdown(result: GateResult, *, only_interesting: bool = False) -> str:
    """``## Regression gate``, the verdict in bold and the rows as a Markdown table."""
    align = ["---:" if header in _NUMERIC else "---" for header in _HEADERS]
    lines = [
        "## Regression gate",
        "",
        f"**{verdict(result)}**",
        "",
        "| " + " | ".join(_HEADERS) + " |",
        "| " + " | ".join(align) + " |",
    ]
    for row in _rows(result, only_interesting):
        cells = _cells(row)
        cells[0] = f"`{cells[0]}`"
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    noted = _noted(result, only_interesting)
    if noted:
        lines.append("")
        lines.extend(f"- `{row.metric}`: {row.note}" for row in noted)
    return "\n".join(lines) + "\n"


def verdict(result: GateResult) -> str:
    """``GATE FAILED: 2 metrics regressed, 1 missed its target (baseline run X)`` or
    ``GATE PASSED: 41 metrics checked, 1 improved (baseline run X)``. A regressed row
    that also misses its target counts in both numbers."""
    suffix = (
        f"(baseline run {result.baseline_run_id})"
        if result.baseline_run_id is not None
        else "(no baseline)"
    )
    regressed = sum(row.status == "regressed" for row in result.rows)
    missed = sum(row.failed and row.target_met is False for row in result.rows)
    dropped = sum(row.status == "dropped" for row in result.rows)
    unevaluated = sum(row.status == "unevaluated" for row in result.rows)
    if result.failed:
        parts: list[str] = []

        def add(count: int, what: str) -> None:
            if count:
                parts.append(f"{count} {what}" if parts else f"{count} {_metrics(count)} {what}")

        add(regressed, "regressed")
        add(missed, "missed its target" if missed == 1 else "missed their targets")
        add(dropped, "dropped (in the baseline, not in this run)")
        add(unevaluated, "could not be evaluated (their cases failed)")
        return f"GATE FAILED: {', '.join(parts)} {suffix}"
    checked = sum(row.current is not None for row in result.rows)
    parts = [f"{checked} {_metrics(checked)} checked"]
    improved = sum(row.status == "improved" for row in result.rows)
    if improved:
        parts.append(f"{improved} improved")
    worse = sum(row.status == "worse_not_significant" for row in result.rows)
    if worse:
        parts.append(f"{worse} worse but not significant (alpha {result.alpha:g})")
    return f"GATE PASSED: {', '.join(parts)} {suffix}"


def _rows(result: GateResult, only_interesting: bool) -> list[GateRow]:
    if not only_interesting:
        return list(result.rows)
    return [row for row in result.rows if row.failed or row.status in INTERESTING_STATUSES]


def _noted(result: GateResult, only_interesting: bool) -> list[GateRow]:
    return [row for row in _rows(result, only_interesting) if row.note]


def _cells(row: GateRow) -> list[str]:
    target = "-" if row.target is None else row.target
    if row.target is not None and row.target_met is False:
        target += " (miss)"
    return [
        row.metric,
        _number(row.baseline),
        _number(row.current),
        _number(row.delta, signed=True),
        _number(row.tolerance),
        row.test or "-",
        _p(row.p_value),
        target,
        row.status.upper() if row.failed else row.status,
    ]


def _number(value: float | None, *, signed: bool = False) -> str:
    if value is None:
        return "-"
    sign = "+" if signed else ""
    return f"{value:{sign}.1f}" if abs(value) >= 100.0 else f"{value:{sign}.4f}"


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _metrics(count: int) -> str:
    return "metric" if count == 1 else "metrics"
