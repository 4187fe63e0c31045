"""Overlap resolution: among pii and secret findings the more specific one wins."""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

from monitor.scoring.leakage.hits import Hit

__all__ = ["MAX_FINDINGS", "resolve"]

#: At most this many findings are reported (the earliest).
MAX_FINDINGS: Final = 256


def resolve(hits: list[Hit]) -> list[Hit]:
    """Drop pii/secret hits overlapping a stronger one (priority, then length); metadata
    hits overlapping a longer metadata hit. Verbatim hits never overlap each other."""
    if len(hits) < 2:
        return hits
    if len(hits) > 4 * MAX_FINDINGS:
        hits = sorted(hits)[: 4 * MAX_FINDINGS]
    kept: list[Hit] = []
    for group in (("pii", "secret"), ("metadata",)):
        members = sorted(
            (h for h in hits if h[3] in group), key=lambda h: (-h[2], h[0] - h[1], h[0])
        )
        starts: list[int] = []
        ends: list[int] = []
        for h in members:
            i = bisect_left(starts, h[0])
            if (i < len(starts) and starts[i] < h[1]) or (i > 0 and ends[i - 1] > h[0]):
                continue
            starts.insert(i, h[0])
            ends.insert(i, h[1])
            kept.append(h)
    kept.extend(h for h in hits if h[3] == "verbatim")
    return kept
