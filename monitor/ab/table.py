"""The text table of ``ragmon ab``: one block per metric, one row per variant.

Each treatment row gives the difference (treatment minus control, signed), the
always-valid 95 % confidence sequence and p-value the verdict comes from, then the
fixed-horizon 95 % confidence interval and p-value (labelled: valid for a single look
only), and the verdict in words. Guardrail metrics get their own block, a detected change
its own line (the cumulative sequence then describes no single effect: it shows as
``n/a (changed)``), and a sample ratio mismatch replaces every verdict with ``invalid: sample
ratio mismatch``. Columns are padded to their widest cell, two spaces apart.

>>> from monitor.events.ab_result import AbResult
>>> print(render(AbResult.model_validate(EXAMPLE)))  # doctest: +NORMALIZE_WHITESPACE
experiment reranker-v2 (cumulative 1970-01-01 00:00:00 - 00:10:00 UTC), control: control, alpha 0.05
sample ratio: control 500, treatment 510 (expected control 50%, treatment 50%), chi-square p 0.7530: ok
"""  # noqa: E501

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from monitor.ab.numbers import interval, p_text, plain, signed, verdict_text
from monitor.events.ab_result import AbResult, Comparison, EffectChange

__all__ = ["EXAMPLE", "change_text", "columns", "render", "render_windows"]


def _utc(ms: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ms // 1000))


def columns(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[str]:
    """``rows`` as lines, each column padded to its widest cell, two spaces apart (text
    left-aligned, the first column always, numbers right-aligned)."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            numeric = i > 0 and cell[:1] in "+-<[0123456789" and cell != "-"
            cells.append(cell.rjust(widths[i]) if numeric else cell.ljust(widths[i]))
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def change_text(change: EffectChange) -> str:
    """A detected change in words: where, the effect before and after, how it was found."""
    how = (
        "the confidence sequence became empty"
        if change.detected_by == "confidence_sequence"
        else f"homogeneity test across windows, p {p_text(change.p_value)}"
    )
    return (
        f"effect changed during the experiment, in the window "
        f"{_utc(change.window_start_ms)} - {_utc(change.window_end_ms)[11:]} UTC: "
        f"difference {signed(change.difference_before, 3)} before, "
        f"{signed(change.difference_after, 3)} after ({how}); "
        f"analyse the part after it with --since"
    )


def _metric_block(result: AbResult, metric: str, comparisons: list[Comparison]) -> list[str]:
    first = comparisons[0]
    test = "Welch t-test" if first.test == "welch_t" else "two-proportion z-test"
    lines = ["", f"{metric} ({first.kind}; fixed horizon: {test})"]
    rows = [
        [
            "variant",
            "n",
            "mean",
            "difference",
            "95% CS (always valid)",
            "p (always valid)",
            "95% CI (fixed)",
            "p (fixed)",
            "verdict",
        ],
        [result.control, str(first.control_sample_size), plain(first.control_mean)],
    ]
    changes = []
    for c in comparisons:
        rows.append(
            [
                c.variant,
                str(c.treatment_sample_size),
                plain(c.treatment_mean),
                signed(c.difference, 3),
                interval(c.cs_low, c.cs_high, 3) if c.change is None else "n/a (changed)",
                p_text(c.always_valid_p_value),
                interval(c.ci_low, c.ci_high, 3),
                p_text(c.p_value),
                verdict_text(c.verdict),
            ]
        )
        if c.change is not None:
            changes.append(f"  {c.variant}: {change_text(c.change)}")
    return lines + columns(rows) + changes


def _guardrails(comparisons: Sequence[Comparison]) -> list[str]:
    guarded = [c for c in comparisons if c.guardrail is not None]
    if not guarded:
        return []
    rows = [["metric", "variant", "difference", "margin", "p (one-sided, always valid)", "verdict"]]
    for c in guarded:
        assert c.guardrail is not None
        rows.append(
            [
                c.metric,
                c.variant,
                signed(c.difference, 3),
                signed(c.guardrail.margin, 3),
                p_text(c.guardrail.p_value),
                verdict_text(c.guardrail.verdict),
            ]
        )
    return [
        "",
        "guardrails: is the treatment worse (higher) by more than the margin?",
        *columns(rows),
    ]


def render(result: AbResult) -> str:
    span = result.span
    lines = [
        f"experiment {result.experiment} ({span.scope} {_utc(span.start_ms)} - "
        f"{_utc(span.end_ms)[11:]} UTC), control: {result.control}, alpha {result.alpha:g}",
    ]
    srm = result.sample_ratio
    observed = ", ".join(f"{v} {n}" for v, n in srm.observed.items())
    expected = ", ".join(f"{v} {share:.0%}" for v, share in srm.expected.items())
    state = (
        "INVALID: sample ratio mismatch, no verdict is given (check the assignment and the "
        "logging of the variants)"
        if srm.mismatch
        else "ok"
    )
    lines.append(
        f"sample ratio: {observed} (expected {expected}), chi-square p {p_text(srm.p_value)}: "
        f"{state}"
    )
    by_metric: dict[str, list[Comparison]] = {}
    for c in result.comparisons:
        by_metric.setdefault(c.metric, []).append(c)
    for metric, comparisons in by_metric.items():
        lines += _metric_block(result, metric, comparisons)
    lines += _guardrails(result.comparisons)
    for a in result.analyses:
        worse = ", ".join(a.guardrails_worse) or "none"
        lines += [
            "",
            f"{a.variant} vs {result.control}: quality.overall {verdict_text(a.verdict)} "
            f"({_percent(a.quality_improvement)} relative), latency "
            f"{_percent(a.latency_change)} relative; guardrails worse beyond the margin: "
            f"{worse}",
        ]
    if result.comparisons:
        lines += [
            "",
            "verdicts come from the always-valid confidence sequence (CS), valid however "
            "often the results are read; the fixed-horizon CI and p-value hold for one look.",
        ]
    return "\n".join(lines)


def render_windows(results: Sequence[AbResult], metric: str) -> str:
    """The per-window view: one row per (hopping) result and treatment variant, the control
    and treatment means side by side with the difference and that window's verdict (a
    single-look test of that window alone), so an effect that turns shows as it turns."""
    if not results:
        return f"no hopping windows of {metric} yet"
    rows = [
        [
            "window (UTC)",
            "variant",
            "n control",
            "control",
            "n treatment",
            "treatment",
            "difference",
            "95% CS",
            "verdict",
        ]
    ]
    for r in results:
        for c in r.comparisons:
            if c.metric != metric:
                continue
            rows.append(
                [
                    f"{_utc(r.span.start_ms)} - {_utc(r.span.end_ms)[11:]}",
                    c.variant,
                    str(c.control_sample_size),
                    plain(c.control_mean),
                    str(c.treatment_sample_size),
                    plain(c.treatment_mean),
                    signed(c.difference, 3),
                    interval(c.cs_low, c.cs_high, 3),
                    verdict_text(c.verdict),
                ]
            )
    return "\n".join([f"{metric} per window (each window on its own):", *columns(rows)])


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1%}"


EXAMPLE: dict[str, Any] = {
    "experiment": "reranker-v2",
    "control": "control",
    "span": {"scope": "cumulative", "start_ms": 0, "end_ms": 600_000},
    "alpha": 0.05,
    "analyses": [],
    "comparisons": [],
    "sample_ratio": {
        "expected": {"control": 0.5, "treatment": 0.5},
        "observed": {"control": 500, "treatment": 510},
        "chi2": 0.099,
        "p_value": 0.753,
        "mismatch": False,
    },
    "invalid_reason": None,
}
