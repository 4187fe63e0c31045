"""The pipeline outcome of spec 003 F, where the event makes it plain.

In order of precedence: ``blocked`` (``guardrail_blocked`` policy flag); ``no_results``
(no chunk retrieved, or a ``no_context`` flag); ``uncertain`` (``uncertain`` flag, or
confidence below 0.5); ``success`` (at least one citation). Otherwise ``None``: the
event does not say (for example an answer without citations).

>>> from monitor.events import Chunk, Response
>>> outcome([Chunk(content="x")], Response(text="y", citations=[{"document_id": "d"}]))
'success'
>>> outcome([], None)
'no_results'
>>> outcome([Chunk()], Response(policy_flags=["guardrail_blocked"], confidence=0.1))
'blocked'
>>> outcome([Chunk()], Response(text="maybe", confidence=0.3)), outcome([Chunk()], None)
('uncertain', None)
"""

from __future__ import annotations

from collections.abc import Sequence

from monitor.events.rag_event import Chunk, Response
from monitor.events.scored_event import Outcome

__all__ = ["UNCERTAIN_CONFIDENCE", "outcome"]

UNCERTAIN_CONFIDENCE = 0.5


def outcome(chunks: Sequence[Chunk], response: Response | None) -> Outcome | None:
    flags = set(response.policy_flags) if response is not None else set()
    if "guardrail_blocked" in flags:
        return "blocked"
    if not chunks or "no_context" in flags:
        return "no_results"
    if response is None:
        return None
    if "uncertain" in flags or (
        response.confidence is not None and response.confidence < UNCERTAIN_CONFIDENCE
    ):
        return "uncertain"
    if response.citations:
        return "success"
    return None
