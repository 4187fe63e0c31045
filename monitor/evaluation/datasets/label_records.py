"""One line of each 003 label file, as a strict model (spec 003 "Fixtures Format").

Types are strict (``"3"`` is not a grade, ``"employee"`` is not a list) and unknown
fields are errors: a misspelt label name would otherwise drop that label silently and
take the case out of a metric without a word. Every field but ``case_id`` is optional.

- ``retrieval_labels.jsonl``: ``relevant_docs`` and ``relevant_chunks`` (ids judged
  relevant), ``relevance_grades`` and ``chunk_relevance_grades`` (id -> 003 A grade 0-3);
  the 004 anchors ``gold_supports`` and ``required_support_groups`` (lists of indices into
  ``gold_supports``) are accepted too.
- ``context_labels.jsonl``: ``gold_facts`` (``{"fact", "aliases"}`` objects, or a plain
  string for a fact without aliases) and ``expected_chunks``.
- ``groundedness_labels.jsonl``: ``expected_claims``, ``expected_citations`` (document
  ids) and ``forbidden_claims``.
- ``pipeline_labels.jsonl``: ``expected_outcome``, ``required_flags``,
  ``forbidden_flags``, ``min_citations`` and ``latency_budget_ms``.

>>> r = RetrievalLabelsRecord.model_validate({"case_id": "q1", "relevant_docs": ["d1", "d2"],
...     "relevance_grades": {"d1": 3, "d9": 0}})
>>> r.graded_docs()
{'d1': 3.0, 'd2': 1.0, 'd9': 0.0}
>>> ContextLabelsRecord.model_validate({"case_id": "q1", "gold_facts": ["15 days"]}).facts()
[GoldFact(fact='15 days', aliases=[])]
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from monitor.evaluation.datasets.case import Grade, LatencyBudget
from monitor.events.rag_event import GoldFact, GoldSupport
from monitor.events.scored_event import Outcome

__all__ = [
    "ContextLabelsRecord",
    "GroundednessLabelsRecord",
    "LabelsRecord",
    "PipelineLabelsRecord",
    "RetrievalLabelsRecord",
]

_RECORD = ConfigDict(frozen=True, strict=True, extra="forbid")


class LabelsRecord(BaseModel):
    """What every label line has: the case it labels."""

    model_config = _RECORD
    case_id: Annotated[str, Field(min_length=1)]


def _graded(ids: list[str], grades: dict[str, float]) -> dict[str, float]:
    """Listed ids with their grade (1 when ungraded), then the graded ids not listed."""
    graded = {item: grades.get(item, 1.0) for item in ids}
    for item, grade in grades.items():
        graded.setdefault(item, grade)
    return graded


class RetrievalLabelsRecord(LabelsRecord):
    relevant_docs: list[str] = Field(default_factory=list)
    relevance_grades: dict[str, Grade] = Field(default_factory=dict)
    relevant_chunks: list[str] = Field(default_factory=list)
    chunk_relevance_grades: dict[str, Grade] = Field(default_factory=dict)
    gold_supports: list[GoldSupport] = Field(default_factory=list)
    required_support_groups: list[list[Annotated[int, Field(ge=0)]]] = Field(default_factory=list)

    @field_validator("relevance_grades", "chunk_relevance_grades")
    @classmethod
    def _listed_are_relevant(
        cls, grades: dict[str, float], info: ValidationInfo
    ) -> dict[str, float]:
        listed_field = (
            "relevant_docs" if info.field_name == "relevance_grades" else "relevant_chunks"
        )
        listed = set(info.data.get(listed_field, ()))
        zero = sorted(item for item, grade in grades.items() if grade == 0 and item in listed)
        if zero:
            raise ValueError(f"grade 0 (irrelevant) for {zero[0]!r}, which {listed_field} lists")
        return grades

    @field_validator("required_support_groups")
    @classmethod
    def _indices_exist(cls, groups: list[list[int]], info: ValidationInfo) -> list[list[int]]:
        supports = len(info.data.get("gold_supports", ()))
        for group in groups:
            if not group:
                raise ValueError("a support group is empty")
            for index in group:
                if index >= supports:
                    raise ValueError(
                        f"index {index} is not a gold_supports index (there are {supports})"
                    )
        return groups

    def graded_docs(self) -> dict[str, float]:
        """``labels.relevant_docs``: document id -> grade."""
        return _graded(self.relevant_docs, self.relevance_grades)

    def graded_chunks(self) -> dict[str, float]:
        """``labels.relevant_chunks``: chunk id -> grade."""
        return _graded(self.relevant_chunks, self.chunk_relevance_grades)


class ContextLabelsRecord(LabelsRecord):
    gold_facts: list[GoldFact | str] = Field(default_factory=list)
    expected_chunks: list[str] = Field(default_factory=list)

    def facts(self) -> list[GoldFact]:
        """``labels.gold_facts``, a plain string read as a fact without aliases."""
        return [GoldFact(fact=f) if isinstance(f, str) else f for f in self.gold_facts]


class GroundednessLabelsRecord(LabelsRecord):
    expected_claims: list[str] = Field(default_factory=list)
    expected_citations: list[str] = Field(default_factory=list)
    forbidden_claims: list[str] = Field(default_factory=list)


class PipelineLabelsRecord(LabelsRecord):
    expected_outcome: Outcome | None = None
    required_flags: list[str] = Field(default_factory=list)
    forbidden_flags: list[str] = Field(default_factory=list)
    min_citations: int | None = Field(default=None, ge=0)
    latency_budget_ms: LatencyBudget = Field(default_factory=dict)
