"""``--judge``: judge every answered case with each rubric, resume after a crash, spot-check.

Which cases: those with a response whose text is not blank and that neither abstained
nor was blocked (there is nothing to judge in a refusal). Each (rubric, iteration) has
its own progress file in ``progress_dir`` (``<rubric>-<model>-iter<i>.jsonl``): a
verdict is fsynced as soon as it arrives and a re-run answers it from the file with no
call (spec 001's crash recovery). With ``iterations > 1`` the per-case metrics come from
the first iteration and the report carries every iteration's aggregate and their mean,
min and max (001).

The reliability spot-check (004) re-judges a seeded sample of the first iteration with
a second judge: ``second_model`` when given (option A), else the same model with a
reworded prompt under another prompt version (option B).

Per-case metric ids: ``judge.faithfulness``, ``judge.completeness``, ``judge.fc_pass``
(001, 1-5) and ``judge.groundedness``, ``judge.correctness``, ``judge.gc_pass`` (004,
0-5). The report's ``judge`` section stores the model, prompt versions and hashes, the
aggregates, tokens and cost, the reliability report, and every verdict with its full
judge input (004's drift control: a run can be re-judged later).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr

from monitor.evaluation.datasets.case import EvalCase
from monitor.evaluation.judge.aggregate import aggregate, aggregate_iterations
from monitor.evaluation.judge.case import JudgeCase
from monitor.evaluation.judge.client import JudgeClient
from monitor.evaluation.judge.progress import ProgressStore
from monitor.evaluation.judge.rubrics import (
    FAITHFULNESS_COMPLETENESS,
    GROUNDEDNESS_CORRECTNESS,
    RUBRICS,
    Rubric,
)
from monitor.evaluation.judge.runner import judge_all
from monitor.evaluation.judge.spot_check import spot_check
from monitor.evaluation.judge.verdict import Verdict
from monitor.evaluation.results.case_result import CaseResult
from monitor.evaluation.target.target_config import url_origin

__all__ = ["JudgeOptions", "judge_cases", "judgeable"]

_METRICS: dict[str, tuple[str, str, str]] = {
    FAITHFULNESS_COMPLETENESS.name: ("faithfulness", "completeness", "fc_pass"),
    GROUNDEDNESS_CORRECTNESS.name: ("groundedness", "correctness", "gc_pass"),
}
_STRICTER = " Score conservatively: when you hesitate between two scores, give the lower one."


@dataclass(frozen=True, slots=True)
class JudgeOptions:
    """The judge's configuration (from ``Settings`` and the ``--judge*`` options)."""

    base_url: str
    model: str
    progress_dir: Path
    api_key: SecretStr | None = None
    rubrics: tuple[str, ...] = tuple(RUBRICS)
    iterations: int = 1
    spot_check_n: int = 0
    second_model: str = ""
    concurrency: int = 4
    timeout_s: float = 120.0
    max_retries: int = 4
    rate_limit_per_s: float | None = None
    price_per_1k_input_usd: float = 0.0
    price_per_1k_output_usd: float = 0.0
    seed: int = 42

    def client(
        self, model: str | None = None, http: httpx.AsyncClient | None = None
    ) -> JudgeClient:
        return JudgeClient(
            self.base_url,
            model or self.model,
            self.api_key,
            timeout_s=self.timeout_s,
            max_retries=self.max_retries,
            rate_limit_per_s=self.rate_limit_per_s,
            price_per_1k_input_usd=self.price_per_1k_input_usd,
            price_per_1k_output_usd=self.price_per_1k_output_usd,
            seed=self.seed,
            http=http,
        )

    def store(self, rubric: str, model: str, tag: str) -> ProgressStore:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", model)
        return ProgressStore(self.progress_dir / f"{rubric}-{slug}-{tag}.jsonl")


def judgeable(case: EvalCase) -> JudgeCase | None:
    """The judge's view of ``case``, or ``None`` when there is no answer to judge."""
    event = case.event
    if event is None or event.response is None:
        return None
    response = event.response
    if (
        not response.text.strip()
        or response.abstained
        or "guardrail_blocked" in (response.policy_flags)
    ):
        return None
    return JudgeCase(
        case_id=case.case_id,
        question=case.query,
        context=tuple(chunk.content for chunk in event.chunks),
        answer=response.text,
        reference=case.labels.ground_truth_answer,
    )


