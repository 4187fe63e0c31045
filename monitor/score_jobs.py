"""``ragmon score --jobs N``: the lines scored by ``N`` processes, written in input order.

Scoring is per event and pure, so blocks of lines go to worker processes (forked: each
starts with the parent's settings and its own chunk cache of ``MONITOR_CHUNK_CACHE_BYTES``)
and come back serialised. At most ``2 * N`` blocks are in flight, so memory stays flat
however long the input is.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice

from monitor.pipeline import score_lines
from monitor.scoring.score_scale import ScoreScales
from monitor.scoring.warm_up import warm_up

__all__ = ["BLOCK_LINES", "score_lines_in_processes"]

BLOCK_LINES = 64
"""Lines per block: small enough that when the input ends, the process still scoring the
last block keeps the other idle only briefly (an 8 KB real-text block of 64 lines is about
0.08 s of scoring; 256 lines left one of two cores idle for up to 0.3 s), large enough that
sending it costs little against scoring it."""


def score_lines_in_processes(
    lines: Iterable[bytes], *, jobs: int, max_bytes: int, score_scales: ScoreScales
) -> Iterator[tuple[bytes, bool]]:
    """:func:`~monitor.pipeline.score_lines` over ``jobs`` processes (same output)."""
    score = functools.partial(_score_block, max_bytes, score_scales)
    source = iter(lines)
    pending: deque[Future[list[tuple[bytes, bool]]]] = deque()
    first = 1
    warm_up()  # the forked processes share the tables instead of each building them
    with ProcessPoolExecutor(jobs) as pool:
        while True:
            while len(pending) < 2 * jobs:
                block = list(islice(source, BLOCK_LINES))
                if not block:
                    break
                pending.append(pool.submit(score, first, block))
                first += len(block)
            if not pending:
                return
            yield from pending.popleft().result()


def _score_block(
    max_bytes: int, score_scales: ScoreScales, first: int, block: list[bytes]
) -> list[tuple[bytes, bool]]:
    return list(score_lines(block, max_bytes=max_bytes, score_scales=score_scales, first=first))
