"""``metadata``: the event's own chunk and document ids quoted in the answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from monitor.events.rag_event import Chunk
from monitor.scoring.leakage.boundaries import boundary_ok
from monitor.scoring.leakage.hits import MAX_CANDIDATES, Hit, hit

__all__ = ["MIN_ID_LENGTH", "find_metadata"]

#: Chunk and document ids shorter than this are not searched for (too likely to be words).
MIN_ID_LENGTH: Final = 6

_ID_SHAPE = re.compile(r"[0-9\-_/]")


def find_metadata(text: str, chunks: Sequence[Chunk], out: list[Hit]) -> None:
    found: dict[str, str] = {}  # id -> type; a chunk id wins over an equal document id
    for c in chunks:
        cid, did = c.chunk_id, c.document_id
        if cid and cid in text:
            found[cid] = "chunk_id"
        if did and did in text and did not in found:
            found[did] = "document_id"
    for value, type_ in found.items():
        if len(value) < MIN_ID_LENGTH or not _ID_SHAPE.search(value):
            continue
        p = text.find(value)
        seen = 0
        while p >= 0 and seen < MAX_CANDIDATES:
            seen += 1
            end = p + len(value)
            if boundary_ok(text, p, end):
                out.append(hit(p, end, "metadata", type_))
            p = text.find(value, p + 1)
