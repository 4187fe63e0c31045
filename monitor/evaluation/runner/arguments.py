"""``ragmon eval``'s arguments (:func:`add_eval_parser`), apart from the command
(:mod:`.command`): building the CLI's parser imports only the perspectives and the rubric
names, not the evaluation (75 ms of the 0.55 s a ``ragmon score`` took to start)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from monitor.evaluation.datasets import PERSPECTIVES, Perspective
from monitor.evaluation.judge.rubrics import RUBRICS

__all__ = ["add_eval_parser"]


def _perspectives(text: str) -> tuple[Perspective, ...]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    if names == ["all"]:
        return PERSPECTIVES
    unknown = [n for n in names if n not in PERSPECTIVES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown perspective {', '.join(unknown) or '(none)'}; choose from "
            f"{','.join(PERSPECTIVES)}"
        )
    return tuple(p for p in PERSPECTIVES if p in names)


def _rubrics(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [n for n in names if n not in RUBRICS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown rubric {', '.join(unknown) or '(none)'}; choose from {','.join(RUBRICS)}"
        )
    return names


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0: {text!r}")
    return value


def _positive_count(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1: {text!r}")
    return value


def add_eval_parser(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``eval`` subcommand and its options."""
    e = sub.add_parser("eval", help="offline evaluation over a labelled dataset")
    e.add_argument(
        "dataset",
        nargs="?",
        type=Path,
        default=None,
        help="003 fixtures directory, 002 EvalDataset JSON, or recorded RagEvent JSON lines",
    )
    e.add_argument(
        "--perspective",
        type=_perspectives,
        default=PERSPECTIVES,
        help="comma-separated: " + ",".join(PERSPECTIVES) + " (default all)",
    )
    e.add_argument(
        "--suite",
        choices=("full", "smoke"),
        default="full",
        help="smoke: a small stratified subset for pull requests",
    )
    e.add_argument("--seed", type=int, default=42, help="seed of every random choice (42)")
    e.add_argument(
        "--skip-invalid",
        action="store_true",
        help="leave invalid records out (and report them) instead of stopping",
    )
    e.add_argument(
        "--target",
        metavar="URL",
        help="ask a live RAG service each question (POST) instead of using recorded responses",
    )
    e.add_argument(
        "--target-config",
        type=Path,
        metavar="FILE",
        help="JSON: request_template, response_map, headers, concurrency, timeout_s, max_retries",
    )
    e.add_argument(
        "--judge",
        action="store_true",
        help="judge answers with an OpenAI-compatible model (MONITOR_JUDGE_*)",
    )
    e.add_argument("--judge-model", help="judge model (default MONITOR_JUDGE_MODEL)")
    e.add_argument(
        "--judge-rubrics",
        type=_rubrics,
        default=tuple(RUBRICS),
        help="comma-separated: " + ",".join(RUBRICS),
    )
    e.add_argument("--judge-iterations", type=_positive_count, default=1, help="judge runs (1)")
    e.add_argument(
        "--judge-spot-check",
        type=_count,
        default=0,
        metavar="N",
        help="re-judge N seeded cases with a second judge (0: off)",
    )
    e.add_argument(
        "--judge-second-model",
        help="second judge model for the spot-check (default: a stricter "
        "prompt version of the same model)",
    )
    e.add_argument(
        "--judge-progress",
        type=Path,
        metavar="DIR",
        help="progress files of the judge (default <out-dir>/judge_progress)",
    )
    e.add_argument(
        "--baseline",
        type=Path,
        metavar="REPORT.json",
        help="compare against this report; exit 1 on a regression",
    )
    e.add_argument(
        "--gate",
        action="store_true",
        help="exit 1 when a metric misses its target (implied by --baseline)",
    )
    e.add_argument(
        "--gate-config",
        type=Path,
        metavar="FILE",
        help="JSON: targets, tolerances, alpha (default: 003's target table)",
    )
    e.add_argument("--output", metavar="NAME", help="report file stem (eval_report_<ts>)")
    e.add_argument("--out-dir", type=Path, help="report directory (MONITOR_EVAL_REPORTS_DIR)")
    e.add_argument("--save-trace", action="store_true", help="write failed cases to traces/")
    e.add_argument("--traces-dir", type=Path, help="trace directory (MONITOR_EVAL_TRACES_DIR)")
    e.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    e.add_argument("-v", "--verbose", action="store_true", help="every metric on the console")
    e.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
