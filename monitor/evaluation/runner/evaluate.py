"""``evaluate``: one offline evaluation, from a dataset path to an :class:`EvalReport`.

Steps: load the dataset (:func:`~monitor.evaluation.datasets.load_dataset`; invalid
records stop the run unless ``skip_invalid``), pick the suite's cases, get a response
per case (the recorded events, or ``--target``'s live service), score each labelled event
with the stream's own :func:`~monitor.pipeline.score_event`, read it against the case
(:func:`~monitor.evaluation.metrics.case_metrics.evaluate_case`), judge the answers
(``--judge``), and aggregate (:func:`~monitor.evaluation.metrics.summary.summarize`).
Writing the files and the regression gate are the caller's (``ragmon eval``).
"""

from __future__ import annotations

import hashlib
import platform
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

from monitor.errors import MonitorError
from monitor.evaluation.datasets import (
    PERSPECTIVES,
    EvalCase,
    LoadedDataset,
    Perspective,
    load_dataset,
)
from monitor.evaluation.metrics.catalogue import DEFAULT_TARGETS, KS, Target
from monitor.evaluation.metrics.summary import summarize
from monitor.evaluation.reports.progress_bar import ProgressBar
from monitor.evaluation.results import CaseResult, DatasetInfo, EvalReport
from monitor.evaluation.runner.frozen_heap import collector_paused, frozen_heap
from monitor.evaluation.runner.judge_stage import JudgeOptions, judge_cases
from monitor.evaluation.runner.scoring import score_cases
from monitor.evaluation.runner.suite import Suite, select_suite
from monitor.evaluation.target import TargetConfig, TargetResult, call_target
from monitor.events.scored_event import SCORER_VERSION
from monitor.scoring.score_scale import UNDECLARED, ScoreScales

__all__ = ["EvalOptions", "EvalRun", "NoResponsesError", "evaluate"]


class NoResponsesError(MonitorError):
    """The dataset records no response for any case and no ``--target`` was given."""


@dataclass(frozen=True, slots=True)
class EvalOptions:
    dataset: Path
    perspectives: tuple[Perspective, ...] = PERSPECTIVES
    suite: Suite = "full"
    seed: int = 42
    skip_invalid: bool = False
    target: TargetConfig | None = None
    judge: JudgeOptions | None = None
    targets: Mapping[str, Target] = field(default_factory=lambda: dict(DEFAULT_TARGETS))
    keep_traces: bool = False
    score_scales: ScoreScales = UNDECLARED


