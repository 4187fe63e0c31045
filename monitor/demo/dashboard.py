"""The live table of ``ragmon demo``: folds scored events and dead letters; renders text.

>>> board = Dashboard()
>>> board.add_scored({"variant": "control", "quality": {"overall": 0.5},
...                   "crag": {"classification": "ambiguous"}})
>>> board.add_dead_letter({"error": {"reason": "invalid_json"}})
>>> board.add_window({"kind": "tumbling", "start_ms": 0, "end_ms": 10_000, "series": [
...     {"variant": "control", "tenant": None, "application": None,
...      "metrics": {"quality.overall": {"mean": 0.5, "count": 1}}}]})
>>> print(board.render(elapsed_s=10.0, produced=2, events_per_s=0.2))  # doctest: +ELLIPSIS
elapsed ...
control             1         0.500        0%      100%        0%
<BLANKLINE>
dead letters by reason: invalid_json 1
<BLANKLINE>
closed windows: quality.overall mean (events) per variant
  00:00:00-00:00:10   control 0.500 (1)
<BLANKLINE>
A/B (cumulative): quality.overall, treatment minus control
  (no window closed yet)
<BLANKLINE>
alerts received by the webhook sink: 0, firing now: 0
  (none)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from monitor.ab.numbers import interval, p_text, signed, verdict_text
from monitor.alerts.alert import Alert
from monitor.demo.webhook_sink import sink_line

__all__ = ["Dashboard", "VariantStats", "ab_lines"]

_CLASSES = ("correct", "ambiguous", "incorrect")


@dataclass
class VariantStats:
    count: int = 0
    quality_sum: float = 0.0
    crag: Counter[str] = field(default_factory=Counter)

    @property
    def mean_quality(self) -> float:
        return self.quality_sum / self.count if self.count else 0.0


@dataclass
class Dashboard:
    variants: dict[str, VariantStats] = field(default_factory=dict)
    dead_letters: Counter[str] = field(default_factory=Counter)
    scored: int = 0
    windows: list[dict[str, Any]] = field(default_factory=list)
    firing: dict[str, Alert] = field(default_factory=dict)
    alerts_received: int = 0
    ab_results: dict[str, dict[str, Any]] = field(default_factory=dict)
    max_rows: int = 6

    def add_window(self, summary: dict[str, Any]) -> None:
        """A closed tumbling window from the windows topic (the last few are shown)."""
        if summary.get("kind") == "tumbling":
            self.windows = [*self.windows, summary][-self.max_rows :]

    def add_ab_result(self, result: dict[str, Any]) -> None:
        """An ``AbResult`` from the results topic: the latest cumulative one is shown."""
        if result.get("span", {}).get("scope") == "cumulative":
            self.ab_results[str(result["experiment"])] = result

    def add_alert(self, alert: Alert) -> None:
        """An alert the webhook sink received: a firing one is shown until it resolves."""
        self.alerts_received += 1
        if alert.status == "firing":
            self.firing[alert.fingerprint] = alert
        else:
            self.firing.pop(alert.fingerprint, None)

    def _shown_alerts(self) -> list[Alert]:
        """The firing alerts worth the few rows: critical first, then the broadest series
        (whole traffic, then one label: a variant), then the latest."""

        def rank(alert: Alert) -> tuple[int, int, int]:
            labels = sum(v is not None for v in alert.labels.model_dump().values())
            return (alert.severity != "critical", labels, -alert.starts_at_ms)

        return sorted(self.firing.values(), key=rank)[: self.max_rows]

    def add_scored(self, scored: dict[str, Any]) -> None:
        name = str(scored.get("variant") or "(none)")
        stats = self.variants.setdefault(name, VariantStats())
        stats.count += 1
        stats.quality_sum += float(scored["quality"]["overall"])
        stats.crag[scored["crag"]["classification"]] += 1
        self.scored += 1

    def add_dead_letter(self, letter: dict[str, Any]) -> None:
        self.dead_letters[str(letter["error"]["reason"])] += 1

    def render(self, *, elapsed_s: float, produced: int, events_per_s: float) -> str:
        lines = [
            f"elapsed {elapsed_s:6.0f} s   produced {produced:>8}   scored {self.scored:>8}"
            f"   dead letters {sum(self.dead_letters.values()):>5}"
            f"   scored/s {events_per_s:8.1f}",
            "",
            f"{'variant':<14}{'events':>7}{'mean quality':>14}"
            + "".join(f"{c:>10}" for c in _CLASSES),
        ]
        for name in sorted(self.variants):
            v = self.variants[name]
            shares = "".join(f"{v.crag[c] / v.count:>10.0%}" for c in _CLASSES)
            lines.append(f"{name:<14}{v.count:>7}{v.mean_quality:>14.3f}{shares}")
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(self.dead_letters.items()))
        lines += ["", f"dead letters by reason: {reasons or '-'}", ""]
        lines.append("closed windows: quality.overall mean (events) per variant")
        for w in self.windows:
            span = f"{_clock(w['start_ms'])}-{_clock(w['end_ms'])}"
            cells = []
            for series in w["series"]:
                if series["variant"] and not series["tenant"] and not series["application"]:
                    q = series["metrics"].get("quality.overall", {})
                    if q.get("mean") is not None:
                        cells.append(f"{series['variant']} {q['mean']:.3f} ({q['count']})")
            lines.append(f"  {span}   " + "   ".join(cells))
        if not self.windows:
            lines.append("  (none closed yet)")
        lines += ["", "A/B (cumulative): quality.overall, treatment minus control"]
        for name, result in sorted(self.ab_results.items()):
            lines += ab_lines(name, result)
        if not self.ab_results:
            lines.append("  (no window closed yet)")
        lines += [
            "",
            f"alerts received by the webhook sink: {self.alerts_received}, "
            f"firing now: {len(self.firing)}",
        ]
        lines += [f"  {sink_line(alert)}" for alert in self._shown_alerts()] or ["  (none)"]
        return "\n".join(lines)


def _clock(timestamp_ms: int) -> str:
    """UTC wall-clock time of day of an event time."""
    seconds = (timestamp_ms // 1000) % 86_400
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def ab_lines(name: str, result: dict[str, Any]) -> list[str]:
    """The demo's lines for one cumulative ``AbResult`` (as JSON): per treatment variant,
    the quality.overall difference with its always-valid confidence sequence and p-value,
    the verdict they give, the fixed-horizon interval and p-value (labelled), a detected
    change, and the guardrails the treatment is worse on.

    >>> c = {"metric": "quality.overall", "variant": "treatment", "difference": -0.00147,
    ...      "treatment_sample_size": 510, "control_sample_size": 500, "cs_low": -0.021,
    ...      "cs_high": 0.018, "always_valid_p_value": 1.0, "ci_low": -0.0063,
    ...      "ci_high": 0.0033, "p_value": 0.548, "verdict": "no_difference_detected",
    ...      "change": None}
    >>> result = {"control": "control", "comparisons": [c], "invalid_reason": None,
    ...           "analyses": [{"variant": "treatment", "guardrails_worse": ["latency_ms.total"]}]}
    >>> print("\\n".join(ab_lines("reranker-v2", result)))
      reranker-v2 treatment vs control: n 510/500  diff -0.00147  95% CS [-0.021, +0.018]  always-valid p 1.0000  -> no difference detected  (fixed horizon: 95% CI [-0.0063, +0.0033], p 0.5480)
        guardrail worse beyond its margin: latency_ms.total
    """  # noqa: E501
    lines = []
    worse = {a["variant"]: a.get("guardrails_worse", []) for a in result.get("analyses", [])}
    for c in result["comparisons"]:
        if c["metric"] != "quality.overall" or c["difference"] is None:
            continue
        change = c.get("change")
        sequence = "n/a (changed)" if change else interval(c["cs_low"], c["cs_high"], 3)
        lines.append(
            f"  {name} {c['variant']} vs {result['control']}: "
            f"n {c['treatment_sample_size']}/{c['control_sample_size']}  "
            f"diff {signed(c['difference'], 3)}  "
            f"95% CS {sequence}  "
            f"always-valid p {p_text(c['always_valid_p_value'])}  "
            f"-> {verdict_text(c['verdict'])}  "
            f"(fixed horizon: 95% CI {interval(c['ci_low'], c['ci_high'], 2)}, "
            f"p {p_text(c['p_value'])})"
        )
        if change:
            lines.append(
                f"    effect changed in {_clock(change['window_start_ms'])}-"
                f"{_clock(change['window_end_ms'])}: "
                f"{signed(change['difference_before'], 3)} before, "
                f"{signed(change['difference_after'], 3)} after"
            )
        if worse.get(c["variant"]):
            lines.append(f"    guardrail worse beyond its margin: {', '.join(worse[c['variant']])}")
    return lines
