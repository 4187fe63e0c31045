"""The JSON object in a model's reply, tolerating what local models wrap around it.

Servers that honour ``response_format={"type": "json_object"}`` return bare JSON. Others
(or the same models with JSON mode switched off) wrap it: a reasoning block
(``<think>...</think>``), a Markdown fence, a sentence before or after. The object is
taken as-is when the reply parses; else from the first ``{`` to the last ``}`` once the
reasoning block is gone.

>>> json_object('{"score": 4}')
{'score': 4}
>>> json_object('<think>hmm {no}</think>\\n```json\\n{"score": 5}\\n```')
{'score': 5}
>>> json_object('Sure! Here it is: {"a": [1, 2]} Hope that helps.')
{'a': [1, 2]}
>>> json_object('[1, 2]')
Traceback (most recent call last):
...
ValueError: the reply is JSON but not an object
>>> json_object('score: 4')
Traceback (most recent call last):
...
ValueError: the reply holds no JSON object
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["json_object"]

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


def json_object(text: str) -> dict[str, Any]:
    """The JSON object in ``text``; ``ValueError`` (a short reason) when there is none."""
    try:
        value = json.loads(text)
    except ValueError:
        stripped = _THINK.sub("", text)
        start, end = stripped.find("{"), stripped.rfind("}")
        if start < 0 or end <= start:
            raise ValueError("the reply holds no JSON object") from None
        try:
            value = json.loads(stripped[start : end + 1])
        except json.JSONDecodeError as exc:
            raise ValueError(f"the reply is not valid JSON ({exc.msg})") from None
    if not isinstance(value, dict):
        raise ValueError("the reply is JSON but not an object")
    return value