@dataclass(slots=True)
class EvalRun:
    """The report, and for ``--save-trace`` the event and scores of every failed case."""

    report: EvalReport
    traces: dict[str, dict[str, Any]]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    files = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else [path]
    for file in files:
        digest.update(file.name.encode() + b"\x00")
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _versions() -> dict[str, str]:
    out = {"scorer": SCORER_VERSION, "python": platform.python_version()}
    for dist in ("ragmon", "numpy", "pydantic", "matplotlib", "httpx"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def _bar(total: int, stream: TextIO | None, label: str) -> ProgressBar | None:
    return ProgressBar(total, stream=stream, label=label) if stream is not None else None


async def _responses(
    cases: Sequence[EvalCase], target: TargetConfig | None, progress: TextIO | None
) -> tuple[list[EvalCase], dict[str, TargetResult]]:
    if target is None:
        if not any(case.event is not None for case in cases):
            raise NoResponsesError(
                "the dataset records no response for any case: give --target URL to ask a "
                "live RAG service"
            )
        return list(cases), {}
    bar = _bar(len(cases), progress, "target")
    try:
        results = await call_target(
            cases, target, on_done=(lambda _: bar.advance()) if bar is not None else None
        )
    finally:
        if bar is not None:
            bar.close()
    answered = [
        case.model_copy(update={"event": r.event}) if r.event is not None else case
        for case, r in zip(cases, results, strict=True)
    ]
    return answered, {r.case_id: r for r in results}


def _score(
    cases: Sequence[EvalCase],
    live: Mapping[str, TargetResult],
    perspectives: Sequence[Perspective],
    keep_traces: bool,
    progress: TextIO | None,
    score_scales: ScoreScales,
) -> tuple[list[CaseResult], dict[str, dict[str, Any]]]:
    bar = _bar(len(cases), progress, "score")
    try:
        return score_cases(
            cases,
            live,
            perspectives,
            keep_traces,
            on_done=bar.advance if bar else None,
            score_scales=score_scales,
        )
    finally:
        if bar is not None:
            bar.close()


async def evaluate(
    options: EvalOptions,
    *,
    progress: TextIO | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> EvalRun:
    """Run one evaluation (see the module docstring). ``progress`` receives progress bars
    (``None``: silent). Raises ``DatasetError``, ``NoResponsesError`` or ``JudgeError``."""
    started_at, started = now(), time.perf_counter()
    with collector_paused():
        loaded = load_dataset(options.dataset, skip_invalid=options.skip_invalid)
    with frozen_heap():
        return await _evaluate(options, loaded, started_at, started, progress)


async def _evaluate(
    options: EvalOptions,
    loaded: LoadedDataset,
    started_at: datetime,
    started: float,
    progress: TextIO | None,
) -> EvalRun:
    chosen = select_suite(loaded.cases, options.suite, seed=options.seed)
    cases, live = await _responses(chosen, options.target, progress)
    results, traces = _score(
        cases, live, options.perspectives, options.keep_traces, progress, options.score_scales
    )
    judge_section = None
    if options.judge is not None:
        bar = _bar(
            len(cases) * len(options.judge.rubrics) * options.judge.iterations, progress, "judge"
        )
        try:
            judge_section = await judge_cases(
                cases,
                results,
                options.judge,
                on_verdict=(lambda _: bar.advance()) if bar is not None else None,
            )
        finally:
            if bar is not None:
                bar.close()
    summary = summarize(results, perspectives=options.perspectives, targets=options.targets)
    report = EvalReport(
        run_id=uuid.uuid4().hex,
        created_at=started_at.isoformat(timespec="seconds"),
        timestamp=started_at.strftime("%Y%m%d_%H%M%S"),
        duration_s=round(time.perf_counter() - started, 3),
        seed=options.seed,
        dataset=DatasetInfo(
            name=loaded.name,
            format=loaded.format,
            path=str(options.dataset),
            sha256=_sha256(options.dataset),
            cases=len(loaded.cases),
            evaluated=len(results),
            skipped=[
                {"origin": e.file if e.line is None else f"{e.file}:{e.line}", "reason": str(e)}
                for e in loaded.skipped
            ],
        ),
        config={
            "perspectives": list(options.perspectives),
            "suite": options.suite,
            "seed": options.seed,
            "ks": list(KS),
            "target": None if options.target is None else _target_config(options.target),
            "judge": None
            if options.judge is None
            else {
                "model": options.judge.model,
                "rubrics": list(options.judge.rubrics),
                "iterations": options.judge.iterations,
                "spot_check_n": options.judge.spot_check_n,
                "second_model": options.judge.second_model or None,
            },
            "targets": {metric_id: str(t) for metric_id, t in options.targets.items()},
            "score_scale": options.score_scales.score,
            "rerank_score_scale": options.score_scales.rerank,
        },
        versions=_versions(),
        metrics=summary.metrics,
        perspectives=summary.perspectives,
        breakdowns=summary.breakdowns,
        judge=judge_section,
        cases=results,
    )
    return EvalRun(report=report, traces=traces)


def _target_config(target: TargetConfig) -> dict[str, Any]:
    """The target's settings for the report: the URL without credentials, path or query
    (which may carry a token), and no header (which may carry a key)."""
    return {
        "url": target.origin,
        "concurrency": target.concurrency,
        "timeout_s": target.timeout_s,
        "max_retries": target.max_retries,
    }