def _attach(results: Sequence[CaseResult], rubric: Rubric, verdicts: Sequence[Verdict]) -> None:
    by_case = {r.case_id: r for r in results}
    first, second, passed = _METRICS[rubric.name]
    for verdict in verdicts:
        result = by_case.get(verdict.case_id)
        if result is None:
            continue
        result.metrics[f"judge.{first}"] = float(verdict.scores[first])
        result.metrics[f"judge.{second}"] = float(verdict.scores[second])
        result.metrics[f"judge.{passed}"] = 1.0 if verdict.passed else 0.0
        result.judge[rubric.name] = {
            "scores": verdict.scores,
            "passed": verdict.passed,
            "key": verdict.key,
            "model": verdict.model,
            "prompt_version": verdict.prompt_version,
        }
        failure = verdict.output.get("failure_analysis")
        if failure:
            result.judge[rubric.name]["failure_analysis"] = failure
        if not verdict.passed:
            result.failures.append(f"judge: {rubric.name} {verdict.scores}")


async def judge_cases(
    cases: Sequence[EvalCase],
    results: Sequence[CaseResult],
    options: JudgeOptions,
    *,
    http: httpx.AsyncClient | None = None,
    on_verdict: Callable[[Verdict], None] | None = None,
) -> dict[str, Any]:
    """Judge ``cases`` (see the module docstring); fills each result's ``judge`` and
    ``judge.*`` metrics and returns the report's ``judge`` section."""
    judge_input = [jc for jc in (judgeable(c) for c in cases) if jc is not None]
    section: dict[str, Any] = {
        "model": options.model,
        "base_url": url_origin(options.base_url),
        "temperature": 0,
        "judged_cases": len(judge_input),
        "iterations": options.iterations,
        "rubrics": {},
        "reliability": {},
        "progress_files": [],
    }
    new_calls = 0

    def count(verdict: Verdict) -> None:
        nonlocal new_calls
        new_calls += 1
        if on_verdict is not None:
            on_verdict(verdict)

    every: list[Verdict] = []
    async with options.client(http=http) as client:
        for name in options.rubrics:
            rubric = RUBRICS[name]
            per_iteration: list[list[Verdict]] = []
            for iteration in range(1, options.iterations + 1):
                store = options.store(name, options.model, f"iter{iteration}")
                section["progress_files"].append(str(store.path))
                try:
                    verdicts = await judge_all(
                        judge_input,
                        client,
                        rubric,
                        store,
                        concurrency=options.concurrency,
                        on_verdict=count,
                    )
                finally:
                    store.close()
                per_iteration.append(verdicts)
                every.extend(verdicts)
            _attach(results, rubric, per_iteration[0])
            entry: dict[str, Any] = {
                "prompt_version": rubric.prompt_version,
                "prompt_sha256": rubric.prompt_sha256,
                "aggregate": aggregate(per_iteration[0]) if per_iteration[0] else None,
            }
            if options.iterations > 1:
                entry["iterations"] = aggregate_iterations(
                    [aggregate(v) for v in per_iteration if v]
                )
            section["rubrics"][name] = entry
            if options.spot_check_n > 0 and per_iteration[0]:
                section["reliability"][name] = await _spot_check(
                    options, rubric, per_iteration[0], client, http
                )
    section["new_calls"] = new_calls
    section["reused_verdicts"] = len(every) - new_calls
    section["usage"] = {
        "prompt_tokens": sum(v.prompt_tokens for v in every),
        "completion_tokens": sum(v.completion_tokens for v in every),
        "requests": sum(v.requests for v in every),
        "cost_usd": sum(v.cost_usd for v in every),
    }
    section["verdicts"] = [v.model_dump(mode="json") for v in every]
    return section


async def _spot_check(
    options: JudgeOptions,
    rubric: Rubric,
    verdicts: Sequence[Verdict],
    client: JudgeClient,
    http: httpx.AsyncClient | None,
) -> dict[str, Any]:
    if options.second_model and options.second_model != options.model:
        second_rubric, model = rubric, options.second_model
    else:
        second_rubric = rubric.variant(
            f"{rubric.prompt_version}-strict", system_prompt=rubric.system_prompt + _STRICTER
        )
        model = options.model
    store = options.store(rubric.name, model, f"spot-{second_rubric.prompt_version}")
    try:
        async with options.client(model, http=http) as second:
            report = await spot_check(
                verdicts,
                second,
                second_rubric,
                sample_fraction=1.0,
                seed=options.seed,
                min_n=min(options.spot_check_n, len(verdicts)),
                max_n=options.spot_check_n,
                store=store,
                concurrency=options.concurrency,
            )
    finally:
        store.close()
    return report.as_metrics()
