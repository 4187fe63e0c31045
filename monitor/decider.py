"""Closed windows to decisions: rules, baselines, change points, the alert state, and the
A/B statistics of every experiment (cumulative since its first window at every tumbling
close, and per hopping window).

Pure and deterministic: the aggregating stage feeds it partials (and watermarks) in the
order of the partials topic, and replaying that topic after a restart rebuilds exactly
the same windows, baselines and alert states. Each closed tumbling window is evaluated
for the whole traffic and per variant, tenant and application; rules are evaluated
before the window joins the learned baseline, so a window is never compared with itself;
a window in which a metric is degraded (or critically low) does not join that metric's
baseline at all, so an incident does not become the new normal while it lasts.

The alert book keeps one alert per condition (rule, metric, series); with
``alert_grouping`` (the default) the notifications of a window are those of the
:class:`~monitor.alerts.rules.IncidentBook`, one per incident (the condition alerts that
share a cause, grouped, the most specific series named), and the condition alerts are
only in :attr:`Decision.conditions`. Without it every condition alert is a notification.
A series' rules are evaluated on its span (:mod:`monitor.drift.span`: the window, or for a
low-traffic series the trailing windows that hold the rules' minimum count); after every
series of a closed tumbling window the alert book resolves the alerts of series that went
quiet (:meth:`AlertBook.close_window`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from monitor.ab.analysis import (
    AB_METRICS,
    DEFAULT_GUARDRAIL_MARGINS,
    AbConfig,
    ExperimentState,
    analyse,
)
from monitor.alerts.alert import Alert, Diagnosis
from monitor.alerts.rules import AlertBook, IncidentBook, diagnose
from monitor.drift.baseline import BaselineBook
from monitor.drift.changepoint import ChangePoint
from monitor.drift.conditions import Condition, evaluate_window
from monitor.drift.config import DriftConfig
from monitor.drift.span import SpanBook
from monitor.events.ab_result import AbResult, Span
from monitor.windows.aggregate import Aggregate
from monitor.windows.partial import Partial
from monitor.windows.store import ClosedWindow, RollupKey, WindowKind, WindowStore, merge_metrics

if TYPE_CHECKING:  # pydantic-settings imports asyncio: a pure module only names the type
    from monitor.config import Settings

__all__ = ["Decider", "Decision"]


@dataclass(slots=True)
class Decision:
    window: ClosedWindow
    alerts: list[Alert] = field(default_factory=list)
    """The notifications to send (one per incident when grouping)."""
    ab_results: list[AbResult] = field(default_factory=list)
    conditions: list[Alert] = field(default_factory=list)
    """The condition alerts of the alert book (fired, re-notified, resolved) behind them."""


def ab_config(settings: Settings) -> AbConfig:
    return AbConfig(
        alpha=settings.ab_alpha,
        control=settings.ab_control,
        split=dict(settings.ab_split) or None,
        srm_threshold_p=settings.ab_srm_threshold_p,
        change_alpha=settings.ab_change_alpha,
        guardrail_margins=DEFAULT_GUARDRAIL_MARGINS | dict(settings.ab_guardrail_margins),
    )


class Decider:
    def __init__(self, settings: Settings) -> None:
        self.config = DriftConfig.from_settings(settings)
        self.store = WindowStore(
            [
                WindowKind("tumbling", settings.tumbling_window_ms, settings.tumbling_window_ms),
                WindowKind("hopping", settings.hopping_window_ms, settings.hopping_step_ms),
            ],
            lateness_ms=settings.allowed_lateness_ms,
            idle_partition_ms=settings.idle_partition_ms,
        )
        self.baselines = BaselineBook(self.config)
        self.incidents = IncidentBook(self.config.cooldown_ms)
        self.grouping = settings.alert_grouping
        quiet = self.config.quiet_resolve_windows
        self.alerts = AlertBook(
            self.config.cooldown_ms,
            quiet_resolve_windows=quiet,
            # events, but too few to evaluate over two of the longest spans: quiet as well
            unevaluated_resolve_windows=quiet and max(quiet, 2 * self.config.max_span_windows),
            resolve_windows=self.config.resolve_windows,
        )
        self.spans = SpanBook(self.config)
        self.ab = ab_config(settings)
        self.experiments: dict[str, ExperimentState] = {}
        self.cumulative: dict[str, dict[str, dict[str, Aggregate]]] = {}
        self.first_window_ms: dict[str, int] = {}

    def merge(self, partial: Partial) -> bool:
        return self.store.merge(partial)

    def advance(self, watermark_ms: int) -> None:
        self.store.advance(watermark_ms)

    def decide(self) -> list[Decision]:
        """The windows that closed since the last call, with the alerts they raise."""
        out = []
        for window in self.store.close():
            alerts: list[Alert] = []
            conditions: list[Alert] = []
            if window.kind == "tumbling":
                conditions = self._evaluate(window)
                alerts = self._group(window, conditions) if self.grouping else conditions
            out.append(Decision(window, alerts, self._experiments(window), conditions))
        return out

    def _group(self, window: ClosedWindow, conditions: Sequence[Alert]) -> list[Alert]:
        """The incident notifications of a window the alert book has just evaluated."""
        end = window.end_ms
        traffic = {
            key: max((agg.count for agg in stats.values()), default=0)
            for key, stats in window.series.items()
        }

        def diagnosis_for(key: RollupKey, metrics: Sequence[str], also: Sequence[str]) -> Diagnosis:
            # the window has joined the baselines of its healthy metrics by now: compare
            # with the baselines as they were before it (windows ending before its end)
            stats = window.series.get(key, {})
            return diagnose(
                metrics,
                stats,
                lambda m: self.baseline(key, m, end - 1),
                ratio=self.config.degradation_ratio,
                also_firing=also,
            )

        resolved = [a for a in conditions if a.status == "resolved"]
        return self.incidents.update(
            (window.start_ms, end), self.alerts.firing(), traffic, diagnosis_for, resolved
        )

    def _experiments(self, window: ClosedWindow) -> list[AbResult]:
        """Cumulative results at each tumbling close; per-window ones at each hopping close."""
        results = []
        for name, arms in sorted(window.experiments.items()):
            state = self.experiments.setdefault(name, ExperimentState())
            if window.kind == "tumbling":
                total = self.cumulative.setdefault(name, {})
                for variant, metrics in arms.items():
                    merge_metrics(total.setdefault(variant, {}), metrics, only=AB_METRICS)
                start = self.first_window_ms.setdefault(name, window.start_ms)
                span = Span(scope="cumulative", start_ms=start, end_ms=window.end_ms)
                results.append(analyse(name, span, total, self.ab, state))
            else:
                span = Span(scope="hopping", start_ms=window.start_ms, end_ms=window.end_ms)
                results.append(analyse(name, span, arms, self.ab, state))
        return results

    def baseline(self, key: RollupKey, metric: str, now_ms: int) -> float | None:
        found = self.baselines.baseline(key, metric, now_ms)
        return None if found is None else found.value

    def _evaluate(self, window: ClosedWindow) -> list[Alert]:
        end = window.end_ms
        points: dict[RollupKey, list[ChangePoint]] = {}
        for raw in window.change_points:
            point = ChangePoint.from_dict(raw)
            points.setdefault(point.key, []).append(point)
        alerts: list[Alert] = []
        bounds = (window.start_ms, end)
        for key, stats in sorted(window.series.items(), key=lambda kv: repr(kv[0])):
            spans = self.spans.observe(key, bounds, stats)
            evaluated_stats = dict(stats) | {name: s.stats for name, s in spans.items()}
            span_starts = {name: s.start_ms for name, s in spans.items() if s.start_ms != bounds[0]}
            found = evaluate_window(
                key,
                evaluated_stats,
                self.baselines,
                self.config,
                end,
                points.get(key, ()),
                span_starts,
            )

            def diagnosis_for(
                condition: Condition,
                stats: Mapping[str, Aggregate] = evaluated_stats,
                key: RollupKey = key,
            ) -> Diagnosis:
                return diagnose([condition.metric], stats, lambda m: self.baseline(key, m, end))

            alerts.extend(
                self.alerts.evaluate(
                    key,
                    bounds,
                    found.evaluated,
                    found.conditions,
                    diagnosis_for,
                    found.cleared,
                    found.observed,
                )
            )
            # a degraded window does not teach the baseline: an incident must not become
            # the new normal while it lasts
            degraded = {
                c.metric
                for c in found.conditions
                if c.type == "degradation" or c.rule == "critical_quality"
            }
            for metric, agg in stats.items():
                mean = agg.mean
                if mean is not None and metric not in degraded:
                    self.baselines.observe(key, metric, end, agg.count, mean)
        alerts.extend(self.alerts.close_window(bounds))
        self.spans.expire(bounds)
        return alerts
