"""Reading JSON-lines files: numbered lines, and one line as a JSON object.

Lines are numbered from 1 as an editor shows them; blank lines are skipped (they still
count), a UTF-8 byte order mark at the start and ``\\r\\n`` line ends are accepted.
Parsing is orjson's (strict JSON: no ``NaN``, no trailing commas).

>>> parse_object("f.jsonl", 4, b'{"case_id": "q1"}')
{'case_id': 'q1'}
>>> parse_object("f.jsonl", 4, b'{"case_id": q1}')
Traceback (most recent call last):
...
monitor.evaluation.datasets.dataset_error.DatasetError: f.jsonl:4: invalid JSON: unexpected character, expected a JSON value (column 13)
>>> string_field({"case_id": "q1"}, "case_id"), string_field({"case_id": 7}, "case_id")
('q1', None)
>>> recover_field(b'{"case_id": "q7", "expected_claims": ["15 da', "case_id")
'q7'
"""  # noqa: E501

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from monitor.evaluation.datasets.dataset_error import DatasetError

__all__ = ["json_lines", "parse_object", "read_bytes", "recover_field", "string_field"]

_BOM = b"\xef\xbb\xbf"
_JSON_KINDS = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


def read_bytes(path: Path) -> bytes:
    """The file's bytes, or a ``DatasetError`` naming the file."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DatasetError(str(path), None, None, f"cannot read: {exc.strerror or exc}") from None


def json_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` for every non-blank line, without its line end."""
    data = read_bytes(path)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    for number, line in enumerate(data.split(b"\n"), start=1):
        body = line.rstrip(b"\r")
        if body.strip():
            yield number, body


def parse_object(file: str, line: int, raw: bytes, id_key: str | None = None) -> dict[str, Any]:
    """One line as a JSON object, or a ``DatasetError`` at that line (whose ``case_id``
    is the line's ``id_key`` string, recovered from the text when it is not JSON)."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        reason = f"invalid JSON: {exc.msg} (column {exc.colno})"
        case_id = recover_field(raw, id_key) if id_key else None
        raise DatasetError(file, line, None, reason, case_id=case_id) from None
    if not isinstance(value, dict):
        kind = _JSON_KINDS.get(type(value), type(value).__name__)
        raise DatasetError(file, line, None, f"expected a JSON object, got {kind}")
    return value


def string_field(value: object, key: str) -> str | None:
    """``value[key]`` when ``value`` is an object and that is a non-empty string."""
    if isinstance(value, dict):
        found = value.get(key)
        if isinstance(found, str) and found:
            return found
    return None


def recover_field(raw: bytes, key: str) -> str | None:
    """Best effort for a line that is not valid JSON: the first ``"key": "string"`` in its
    text (so a truncated label line still names the case it belonged to)."""
    found = re.search(rb'"' + re.escape(key.encode()) + rb'"\s*:\s*("(?:[^"\\]|\\.)*")', raw)
    if found is None:
        return None
    try:
        value = orjson.loads(found.group(1))
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, str) and value else None
