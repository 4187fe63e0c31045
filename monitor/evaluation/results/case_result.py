"""``CaseResult``: what one case scored, per metric id, and which perspectives it passed.

``metrics`` holds the per-case value of every ``mean``/``rate`` metric the case has (see
:mod:`monitor.evaluation.metrics.catalogue`); a metric the case cannot have is absent,
never 0. ``signals`` are the raw per-case inputs of the ``derived`` metrics (the
injection score and attack label for the ROC, the latency stages), so a report can be
re-aggregated, and a baseline compared, from its cases alone.

Each line of ``failures`` starts with the perspective it belongs to (``"retrieval: no
relevant chunk in the top 5"``, ``"judge: ..."``).

``status`` is operational: ``ok``; ``error`` (the call failed, or no response was recorded);
``timeout``; ``empty`` (an answer with no text and no abstention or block). A case whose
call failed or timed out has no perspective metrics (it counts in the operational rates
only) and lists in ``unscored`` the perspectives it was labelled for (and
``abstention`` when it is unanswerable): the gate fails a target none of whose
cases could be scored. An ``empty`` answer is still scored.

>>> r = CaseResult(case_id="q1", origin="cases.jsonl:1", query="q?",
...     metrics={"retrieval.ndcg@5": 0.5}, passed={"retrieval": False},
...     failures=["retrieval: no relevant item in the top 5"])
>>> r.status, r.failed_perspectives()
('ok', ['retrieval'])
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ANSWER_MAX_CHARS", "CaseResult", "CaseStatus", "clip_answer"]

ANSWER_MAX_CHARS = 2000
"""The answer text a case result keeps (the trace files keep the whole event)."""


def clip_answer(text: str) -> str:
    """``text`` cut to :data:`ANSWER_MAX_CHARS` characters, ``…`` marking a cut.

    >>> clip_answer("short"), len(clip_answer("x" * 5000))
    ('short', 2000)
    """
    if len(text) <= ANSWER_MAX_CHARS:
        return text
    return text[: ANSWER_MAX_CHARS - 1] + "…"


CaseStatus = Literal["ok", "error", "timeout", "empty"]


class CaseResult(BaseModel):
    """One case's row of the report (and of the per-query CSV)."""

    model_config = ConfigDict(extra="forbid")

    case_id: str
    origin: str
    query: str
    query_type: str | None = None
    tags: list[str] = Field(default_factory=list)
    category: str | None = None
    difficulty: str | None = None
    answerable: bool | None = None
    perspectives: list[str] = Field(default_factory=list)
    unscored: list[str] = Field(default_factory=list)
    status: CaseStatus = "ok"
    error: str | None = None
    outcome: str | None = None
    expected_outcome: str | None = None
    # the service's answer (at most ANSWER_MAX_CHARS, cut with "…"), for the reports'
    # failed cases; None when there was no response
    answer: str | None = None
    metrics: dict[str, float] = Field(default_factory=dict)
    signals: dict[str, Any] = Field(default_factory=dict)
    passed: dict[str, bool] = Field(default_factory=dict)
    failures: list[str] = Field(default_factory=list)
    latency_ms: dict[str, float] = Field(default_factory=dict)
    judge: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def failed_perspectives(self) -> list[str]:
        """The perspectives this case failed, in the order they were evaluated."""
        return [name for name, ok in self.passed.items() if not ok]
