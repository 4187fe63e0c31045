"""``ragmon ab --since``: an experiment analysed from a point in time onward.

Cumulative results hold, per comparison, both arms' count, mean and sample variance since
the experiment's first window. The summaries of the events *after* a point are a later
cumulative result minus the one that ends at that point
(:func:`~monitor.ab.summary.subtract`), so every cumulative result published after it
becomes one look of a fresh analysis (:func:`~monitor.ab.analysis.analyse` with a new
:class:`~monitor.ab.analysis.ExperimentState`): the always-valid p-values, confidence
sequences, change detection and guardrails restart at that point, as if the experiment
had begun there. This is what to do after an "effect changed" verdict: analyse the part
after the change on its own.

The point is rounded down to the end of a published cumulative window (the results only
exist at window ends); before the first one, the whole experiment is analysed.

>>> from monitor.ab.analysis import AbConfig, ExperimentState, analyse
>>> from monitor.ab.summary import Moments
>>> from monitor.events.ab_result import Span
>>> state, config = ExperimentState(), AbConfig()
>>> def look(end_ms, n, treatment_mean):
...     arms = {"control": {"quality.overall": Moments(n, 0.70, 0.0225)},
...             "treatment": {"quality.overall": Moments(n, treatment_mean, 0.0225)}}
...     return analyse("e", Span(scope="cumulative", start_ms=0, end_ms=end_ms), arms, config,
...                    state)
>>> results = [look(60_000, 300, 0.75), look(120_000, 600, 0.70)]  # then treatment 0.65
>>> later = analyse_since(results, 60_000, config)
>>> later.span.start_ms, later.span.end_ms, later.comparisons[0].treatment_sample_size
(60000, 120000, 300)
>>> round(later.comparisons[0].treatment_mean, 6), later.comparisons[0].verdict
(0.65, 'treatment_lower')
"""

from __future__ import annotations

from collections.abc import Sequence

from monitor.ab.analysis import AbConfig, ExperimentState, analyse
from monitor.ab.summary import EMPTY, Moments, subtract
from monitor.events.ab_result import AbResult, Span

__all__ = ["analyse_since", "summaries"]

Arms = dict[str, dict[str, Moments]]


def summaries(result: AbResult) -> Arms:
    """Each variant's summary per metric, as held by the result's comparisons."""
    arms: Arms = {result.control: {}}
    for c in result.comparisons:
        arms[result.control][c.metric] = Moments(
            c.control_sample_size, c.control_mean, c.control_variance
        )
        arms.setdefault(c.variant, {})[c.metric] = Moments(
            c.treatment_sample_size, c.treatment_mean, c.treatment_variance
        )
    return arms


def _minus(later: Arms, earlier: Arms) -> Arms:
    return {
        variant: {
            metric: subtract(summary, earlier.get(variant, {}).get(metric, EMPTY))
            for metric, summary in metrics.items()
        }
        for variant, metrics in later.items()
    }


def analyse_since(results: Sequence[AbResult], since_ms: int, config: AbConfig) -> AbResult | None:
    """The result of the events after ``since_ms`` (see the module docstring), from an
    experiment's cumulative ``results``; ``None`` when none ends after that point."""
    cumulative: dict[int, AbResult] = {}
    for r in results:
        if r.span.scope == "cumulative":
            cumulative[r.span.end_ms] = r
    ordered = [cumulative[end] for end in sorted(cumulative)]
    base = None
    for r in ordered:
        if r.span.end_ms <= since_ms:
            base = r
    later = [r for r in ordered if r.span.end_ms > since_ms]
    if not later:
        return None
    state = ExperimentState()
    subtracted: Arms = {} if base is None else summaries(base)
    start_ms = later[0].span.start_ms if base is None else base.span.end_ms
    out: AbResult | None = None
    for r in later:
        if base is not None and r.control != base.control:
            raise ValueError(
                f"the control changed from {base.control!r} to {r.control!r} after --since"
            )
        arms = _minus(summaries(r), subtracted)
        span = Span(scope="cumulative", start_ms=start_ms, end_ms=r.span.end_ms)
        out = analyse(r.experiment, span, arms, _with_control(config, r.control), state)
    return out


def _with_control(config: AbConfig, control: str) -> AbConfig:
    if config.control == control:
        return config
    return AbConfig(
        alpha=config.alpha,
        control=control,
        split=config.split,
        tau2_mean=config.tau2_mean,
        tau2_proportion=config.tau2_proportion,
        srm_threshold_p=config.srm_threshold_p,
        change_alpha=config.change_alpha,
        guardrail_margins=config.guardrail_margins,
    )
