"""Build a validated-by-construction model without pydantic's per-call overhead.

The scorers produce their values themselves, so validating them again would only cost
time; pydantic's ``model_construct`` still spends about 1.5 microseconds a call on
defaults and bookkeeping. :func:`construct` sets the same four slots directly (every
field must be given) and is about three times faster. The tests compare its results with
``model_construct``'s and round-trip them through validation.

>>> from monitor.events.scored_event import CragAction
>>> construct(CragAction, type="use_retrieved", sub_queries=None, search_query=None)
CragAction(type='use_retrieved', sub_queries=None, search_query=None)
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["construct"]

M = TypeVar("M", bound=BaseModel)


def construct(cls: type[M], **values: Any) -> M:
    """``cls.model_construct(**values)`` for models whose every field is in ``values``."""
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", values)
    object.__setattr__(model, "__pydantic_fields_set__", set(values))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model
