"""JavaScript string semantics that spec 000's TypeScript relies on, for an exact port.

Spec 000 is written in TypeScript; a faithful port must reproduce JavaScript's idea of
whitespace (``\\s`` and ``String.prototype.trim``), of ``\\d``/``\\w``/``\\b`` (ASCII only
without the ``u`` flag), of ``String.length`` (UTF-16 code units) and of
``String.prototype.split`` (empty pieces at the ends are kept).

>>> js_split_ws("  two words ")
['', 'two', 'words', '']
>>> js_length("ab"), js_length("a\\U0001F600")
(2, 3)
>>> js_trim("\\ufeff x \\u3000")
'x'
"""

from __future__ import annotations

import re

__all__ = ["JS_WS", "WS_RUN", "js_length", "js_split_ws", "js_trim", "js_word_count"]

#: The characters JavaScript's ``\s`` matches (WhiteSpace and LineTerminator).
JS_WS = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
WS_RUN = re.compile("[" + re.escape(JS_WS) + "]+")


def js_split_ws(text: str) -> list[str]:
    """``text.split(/\\s+/)``: empty strings at the ends are kept, as in JavaScript."""
    return WS_RUN.split(text)


def js_word_count(text: str) -> int:
    """``text.split(/\\s+/).length`` without building the list.

    >>> js_word_count(""), js_word_count("a b"), js_word_count(" a ")
    (1, 2, 3)
    """
    return sum(1 for _ in WS_RUN.finditer(text)) + 1


def js_trim(text: str) -> str:
    """``text.trim()``."""
    return text.strip(JS_WS)


def js_length(text: str) -> int:
    """``text.length``: UTF-16 code units (an astral character counts twice)."""
    n = len(text)
    if text.isascii():
        return n
    return n + sum(1 for ch in text if ord(ch) > 0xFFFF)
