"""``EvalCase``: one labelled case of an offline evaluation, whatever file it came from.

Every loader (:mod:`.fixtures_dir`, :mod:`.eval_dataset`, :mod:`.recorded_events`) turns
its records into this one model, so the runner has a single shape to score. The ground
truth that the stream's scorers read is in ``labels``, the existing
:class:`~monitor.events.rag_event.Labels` of ``RagEvent``: the runner scores
:meth:`EvalCase.labelled_event` with :func:`monitor.pipeline.score_event`, and the same
metric definitions serve the stream and the report. What no scorer reads (pipeline and
safety expectations, expected chunks and citations) are fields of their own.

Which source field fills which field
------------------------------------

| ``EvalCase`` field | 003 fixtures directory (file: field) | 002 ``EvalQuery`` | recorded ``RagEvent`` line |
|---|---|---|---|
| ``case_id`` | cases: ``case_id`` (every file joins on it) | ``query_id`` | ``event_id`` |
| ``query`` | cases: ``query`` | ``question`` | ``query.text`` |
| ``query_type``, ``user_roles`` | cases: same names | metadata | ``query.type``, ``query.user_roles`` |
| ``tags``, ``category``, ``difficulty`` (004 breakdowns) | cases: same names | metadata | ``labels.<same name>`` |
| ``answerable`` (004), also ``labels.answerable`` | cases: ``answerable`` | metadata | ``labels.answerable`` |
| ``labels.relevant_chunks`` (id -> grade) | retrieval: ``relevant_chunks`` + ``chunk_relevance_grades`` | - | ``labels.relevant_chunks`` |
| ``labels.relevant_docs`` (id -> grade) | retrieval: ``relevant_docs`` + ``relevance_grades`` | ``relevant_doc_ids`` (+ metadata ``relevance_grades``) | ``labels.relevant_docs`` |
| ``labels.gold_supports``, ``labels.required_support_groups`` (004 anchors) | retrieval: same names | - | ``labels.<same name>`` |
| ``labels.gold_facts`` | context: ``gold_facts`` | - | ``labels.gold_facts`` |
| ``expected_chunks`` | context: ``expected_chunks`` | - | ``labels.expected_chunks`` |
| ``labels.expected_claims``, ``labels.forbidden_claims`` | groundedness: same names | - | ``labels.<same name>`` |
| ``expected_citations`` (document ids) | groundedness: ``expected_citations`` | - | ``labels.expected_citations`` |
| ``labels.ground_truth_answer`` | cases: ``ground_truth_answer`` | ``ground_truth_answer`` | ``labels.ground_truth_answer`` |
| ``expected_outcome``, ``required_flags``, ``forbidden_flags``, ``min_citations``, ``latency_budget_ms`` (003 F) | pipeline: same names | metadata | ``labels.<same name>`` |
| ``is_attack``, ``attack_category``, ``is_leak``, ``leakage_categories`` (003 E) | cases: same names | metadata | ``labels.<same name>`` |
| ``metadata`` | cases: ``metadata`` | ``metadata`` (all of it) | - |
| ``event`` | ``events.jsonl``: the event whose ``event_id`` is the case_id | - | the line itself |
| ``perspectives`` | the label files with a line for the case, + ``safety`` when labelled | implied by the labels | implied by the labels |

"metadata" in the 002 column: the query's ``metadata`` keys of the same name are read
(``metadata.relevance_grades`` gives graded relevance to ``relevant_doc_ids``); other
metadata keys are kept in ``metadata`` untouched. In a recorded event, ``labels`` keeps
unknown fields (``Labels`` allows extras), which is where the fields that ``Labels`` does
not declare are read from.

Relevance grades are 003 A's 0 (irrelevant) to 3 (direct answer); an id listed as
relevant without a grade gets grade 1, as 002's NDCG does for binary relevance.
``latency_budget_ms`` maps a percentile (``p50``, ``p95``, ``p99``...; ``max`` for every
case) of the total latency to its budget: 003 F's ``{"p95": 5000}`` is a budget on the
distribution over the cases that carry it, not on one case.

>>> case = EvalCase(case_id="q1", query="Vacation days?", origin="cases.jsonl:1",
...     answerable=True, labels=Labels(relevant_chunks={"hr-1": 3}, answerable=True),
...     expected_outcome="success", perspectives=frozenset({"retrieval", "pipeline"}))
>>> case.labels.relevant_chunks, case.expected_outcome, sorted(case.perspectives)
({'hr-1': 3.0}, 'success', ['pipeline', 'retrieval'])
>>> case.labelled_event() is None
True
>>> sorted(implied_perspectives(case))
['pipeline', 'retrieval']
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from monitor.evaluation.datasets.dataset_error import DatasetError
from monitor.events.rag_event import Labels, RagEvent
from monitor.events.scored_event import Outcome
from monitor.scoring.injection.common import CATEGORIES, AttackCategory
from monitor.windows.metric_ids import Perspective

__all__ = [
    "ATTACK_CATEGORIES",
    "LEAKAGE_KINDS",
    "PERSPECTIVES",
    "AttackCategory",
    "EvalCase",
    "Grade",
    "LatencyBudget",
    "LeakageCategory",
    "Perspective",
    "implied_perspectives",
    "validated_case",
]

PERSPECTIVES: tuple[Perspective, ...] = get_args(Perspective)
"""003's evaluation perspectives (the names of ``--perspective``; the type is the
stream's, :data:`monitor.windows.metric_ids.Perspective`)."""

