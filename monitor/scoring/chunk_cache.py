"""Per-text analyses shared by the scorer families and kept across events: a least
recently used cache keyed by the text's content, bounded in bytes.

A popular passage is retrieved thousands of times; its tokens, terms, trigrams, TF-IDF
counts (:class:`~monitor.scoring.grounding.TextAnalysis`), its indirect-injection result,
spec 000's factual counts (and, for the rare join a date could span, the ASCII proxy
they run on), its lower-case form (spec 000's context sufficiency) and its word count are
computed the first time and looked up afterwards. The key is the text itself (a hash table on the
content's hash, confirmed by comparing the content), so two texts never share an entry
and a hit returns exactly what a miss computes.

Budget: each entry is charged an upper bound of what it can hold once every part is
computed, ``ENTRY_BYTES + BYTES_PER_CHAR * len(text)`` (measured on real prose with
every part of the analysis filled in; ``make bench`` checks the cache's real footprint
against its budget). When the charges pass ``budget_bytes`` the least recently used
entries are dropped. Texts charged more than a quarter of the budget are never cached, so one
huge chunk cannot flush the rest. ``budget_bytes = 0`` disables caching.

The parts are lists, sets and the like of strings and numbers, never changed once made:
:func:`untracked` takes each out of the cyclic garbage collector's sight (it cannot be in
a cycle). Tracked, they made the collector read every token of every new entry at least
twice: on 8 KB real-text events of new chunks (``ragmon score`` of 4,000, ``gc.callbacks``
timings) collections took 50 us per event, and 12 us once the parts were untracked.

>>> cache = ChunkCache(budget_bytes=ChunkCache.charge("x" * 100) * 4)
>>> a = cache.entry("a" * 100)
>>> a.indirect = (0.0, ())
>>> _ = [cache.entry(ch * 100) for ch in "bcd"]
>>> cache.entry("a" * 100) is a, len(cache)
(True, 4)
>>> _ = cache.entry("e" * 100)  # "b" * 100 is the least recently used: it goes
>>> [text[0] for text in cache.texts()], cache.used_bytes <= cache.budget_bytes
(['c', 'd', 'a', 'e'], True)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from monitor.scoring.factual import TextCounts
    from monitor.scoring.grounding.analysis import TextAnalysis

__all__ = [
    "BYTES_PER_CHAR",
    "DEFAULT_BUDGET_BYTES",
    "ENTRY_BYTES",
    "ChunkCache",
    "ChunkEntry",
    "cached_part",
    "chunk_cache",
    "configure_chunk_cache",
    "untracked",
]

T = TypeVar("T")

try:  # _untracked.c, built by setup.py
    from monitor.scoring._untracked import untracked as _untracked
except ImportError:  # pragma: no cover - built wherever the tests run
    _untracked = None  # type: ignore[assignment]


def untracked(part: T) -> T:
    """``part`` (a list, tuple, set, frozenset or dict), no longer tracked by the garbage
    collector when its items are strings, numbers and the like; the caller never adds
    anything to it afterwards. Unchanged where the compiled part is not built.

    >>> import gc
    >>> tokens = untracked(["a", "b"])
    >>> tokens, gc.is_tracked(tokens) == (_untracked is None)
    (['a', 'b'], True)
    >>> gc.is_tracked(untracked([["a"]]))  # it holds a list: kept
    True
    """
    return part if _untracked is None else _untracked(part)


DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024
"""512 MiB: some 10,000 passages of 1 KB with every part computed."""

BYTES_PER_CHAR = 48
"""An analysed text holds about 38 bytes per character of prose once every part is
computed (measured with ``tracemalloc`` on pydoc_data passages: trigrams 17, tokens 9,
term sets 5, the rest of the analysis 4.5, lower-case form 1.3, ASCII proxy 0.6,
indirect result 0.4); 48 leaves room. ``tests/scoring/test_chunk_cache.py`` checks
the bound. Where the compiled tokens kernel is built, context quality keeps the trigrams as
sorted records instead (2.3 bytes per character, :func:`..tokens.trigram_keys`), so an
entry holds about 23 bytes per character; the charge stays that of the Python path."""

ENTRY_BYTES = 2_048
"""The fixed part: the entry, its dictionary slots and the small containers of an
analysis of a short text."""


class ChunkEntry:
    """What is known of one text: filled in by the scorers that need it."""

    __slots__ = (
        "analysis",
        "ascii",
        "counts",
        "indirect",
        "lower",
        "words",
    )

    def __init__(self) -> None:
        self.analysis: TextAnalysis | None = None
        self.indirect: tuple[float, tuple[str, ...]] | None = None
        self.ascii: bytes | None = None
        """The text's ASCII proxy (spec 000's factual counts over a join that
        :func:`..factual.joined_counts` cannot sum, :mod:`..composite`)."""
        self.counts: TextCounts | None = None
        """Its spec 000 factual counts (:func:`..factual.text_counts`)."""
        self.lower: str | None = None
        """``text.lower()`` (spec 000's context sufficiency, :mod:`..composite`)."""
        self.words = -1
        """``len(text.split())`` (-1: not counted yet)."""


class ChunkCache:
    """A least recently used map from text to :class:`ChunkEntry`, bounded in bytes."""

    __slots__ = ("_entries", "budget_bytes", "hits", "max_chars", "misses", "used_bytes")

    def __init__(self, budget_bytes: int = DEFAULT_BUDGET_BYTES) -> None:
        if budget_bytes < 0:
            raise ValueError("budget_bytes must be >= 0")
        self.budget_bytes = budget_bytes
        self.max_chars = max(0, (budget_bytes // 4 - ENTRY_BYTES) // BYTES_PER_CHAR)
        self.used_bytes = 0
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[str, ChunkEntry] = OrderedDict()

    @staticmethod
    def charge(text: str) -> int:
        """The bytes an entry for ``text`` is charged."""
        return ENTRY_BYTES + BYTES_PER_CHAR * len(text)

    def entry(self, text: str) -> ChunkEntry | None:
        """The entry of ``text`` (made on a miss); None when ``text`` is too long to keep."""
        entries = self._entries
        found = entries.get(text)
        if found is not None:
            entries.move_to_end(text)
            self.hits += 1
            return found
        if len(text) > self.max_chars:
            return None
        self.misses += 1
        found = entries[text] = ChunkEntry()
        self.used_bytes += self.charge(text)
        self._evict()
        return found

    def _evict(self) -> None:
        entries = self._entries
        while self.used_bytes > self.budget_bytes:
            self.used_bytes -= self.charge(entries.popitem(last=False)[0])

    def texts(self) -> Iterator[str]:
        """The cached texts, least recently used first."""
        return iter(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self.used_bytes = 0

    def __len__(self) -> int:
        return len(self._entries)


class _Shared:
    cache = ChunkCache()


def chunk_cache() -> ChunkCache:
    """The process's cache (used by :func:`~monitor.scoring.grounding.analyse` and
    :func:`~monitor.scoring.injection.score_indirect`)."""
    return _Shared.cache


def cached_part(text: str, part: str, compute: Callable[[str], T]) -> T:
    """``compute(text)``, kept as the ``part`` slot of ``text``'s entry in the process's
    cache (computed anew when ``text`` is too long to keep).

    >>> cached_part("ÉTÉ", "lower", str.lower), cached_part("ÉTÉ", "lower", str.upper)
    ('été', 'été')
    """
    entry = _Shared.cache.entry(text)
    if entry is None:
        return compute(text)
    found: T | None = getattr(entry, part)
    if found is None:
        found = compute(text)
        setattr(entry, part, found)
    return found


def configure_chunk_cache(budget_bytes: int) -> ChunkCache:
    """Replace the process's cache by an empty one of ``budget_bytes`` (the CLI does this
    once, from ``MONITOR_CHUNK_CACHE_BYTES``)."""
    _Shared.cache = ChunkCache(budget_bytes)
    return _Shared.cache
