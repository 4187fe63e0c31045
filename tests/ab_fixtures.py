"""Shared helpers for the A/B tests: statistics always go through merged aggregates.

Loaded as a plugin by ``tests/conftest.py`` (a ``conftest.py`` in ``tests/ab/`` would
clash with it: there are no packages under ``tests/``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from monitor.windows.aggregate import Aggregate

Merge = Callable[[npt.NDArray[np.float64]], Aggregate]
"""The type of the ``merge`` fixture (each test module spells it out again)."""


def merged_aggregate(values: npt.NDArray[np.float64], rng: np.random.Generator) -> Aggregate:
    """The aggregate of ``values`` built as a worker would: random chunks aggregated
    separately, then merged in a random order."""
    x = np.asarray(values, dtype=np.float64)
    if x.size < 2:
        return Aggregate.from_array(x)
    pieces = int(rng.integers(1, min(x.size, 8) + 1))
    cuts = np.sort(rng.choice(np.arange(1, x.size), size=pieces - 1, replace=False))
    parts = [Aggregate.from_array(part) for part in np.split(x, cuts)]
    order = rng.permutation(len(parts))
    total = Aggregate()
    for index in order:
        total.merge_in(parts[int(index)])
    return total


@pytest.fixture
def merge() -> Merge:
    """``merge(values)``: :func:`merged_aggregate` with a fixed seed."""
    rng = np.random.default_rng(20240611)
    return lambda values: merged_aggregate(values, rng)