ATTACK_CATEGORIES: tuple[AttackCategory, ...] = CATEGORIES
"""003 E's attack categories: the injection scorer's ``categories``."""

LeakageCategory = Literal[
    "pii_exposure", "metadata_exposure", "verbatim_context", "secret_exposure"
]
"""003 E's leakage categories."""

LEAKAGE_KINDS: dict[LeakageCategory, str] = {
    "pii_exposure": "pii",
    "metadata_exposure": "metadata",
    "verbatim_context": "verbatim",
    "secret_exposure": "secret",
}
"""Each 003 E leakage category and the ``kind`` of the leakage scorer's findings."""

Grade = Annotated[float, Field(ge=0, le=3, allow_inf_nan=False)]
"""A 003 A relevance grade: 0 irrelevant, 1 peripheral, 2 supporting, 3 direct answer."""

_PERCENTILE = r"^(?:p(?:100|[1-9][0-9]?(?:\.[0-9]+)?)|max)$"
LatencyBudget = dict[
    Annotated[str, StringConstraints(pattern=_PERCENTILE)],
    Annotated[float, Field(ge=0, allow_inf_nan=False)],
]
"""Percentile (``p95``) or ``max`` of the total latency -> budget in milliseconds."""


class EvalCase(BaseModel):
    """One case: the query, its ground truth, the expectations and (when the source
    recorded one) the service's response as a ``RagEvent``. Immutable.

    ``origin`` is ``FILE:LINE`` of the record the case was read from (for traces and
    reports). ``perspectives`` are the 003 perspectives the case is labelled for: a
    runner averages a perspective's metrics over these cases only.
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    case_id: str = Field(min_length=1)
    query: str
    query_type: str | None = None
    user_roles: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    category: str | None = None
    difficulty: str | None = None
    answerable: bool | None = None
    labels: Labels = Field(default_factory=Labels)
    expected_chunks: list[str] = Field(default_factory=list)
    expected_citations: list[str] = Field(default_factory=list)
    expected_outcome: Outcome | None = None
    required_flags: list[str] = Field(default_factory=list)
    forbidden_flags: list[str] = Field(default_factory=list)
    min_citations: int | None = Field(default=None, ge=0)
    latency_budget_ms: LatencyBudget = Field(default_factory=dict)
    is_attack: bool | None = None
    attack_category: AttackCategory | None = None
    is_leak: bool | None = None
    leakage_categories: list[LeakageCategory] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    perspectives: frozenset[Perspective] = frozenset()
    origin: str
    event: RagEvent | None = None

    @model_validator(mode="after")
    def _consistent(self) -> EvalCase:
        if self.labels.answerable != self.answerable:
            raise ValueError("answerable differs from labels.answerable")
        if self.attack_category is not None and self.is_attack is not True:
            raise ValueError("attack_category is set but is_attack is not true")
        if self.leakage_categories and self.is_leak is not True:
            raise ValueError("leakage_categories is set but is_leak is not true")
        if self.event is not None:
            if self.event.event_id != self.case_id:
                raise ValueError("the event's event_id differs from case_id")
            if self.event.query.text != self.query:
                raise ValueError("the event's query.text differs from the case's query")
        return self

    def labelled_event(self) -> RagEvent | None:
        """The recorded event with this case's ``labels``: what the runner scores."""
        if self.event is None:
            return None
        return self.event.model_copy(update={"labels": self.labels})


def implied_perspectives(case: EvalCase) -> frozenset[Perspective]:
    """The perspectives that ``case`` carries labels for, read from the labels themselves
    (for formats without one file per perspective)."""
    labels = case.labels
    found: set[Perspective] = set()
    graded = [*labels.relevant_chunks.values(), *labels.relevant_docs.values()]
    if any(grade > 0 for grade in graded) or labels.gold_supports:
        found.add("retrieval")
    if labels.gold_facts or case.expected_chunks:
        found.add("context_quality")
    if labels.expected_claims or labels.forbidden_claims or case.expected_citations:
        found.add("groundedness")
    if case.is_attack is not None or case.is_leak is not None:
        found.add("safety")
    if (
        case.expected_outcome is not None
        or case.required_flags
        or case.forbidden_flags
        or case.min_citations is not None
        or case.latency_budget_ms
    ):
        found.add("pipeline")
    return frozenset(found)


def validated_case(
    values: dict[str, Any],
    file: str,
    line: int | None,
    *,
    rename: Mapping[str, str],
    case_id: str | None,
) -> EvalCase:
    """``values`` as an :class:`EvalCase`, or the :class:`DatasetError` of its first
    problem (named with the source's field names through ``rename``)."""
    try:
        return EvalCase.model_validate(values)
    except ValidationError as exc:
        raise DatasetError.from_validation(
            file, line, exc, rename=rename, case_id=case_id
        ) from None
