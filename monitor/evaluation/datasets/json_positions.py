"""The line of a value inside a JSON document, found by its path (for error messages).

A pydantic error names a path such as ``("queries", 2, "question")``; :func:`line_of`
walks the (already valid) JSON text along that path and returns the 1-based line where
the deepest part of the path that exists starts: the line of the ``"question"`` key, or of
query 2's ``{`` when the key is missing. A part may be a string of digits for an index
(the parts of a dotted field name). It only runs when there is an error to report,
so a valid file is parsed once, by orjson.

>>> text = '{\\n "name": "x",\\n "queries": [\\n  {"query_id": "q1"},\\n  {\\n   "question": 5\\n  }\\n ]\\n}'
>>> line_of(text, ("queries", 1, "question")), line_of(text, ("queries", 0, "question"))
(6, 4)
>>> line_of(text, ("name",)), line_of(text, ()), line_of(text, ("queries", 7))
(2, 1, 3)
>>> line_of(text, "queries.1.question".split("."))
6
"""  # noqa: E501

from __future__ import annotations

import json
import re
from collections.abc import Sequence

__all__ = ["line_of"]

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, pos: int) -> int:
    found = _SPACE.match(text, pos)
    return found.end() if found is not None else pos


def _member(text: str, pos: int, key: str) -> tuple[int, int] | None:
    """``(key start, value start)`` of ``key`` in the object at ``pos``."""
    pos = _skip(text, pos + 1)
    while text.startswith('"', pos):
        key_start = pos
        name, pos = _DECODER.raw_decode(text, pos)
        value_start = _skip(text, _skip(text, pos) + 1)  # past the colon
        if name == key:
            return key_start, value_start
        _, pos = _DECODER.raw_decode(text, value_start)
        pos = _skip(text, pos)
        if not text.startswith(",", pos):
            return None
        pos = _skip(text, pos + 1)
    return None


def _element(text: str, pos: int, index: int) -> int | None:
    """Start of element ``index`` of the array at ``pos``."""
    pos = _skip(text, pos + 1)
    for _ in range(index):
        if text.startswith("]", pos):
            return None
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if not text.startswith(",", pos):
            return None
        pos = _skip(text, pos + 1)
    return None if text.startswith("]", pos) else pos


def line_of(text: str, path: Sequence[str | int]) -> int:
    """1-based line where the deepest existing prefix of ``path`` starts in ``text``."""
    value = _skip(text, 0)
    mark = value
    for part in path:
        if isinstance(part, str) and text.startswith("{", value):
            member = _member(text, value, part)
            if member is None:
                break
            mark, value = member
        elif text.startswith("[", value) and (isinstance(part, int) or part.isdigit()):
            element = _element(text, value, int(part))
            if element is None:
                break
            mark = value = element
        else:
            break
    return text.count("\n", 0, mark) + 1
