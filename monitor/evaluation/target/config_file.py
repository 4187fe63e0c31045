"""``load_target_config``: a target config JSON file and the ``--target`` URL in, a
:class:`~monitor.evaluation.target.target_config.TargetConfig` out.

The file is one JSON object; every key is optional, an unknown key is an error::

    {"request_template": {"question": "{{query}}", "user": {"roles": "{{user_roles}}"}},
     "response_map": {"response.text": "data.0.answer", "chunks": "data.0.passages"},
     "headers": {"Authorization": "Bearer ..."},
     "concurrency": 8, "timeout_s": 30, "max_retries": 2,
     "backoff_base_s": 0.2, "backoff_max_s": 5.0}

Anything wrong is a :class:`~monitor.evaluation.target.errors.TargetConfigError`,
``FILE:LINE: field FIELD: reason`` (a bad ``--target`` URL: ``--target: reason``).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     path = Path(tmp, "target.json")
...     _ = path.write_text('{"concurrency": 2,\\n "request_template": {"q": "{{foo}}"}}')
...     try:
...         load_target_config(path, "http://127.0.0.1:8000/query")
...     except TargetConfigError as exc:
...         print(str(exc).replace(str(path), "target.json"))
target.json:2: field request_template.q: unknown placeholder {{foo}} (known: {{query}}, {{case_id}}, {{query_type}}, {{user_roles}})
"""  # noqa: E501

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import orjson

from monitor.evaluation.datasets.json_positions import line_of
from monitor.evaluation.target.errors import TargetConfigError
from monitor.evaluation.target.target_config import InvalidField, TargetConfig

__all__ = ["FILE_KEYS", "load_target_config"]

FILE_KEYS = (
    "request_template",
    "response_map",
    "headers",
    "concurrency",
    "timeout_s",
    "max_retries",
    "backoff_base_s",
    "backoff_max_s",
)
"""The keys a target config file may have."""

_INTEGERS = ("concurrency", "max_retries")
_NUMBERS = ("timeout_s", "backoff_base_s", "backoff_max_s")
_OBJECTS = ("request_template", "response_map", "headers")
_JSON_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return _JSON_KINDS.get(type(value), type(value).__name__)


def _type_problem(key: str, value: Any) -> tuple[tuple[str, ...], str] | None:
    """The first wrong type under ``key`` (its path in the file and why), else ``None``."""
    if key in _OBJECTS:
        if not isinstance(value, dict):
            return (key,), f"must be a JSON object, got {_kind(value)}"
        if key != "request_template":
            for name, item in value.items():
                if not isinstance(item, str):  # never quote it: a header value is a secret
                    return (key, name), f"must be a string, got {_kind(item)}"
        return None
    if key in _INTEGERS and (not isinstance(value, int) or isinstance(value, bool)):
        return (key,), f"must be an integer, got {_kind(value)}"
    if key in _NUMBERS and (
        not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value)
    ):
        return (key,), f"must be a number (seconds), got {_kind(value)}"
    return None


def load_target_config(path: Path, url: str) -> TargetConfig:
    """The config in the JSON file at ``path`` for the service at ``url`` (see the module
    docstring); ``TargetConfigError`` when either cannot be used."""
    file = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TargetConfigError(file, None, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        reason = f"invalid JSON: {exc.msg} (column {exc.colno})"
        raise TargetConfigError(file, exc.lineno, None, reason) from None
    text = raw.decode("utf-8")  # orjson accepted it, so it is UTF-8
    if not isinstance(data, dict):
        raise TargetConfigError(file, 1, None, f"expected a JSON object, got {_kind(data)}")

    def error(loc: tuple[str | int, ...], reason: str) -> TargetConfigError:
        field = ".".join(str(part) for part in loc) or None
        return TargetConfigError(file, line_of(text, loc), field, reason)

    for key in data:
        if key not in FILE_KEYS:
            raise error((key,), f"unknown field (known: {', '.join(FILE_KEYS)})")
        if (problem := _type_problem(key, data[key])) is not None:
            raise error(*problem)
    try:
        return TargetConfig(url=url, **data)
    except InvalidField as exc:
        if exc.loc == ("url",):
            raise TargetConfigError("--target", None, None, exc.reason) from None
        raise error(exc.loc, exc.reason) from None
