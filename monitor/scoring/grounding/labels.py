"""Expected and forbidden claims of the event's labels, found in the answer."""

from __future__ import annotations

from monitor.events.rag_event import Labels
from monitor.scoring.grounding.analysis import TextAnalysis, analyse

__all__ = ["EXPECTED_RECALL", "label_scores"]

EXPECTED_RECALL = 0.7


def label_scores(labels: Labels, answer: TextAnalysis) -> tuple[float | None, int | None]:
    """``expected_claims_recall`` and ``forbidden_claims_found``."""
    answer_terms = answer.terms
    answer_numbers = answer.number_keys()
    recall: float | None = None
    forbidden: int | None = None
    if labels.expected_claims:
        hits = 0
        for claim in labels.expected_claims:
            needle = analyse(claim)
            if needle.hay and needle.phrase in answer.phrase:
                hits += 1
                continue
            numbers = needle.numbers.keys()
            items = len(needle.terms) + len(numbers)
            present = len(needle.terms & answer_terms) + len(numbers & answer_numbers)
            if items and present >= EXPECTED_RECALL * items:
                hits += 1
        recall = hits / len(labels.expected_claims)
    if labels.forbidden_claims:
        forbidden = 0
        for claim in labels.forbidden_claims:
            needle = analyse(claim)
            numbers = needle.numbers.keys()
            if (needle.hay and needle.phrase in answer.phrase) or (
                (needle.terms or numbers)
                and needle.terms <= answer_terms
                and numbers <= answer_numbers
            ):
                forbidden += 1
    return recall, forbidden
