"""``MetricValue``: one aggregate metric of a report, with its target when it has one.

>>> m = MetricValue(value=0.72, n=8, perspective="retrieval", kind="mean",
...     higher_is_better=True, target="> 0.6", target_value=0.6, meets_target=True)
>>> m.model_dump()["meets_target"]
True
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["MetricValue"]


class MetricValue(BaseModel):
    """``value`` over ``n`` cases (``None`` when no case had the metric: never a made-up
    0). ``target`` (``"> 0.6"``) and ``target_value`` come from the target table in
    force; ``meets_target`` is ``None`` without a target or a value. ``stderr`` is the
    standard error of a ``mean``/``rate`` (``None`` for one case and for derived
    metrics). ``depth`` is the ranking depth of a retrieval metric: ``k`` for an ``@k``
    metric; for ``mrr`` and ``map``, which use the whole ranking, the longest ranking
    scored, with ``depth_min`` the shortest (equal when every case ranked as many chunks);
    ``None`` for the other metrics."""

    model_config = ConfigDict(extra="forbid")

    value: float | None
    n: int
    perspective: str
    kind: str
    higher_is_better: bool | None
    stderr: float | None = None
    target: str | None = None
    target_value: float | None = None
    meets_target: bool | None = None
    depth: int | None = None
    depth_min: int | None = None
