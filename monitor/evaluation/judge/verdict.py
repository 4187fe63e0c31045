"""The record of one judgement: scores, the reply, and everything needed to judge again.

For drift control (spec 004) a verdict keeps the judge ``model`` (and what the server said
it ran), the rubric's ``prompt_version`` and ``prompt_sha256``, and the full
``judge_input``: the case and the exact request body (messages, temperature,
``response_format``; never the API key).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from monitor.evaluation.judge.case import JudgeCase
from monitor.evaluation.judge.rubrics import Rubric, RubricOutput

__all__ = ["JudgeInput", "Verdict"]


class JudgeInput(BaseModel):
    """What the judge was given: the case and the request body sent for it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    case: JudgeCase
    request: dict[str, Any]


class Verdict(BaseModel):
    """One case judged by one model with one prompt version (keyed by ``key``, the
    :func:`~monitor.evaluation.judge.case.case_hash`). ``output`` is the validated reply;
    ``scores`` and ``passed`` are read from it. Tokens, cost, ``requests`` (HTTP attempts)
    and ``latency_s`` are this judgement's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    case_id: str
    rubric: str
    prompt_version: str
    prompt_sha256: str
    model: str
    served_model: str | None = None
    system_fingerprint: str | None = None
    scores: dict[str, int]
    passed: bool
    output: dict[str, Any]
    judge_input: JudgeInput
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    requests: int = 1
    repaired: bool = False
    latency_s: float = 0.0
    judged_at: datetime

    def output_as(self, rubric: Rubric) -> RubricOutput:
        """``output`` as the rubric's reply model (``ValueError`` for another rubric)."""
        if rubric.name != self.rubric:
            raise ValueError(f"a {self.rubric} verdict is not a {rubric.name} one")
        return rubric.output_model.model_validate(self.output)
