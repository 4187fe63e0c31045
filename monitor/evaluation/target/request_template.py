"""The JSON body POSTed for a case: the target config's ``request_template`` with the
case's values put in.

The placeholders are ``{{query}}``, ``{{case_id}}``, ``{{query_type}}`` and
``{{user_roles}}``. A string value that is exactly one placeholder becomes the case's
value with its JSON type (``{{user_roles}}`` a list of strings, ``{{query_type}}`` a
string or ``null``); a placeholder inside a longer string is replaced as text
(``user_roles`` joined with commas, a ``null`` query type as nothing). Nested objects and
lists are walked; keys are left as they are. Any other ``{{name}}`` is a config error
(:func:`template_problem`), found when the config is made, not when the first case is sent.

>>> case = EvalCase(case_id="q1", query="Vacation days?", origin="cases.jsonl:1",
...                 user_roles=["employee", "manager"])
>>> render_request(DEFAULT_REQUEST_TEMPLATE, case)
{'query': 'Vacation days?', 'case_id': 'q1', 'user_roles': ['employee', 'manager'], 'query_type': None}
>>> render_request({"input": {"text": "[{{case_id}}] {{query}} as {{user_roles}}"},
...                 "tags": ["eval", "{{ case_id }}"], "top_k": 5}, case)
{'input': {'text': '[q1] Vacation days? as employee,manager'}, 'tags': ['eval', 'q1'], 'top_k': 5}
>>> template_problem({"input": ["{{question}}"]})
(('input', 0), 'unknown placeholder {{question}} (known: {{query}}, {{case_id}}, {{query_type}}, {{user_roles}})')
>>> template_problem(DEFAULT_REQUEST_TEMPLATE) is None
True
"""  # noqa: E501

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from monitor.evaluation.datasets.case import EvalCase

__all__ = ["DEFAULT_REQUEST_TEMPLATE", "PLACEHOLDERS", "render_request", "template_problem"]

PLACEHOLDERS = ("query", "case_id", "query_type", "user_roles")
"""The names a ``{{name}}`` placeholder may have."""

DEFAULT_REQUEST_TEMPLATE: Mapping[str, Any] = MappingProxyType(
    {
        "query": "{{query}}",
        "case_id": "{{case_id}}",
        "user_roles": "{{user_roles}}",
        "query_type": "{{query_type}}",
    }
)
"""The body sent when the config gives no ``request_template``."""

_PLACEHOLDER = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")

Loc = tuple[str | int, ...]


def _values(case: EvalCase) -> dict[str, Any]:
    return {
        "query": case.query,
        "case_id": case.case_id,
        "query_type": case.query_type,
        "user_roles": list(case.user_roles),
    }


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)


def _render(value: Any, values: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value)
        if whole is not None:
            found = values[whole.group(1)]
            return list(found) if isinstance(found, list) else found
        return _PLACEHOLDER.sub(lambda m: _as_text(values[m.group(1)]), value)
    if isinstance(value, Mapping):
        return {key: _render(item, values) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_render(item, values) for item in value]
    return value


def render_request(template: Mapping[str, Any], case: EvalCase) -> dict[str, Any]:
    """The body for ``case`` (``template`` must have passed :func:`template_problem`)."""
    rendered = _render(template, _values(case))
    assert isinstance(rendered, dict)
    return rendered


def _known() -> str:
    return ", ".join("{{" + name + "}}" for name in PLACEHOLDERS)


def _problem(value: Any, loc: Loc) -> tuple[Loc, str] | None:
    if isinstance(value, str):
        for found in _PLACEHOLDER.finditer(value):
            if found.group(1) not in PLACEHOLDERS:
                return loc, f"unknown placeholder {found.group(0)} (known: {_known()})"
        return None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                return loc, "object keys must be strings"
            if (problem := _problem(item, (*loc, key))) is not None:
                return problem
        return None
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            if (problem := _problem(item, (*loc, index))) is not None:
                return problem
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return loc, "not a JSON value (NaN or infinity)"
    if value is None or isinstance(value, bool | int | float):
        return None
    return loc, f"not a JSON value ({type(value).__name__})"


def template_problem(template: Any) -> tuple[Loc, str] | None:
    """The first thing wrong with ``template`` (where, relative to the template, and why),
    or ``None`` when it is a JSON object whose placeholders are all known."""
    if not isinstance(template, Mapping):
        return (), "must be a JSON object"
    return _problem(template, ())
