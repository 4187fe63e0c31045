"""The garbage collector's thresholds while a ``ragmon`` command runs (the CLI's
:func:`~monitor.cli.main` sets them, and puts the previous ones back when it returns).

Scoring allocates many small containers (token lists, term sets, counters) that live as
long as their chunk's entry in the chunk cache. None of them is part of a cycle, but
CPython's default collector (thresholds 700, 10, 10) runs a young collection every 700 net
container allocations and traverses every survivor again and again on its way to the
oldest generation. On 8 KB real-text events of new chunks that was 52 us of an event's
1,270 (``gc.callbacks`` timings over 8,000 events), and the whole event took 7 % longer
than with ``GC_THRESHOLDS``, where the collector runs a young collection every 10,000 net
allocations (10 us of collection per event). Cycles are still collected, a little later.

Since then the cache's token lists and term sets are no longer tracked at all
(:func:`~monitor.scoring.chunk_cache.untracked`); the thresholds still count for the
entries themselves and each event's short-lived containers: over 4,000 such events,
collections take 21 us per event with the default thresholds and 13 with these.

>>> import gc
>>> before = gc.get_threshold()
>>> with scoring_gc():
...     gc.get_threshold() == GC_THRESHOLDS
True
>>> gc.get_threshold() == before
True
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["GC_THRESHOLDS", "scoring_gc"]

GC_THRESHOLDS = (10_000, 10, 10)


@contextmanager
def scoring_gc() -> Iterator[None]:
    """``GC_THRESHOLDS`` in this process (and the processes it forks) until the block
    ends, then the thresholds from before."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
