"""Judge a set of cases with one client and one rubric, resuming from a progress store.

:func:`judge_all` keys every case by :func:`~monitor.evaluation.judge.case.case_hash`
(case, rubric, model, prompt version). A key already in the store is answered from it
without a call; identical cases in one run are judged once; every new verdict is recorded
(and fsynced) as soon as it arrives, so a crash loses only the cases in flight. At most
``concurrency`` judgements run at once (the client's rate limit applies on top).

A case the judge fails on (:class:`~monitor.evaluation.judge.errors.JudgeError`) stops the
run with that error (``on_error="raise"``: what was judged is in the store, a re-run
resumes) or is logged and left out of the result (``on_error="skip"``: it is not
recorded, so a re-run tries it again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Literal

from monitor.evaluation.judge.case import JudgeCase, case_hash
from monitor.evaluation.judge.client import JudgeClient
from monitor.evaluation.judge.errors import JudgeError
from monitor.evaluation.judge.progress import ProgressStore
from monitor.evaluation.judge.rubrics import Rubric
from monitor.evaluation.judge.verdict import JudgeInput, Verdict

__all__ = ["OnError", "judge_all", "judge_case"]

log = logging.getLogger(__name__)

OnError = Literal["raise", "skip"]


async def judge_case(
    case: JudgeCase, client: JudgeClient, rubric: Rubric, *, key: str | None = None
) -> Verdict:
    """One call (plus retries): ``case`` judged by ``client`` with ``rubric``."""
    messages = rubric.messages(case)
    reply = await client.complete(messages, rubric.output_model)
    output = reply.value
    return Verdict(
        key=key or case_hash(case, rubric.name, client.model, rubric.prompt_version),
        case_id=case.case_id,
        rubric=rubric.name,
        prompt_version=rubric.prompt_version,
        prompt_sha256=rubric.prompt_sha256,
        model=client.model,
        served_model=reply.served_model,
        system_fingerprint=reply.system_fingerprint,
        scores=output.scores(),
        passed=output.passed,
        output=output.model_dump(mode="json"),
        judge_input=JudgeInput(case=case, request=client.request_body(messages)),
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        cost_usd=reply.cost_usd,
        requests=reply.requests,
        repaired=reply.repaired,
        latency_s=reply.latency_s,
        judged_at=datetime.now(UTC),
    )


async def judge_all(
    cases: Iterable[JudgeCase],
    client: JudgeClient,
    rubric: Rubric,
    store: ProgressStore | None = None,
    *,
    concurrency: int = 4,
    on_error: OnError = "raise",
    on_verdict: Callable[[Verdict], None] | None = None,
) -> list[Verdict]:
    """The verdicts of ``cases``, in their order (see the module docstring).

    ``on_verdict`` is called with each new verdict once it is recorded (for a progress
    display); verdicts read from the store are not new.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1, got {concurrency}")
    ordered: list[tuple[str, JudgeCase]] = [
        (case_hash(case, rubric.name, client.model, rubric.prompt_version), case) for case in cases
    ]
    verdicts: dict[str, Verdict] = {}
    pending: dict[str, JudgeCase] = {}
    for key, case in ordered:
        recorded = store.get(key) if store is not None else None
        if recorded is not None:
            verdicts[key] = recorded
        else:
            pending.setdefault(key, case)
    if verdicts:
        log.info("judge: %d of %d cases already judged, skipped", len(verdicts), len(ordered))

    gate = asyncio.Semaphore(concurrency)

    async def one(key: str, case: JudgeCase) -> None:
        async with gate:
            try:
                verdict = await judge_case(case, client, rubric, key=key)
            except JudgeError as exc:
                if on_error == "raise":
                    raise
                log.warning("judge: case %s left out: %s", case.case_id, exc)
                return
        if store is not None:
            store.record(key, verdict)
        verdicts[key] = verdict
        if on_verdict is not None:
            on_verdict(verdict)

    tasks = [asyncio.create_task(one(key, case)) for key, case in pending.items()]
    try:
        for finished in asyncio.as_completed(tasks):
            await finished
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return [verdicts[key] for key, _ in ordered if key in verdicts]
