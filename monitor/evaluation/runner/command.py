"""``ragmon eval``: the command (evaluate, write, gate, exit code); its arguments are
:mod:`.arguments`'s.

Exit codes: 0 the run finished (and the gate, when it ran, passed); 1 the regression
gate failed (a metric regressed beyond its tolerance, missed its target, is in the
baseline but not in the run, or could not be evaluated because its cases all failed;
the table says which, and the JSON report's ``gate`` section too); 2 a user error (bad
argument, invalid dataset, unreadable baseline), with one line on stderr.

The gate runs with ``--baseline REPORT.json`` (regressions and targets), or with
``--gate`` alone (targets only). Targets are 003's table unless ``--gate-config FILE``
changes them (and the tolerances).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TextIO, cast

from monitor.config import Settings
from monitor.errors import MonitorError
from monitor.evaluation.datasets import Perspective
from monitor.evaluation.gate import (
    GateConfig,
    compare,
    gate_section,
    load_gate_config,
    render_gate_markdown,
    render_gate_table,
)
from monitor.evaluation.metrics.summary import DERIVED
from monitor.evaluation.reports import render_console, write_reports, write_traces
from monitor.evaluation.results import load_report
from monitor.evaluation.runner.evaluate import EvalOptions, EvalRun, evaluate
from monitor.evaluation.runner.judge_stage import JudgeOptions
from monitor.evaluation.target import TargetConfig, load_target_config

__all__ = ["EXIT_GATE_FAILED", "EvalUsageError", "run_eval"]

EXIT_GATE_FAILED = 1
DATASET_FORMS = (
    "a spec 003 fixtures directory (cases.jsonl and its labels), a spec 002 EvalDataset "
    "JSON file, or recorded RagEvent JSON lines with labels"
)


def _judge_options(args: argparse.Namespace, settings: Settings, out_dir: Path) -> JudgeOptions:
    model = args.judge_model or settings.judge_model
    if not model:
        raise _usage("--judge needs a model: --judge-model NAME or MONITOR_JUDGE_MODEL")
    if args.judge_iterations < 1:
        raise _usage("--judge-iterations must be >= 1")
    return JudgeOptions(
        base_url=settings.judge_base_url,
        model=model,
        api_key=settings.judge_api_key,
        progress_dir=args.judge_progress or out_dir / "judge_progress",
        rubrics=args.judge_rubrics,
        iterations=args.judge_iterations,
        spot_check_n=args.judge_spot_check,
        second_model=args.judge_second_model or settings.judge_second_model,
        concurrency=settings.judge_concurrency,
        timeout_s=settings.judge_timeout_s,
        max_retries=settings.judge_max_retries,
        rate_limit_per_s=settings.judge_rate_limit_per_s,
        price_per_1k_input_usd=settings.judge_price_per_1k_input_usd,
        price_per_1k_output_usd=settings.judge_price_per_1k_output_usd,
        seed=args.seed,
    )


class EvalUsageError(MonitorError):
    """A combination of ``ragmon eval`` options that cannot work."""


def _usage(message: str) -> EvalUsageError:
    return EvalUsageError(f"eval: {message}")


def _target(args: argparse.Namespace) -> TargetConfig | None:
    if args.target is None:
        if args.target_config is not None:
            raise _usage("--target-config needs --target URL")
        return None
    if args.target_config is not None:
        return load_target_config(args.target_config, args.target)
    try:
        return TargetConfig(url=args.target)
    except ValueError as exc:
        raise _usage(f"--target: {exc}") from None


def run_eval(
    args: argparse.Namespace,
    settings: Settings,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``ragmon eval`` (see the module docstring). Raises ``EvalUsageError`` and
    ``MonitorError`` subclasses for user errors (the CLI turns them into exit code 2).
    ``stdout``/``stderr`` default to the process's streams at call time."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if args.dataset is None:
        raise _usage(f"needs a dataset: ragmon eval DATASET, where DATASET is {DATASET_FORMS}")
    out_dir = args.out_dir or Path(settings.eval_reports_dir)
    traces_dir = args.traces_dir or Path(settings.eval_traces_dir)
    for option, directory in (("--out-dir", out_dir), ("--traces-dir", traces_dir)):
        if directory.exists() and not directory.is_dir():
            raise _usage(f"{option} {directory} exists and is not a directory")
    if args.output is not None and (not args.output or "/" in args.output or "\\" in args.output):
        raise _usage(f"--output must be a file name stem, got {args.output!r}")
    gate_config = load_gate_config(args.gate_config) if args.gate_config else GateConfig()
    baseline = load_report(args.baseline) if args.baseline is not None else None
    options = EvalOptions(
        dataset=args.dataset,
        perspectives=cast(tuple[Perspective, ...], args.perspective),
        suite=args.suite,
        seed=args.seed,
        skip_invalid=args.skip_invalid,
        target=_target(args),
        judge=_judge_options(args, settings, out_dir) if args.judge else None,
        targets=dict(gate_config.targets),
        keep_traces=args.save_trace,
        score_scales=settings.score_scales,
    )
    runs: list[EvalRun] = []

    async def main() -> None:
        # The task's result stays None: asyncio.run's exit path can format a repr of its
        # finished main task (result included), which for 10,000 cases takes a second.
        runs.append(await evaluate(options, progress=None if args.quiet else stderr))

    asyncio.run(main())
    run = runs[0]
    report = run.report
    gate = None
    if baseline is not None or args.gate:
        gate = compare(report, baseline, gate_config, derived=DERIVED)
        report = report.model_copy(update={"gate": gate_section(gate, args.baseline)})
    paths = write_reports(
        report,
        out_dir,
        name=args.output,
        plots=not args.no_plots,
        gate_markdown=render_gate_markdown(gate) if gate is not None else None,
        gate=gate,
    )
    print(render_console(report, verbose=args.verbose), file=stdout)
    for skipped in report.dataset.skipped:
        print(f"skipped {skipped.reason}", file=stdout)
    print(f"report: {paths.json}", file=stdout)
    print(f"        {paths.markdown}", file=stdout)
    print(f"        {paths.csv}", file=stdout)
    if paths.html is not None:
        print(f"        {paths.html}", file=stdout)
    for plot in paths.plots:
        print(f"        {plot}", file=stdout)
    if args.save_trace:
        for trace in write_traces(report, run.traces, traces_dir):
            print(f"trace:  {trace}", file=stdout)
    if gate is not None:
        print(render_gate_table(gate, only_interesting=not args.verbose), file=stdout)
        if gate.failed:
            return EXIT_GATE_FAILED
    return 0
