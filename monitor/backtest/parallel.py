"""Scoring in worker processes: the backtest's cost is scoring (about 1-2 ms per event of
5 KB), which is per event and pure, so it spreads over processes; windows and decisions
stay in order in the parent."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from monitor.backtest.engine import Scorer
from monitor.errors import EventError
from monitor.events.scored_event import ScoredEvent
from monitor.pipeline import process
from monitor.scoring.score_scale import ScoreScales

if TYPE_CHECKING:
    from monitor.config import Settings

__all__ = ["ParallelScorer"]


class ParallelScorer(Scorer):
    """:class:`~monitor.backtest.engine.Scorer` over ``jobs`` processes; use as a context
    manager (the processes stop at the end)."""

    def __init__(self, settings: Settings, jobs: int) -> None:
        super().__init__(settings)
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> ParallelScorer:
        self._pool = ProcessPoolExecutor(self.jobs)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def map(self, payloads: Sequence[bytes]) -> Sequence[ScoredEvent | EventError]:
        if self._pool is None or len(payloads) < 2 * self.jobs:
            return super().map(payloads)
        size = max(1, len(payloads) // (4 * self.jobs))
        score = functools.partial(
            _score, self.max_bytes, self.include_query_text, self.score_scales
        )
        return [
            EventError(*r) if isinstance(r, tuple) else r
            for r in self._pool.map(score, payloads, chunksize=size)
        ]


def _score(
    max_bytes: int, include_query_text: bool, score_scales: ScoreScales, payload: bytes
) -> ScoredEvent | tuple[str, str, str | None, str]:
    """In a worker process: ``process``, with an error as a tuple (``EventError`` does not
    pickle)."""
    result = process(
        payload,
        max_bytes=max_bytes,
        include_query_text=include_query_text,
        score_scales=score_scales,
    )
    if isinstance(result, EventError):
        return (result.stage, result.reason, result.field, result.detail)
    return result
