"""The pipeline outcome (``monitor.scoring.outcome``): blocked > no_results > uncertain >
success > None."""

from __future__ import annotations

from typing import Any

import pytest

from monitor.events import Chunk, Response
from monitor.scoring.outcome import outcome

CHUNKS = [Chunk(document_id="d", content="x", score=0.5)]
CITED = [{"document_id": "d"}]


def response(**kwargs: Any) -> Response:
    return Response(text="answer", **kwargs)


@pytest.mark.parametrize(
    ("chunks", "resp", "expected"),
    [
        # blocked wins over everything, even without chunks or with citations
        (CHUNKS, response(policy_flags=["guardrail_blocked"]), "blocked"),
        ([], response(policy_flags=["guardrail_blocked", "no_context"]), "blocked"),
        (
            CHUNKS,
            response(policy_flags=["uncertain", "guardrail_blocked"], citations=CITED),
            "blocked",
        ),
        (CHUNKS, response(policy_flags=["guardrail_blocked"], confidence=0.1), "blocked"),
        # no_results: no chunk, or a no_context flag; wins over uncertain and success
        ([], None, "no_results"),
        ([], response(citations=CITED), "no_results"),
        ([], response(confidence=0.1), "no_results"),
        (CHUNKS, response(policy_flags=["no_context"], citations=CITED), "no_results"),
        (CHUNKS, response(policy_flags=["no_context", "uncertain"]), "no_results"),
        # uncertain: flag or confidence < 0.5; wins over success
        (CHUNKS, response(policy_flags=["uncertain"], citations=CITED), "uncertain"),
        (CHUNKS, response(confidence=0.49, citations=CITED), "uncertain"),
        (CHUNKS, response(confidence=0.0), "uncertain"),
        # success: at least one citation, confidence absent or >= 0.5
        (CHUNKS, response(confidence=0.5, citations=CITED), "success"),
        (CHUNKS, response(citations=CITED), "success"),
        (CHUNKS, response(confidence=0.9, citations=CITED, policy_flags=["other"]), "success"),
        # None: the event does not say
        (CHUNKS, None, None),
        (CHUNKS, response(), None),
        (CHUNKS, response(confidence=0.9), None),
        (CHUNKS, response(abstained=True, confidence=0.9), None),
    ],
)
def test_outcome_precedence(
    chunks: list[Chunk], resp: Response | None, expected: str | None
) -> None:
    assert outcome(chunks, resp) == expected
