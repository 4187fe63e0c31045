"""A mergeable quantile sketch with relative error guarantees (DDSketch, Masson et al. 2019).

A value ``x > 0`` falls in the bucket with key ``k = ceil(log_gamma(x))``, which covers
``(gamma**(k-1), gamma**k]`` with ``gamma = (1 + a) / (1 - a)``; the bucket reports the
value ``gamma**k * (1 - a)``, within ``a`` relative error of every value in it. Negative
values use a separate store keyed by ``|x|``; values with ``|x|`` below
:data:`ZERO_THRESHOLD` (the smallest normal float, ~2.2e-308) are counted in a zero
bucket and reported as ``0.0``. Scores are not clamped, so all three occur.

**Quantile definition** (DDSketch's lower rank, the same as
``numpy.quantile(values, q, method="lower")``): with ``n`` values sorted ascending and
indexed from 0, ``quantile(q)`` estimates the value at rank ``floor(q * (n - 1))``; the
estimate is within relative error ``a`` of that value (``|est - x| <= a * |x|``, up to
floating-point rounding of the logarithm at bucket edges).

**Merging is exact**: a merge adds bucket counts, so merging the sketches of two lists
gives exactly the sketch of their concatenation (same buckets, same counts), whatever
the order and grouping of the merges.

>>> s = QuantileSketch()
>>> s.add_many(np.arange(1.0, 101.0))
>>> s.count, round(s.quantile(0.5), 1), round(s.quantile(0.99), 1)  # true: 50, 99
(100, 49.9, 98.5)
>>> t = QuantileSketch()
>>> for v in (-2.0, 0.0, 3.0):
...     t.add(v)
>>> round(t.quantile(0.0), 2), t.quantile(0.5), QuantileSketch().quantile(0.5) is None
(-1.99, 0.0, True)
>>> QuantileSketch.from_dict(s.to_dict()) == s
True
>>> s.merge(t).count
103
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["DEFAULT_RELATIVE_ACCURACY", "ZERO_THRESHOLD", "QuantileSketch"]

DEFAULT_RELATIVE_ACCURACY = 0.01
ZERO_THRESHOLD = sys.float_info.min
"""Values with ``|x| <`` this (zero and subnormals) go to the zero bucket."""

_MAX_GAP = 4
"""In :meth:`QuantileSketch.to_dict`, a run of buckets is split at more than this many
empty keys (an empty key costs 2 characters in a run, a new run about 10)."""

Bins = dict[int, int]


class QuantileSketch:
    """DDSketch with logarithmic buckets; ``relative_accuracy`` is ``a`` in (0, 1)."""

    __slots__ = ("_count", "_log_gamma", "_negative", "_positive", "_zero", "relative_accuracy")

    def __init__(self, relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY) -> None:
        if not 0.0 < relative_accuracy < 1.0:
            raise ValueError(f"relative_accuracy must be in (0, 1), got {relative_accuracy!r}")
        self.relative_accuracy = float(relative_accuracy)
        gamma = (1.0 + self.relative_accuracy) / (1.0 - self.relative_accuracy)
        self._log_gamma = math.log(gamma)
        self._positive: Bins = {}
        self._negative: Bins = {}
        self._zero = 0
        self._count = 0

    @property
    def count(self) -> int:
        """The number of values added (or merged in)."""
        return self._count

    @property
    def zero_count(self) -> int:
        """The number of values with ``|x| <`` :data:`ZERO_THRESHOLD`."""
        return self._zero

    @property
    def positive_bins(self) -> Mapping[int, int]:
        """Bucket key -> count for the positive values (read-only view; do not mutate)."""
        return self._positive

    @property
    def negative_bins(self) -> Mapping[int, int]:
        """Bucket key (of ``|x|``) -> count for the negative values."""
        return self._negative

    # ------------------------------------------------------------------ adding

    def add(self, value: float) -> None:
        """Add one value; ``ValueError`` when it is NaN or infinite.

        Goes through the same vectorised key computation as :meth:`add_many`, so adding
        values one by one gives exactly the buckets of adding them at once.
        """
        self.add_many(np.array([value], dtype=np.float64))

    def add_many(self, values: npt.NDArray[np.float64]) -> None:
        """Add every value of an array (any shape); ``ValueError`` on NaN or infinity
        (and then nothing is added)."""
        x = np.asarray(values, dtype=np.float64).ravel()
        if x.size == 0:
            return
        if not np.isfinite(x).all():
            raise ValueError("QuantileSketch accepts finite values only")
        positive = x[x >= ZERO_THRESHOLD]
        negative = x[x <= -ZERO_THRESHOLD]
        self._zero += int(x.size - positive.size - negative.size)
        self._count += int(x.size)
        if positive.size:
            self._add_keys(self._positive, positive)
        if negative.size:
            self._add_keys(self._negative, -negative)

    def _add_keys(self, bins: Bins, magnitudes: npt.NDArray[np.float64]) -> None:
        keys = np.ceil(np.log(magnitudes) / self._log_gamma).astype(np.int64)
        if keys.size == 1:
            k = int(keys[0])
            bins[k] = bins.get(k, 0) + 1
            return
        unique, counts = np.unique(keys, return_counts=True)
        pairs = zip(unique.tolist(), counts.tolist(), strict=True)
        if not bins:
            bins.update(pairs)  # a fresh store (one batch's aggregate): no lookups
            return
        for k, c in pairs:
            bins[k] = bins.get(k, 0) + c

    # ------------------------------------------------------------------ merging

    def merge(self, other: QuantileSketch) -> QuantileSketch:
        """A new sketch of both operands' values; the operands are left untouched."""
        merged = self.copy()
        merged.merge_in(other)
        return merged

    def merge_in(self, other: QuantileSketch) -> None:
        """Add ``other``'s buckets to this sketch; ``ValueError`` if the accuracies differ."""
        if other.relative_accuracy != self.relative_accuracy:
            raise ValueError(
                "cannot merge sketches of different relative accuracy: "
                f"{self.relative_accuracy!r} and {other.relative_accuracy!r}"
            )
        for mine, theirs in ((self._positive, other._positive), (self._negative, other._negative)):
            for k, c in list(theirs.items()):
                mine[k] = mine.get(k, 0) + c
        self._zero += other._zero
        self._count += other._count

    def _with_bins(self, positive: Bins, negative: Bins, zero: int, count: int) -> QuantileSketch:
        """Internal fast constructor: a new sketch of this one's accuracy holding exactly
        the given stores (taken over, not copied), for callers that computed the buckets
        themselves (:meth:`Aggregate.from_groups`). Nothing is validated: the keys must
        be this accuracy's bucket keys, the counts positive, and ``count`` must equal
        ``zero`` plus every bucket count.

        >>> s = QuantileSketch()
        >>> s.add_many(np.array([1.0, 1.0, -3.0, 0.0]))
        >>> QuantileSketch()._with_bins({0: 2}, {55: 1}, 1, 4) == s
        True
        """
        out = QuantileSketch.__new__(QuantileSketch)
        out.relative_accuracy = self.relative_accuracy
        out._log_gamma = self._log_gamma
        out._positive = positive
        out._negative = negative
        out._zero = zero
        out._count = count
        return out

    def copy(self) -> QuantileSketch:
        """An independent copy."""
        out = QuantileSketch(self.relative_accuracy)
        out._positive = dict(self._positive)
        out._negative = dict(self._negative)
        out._zero = self._zero
        out._count = self._count
        return out

    # ------------------------------------------------------------------ reading

    def quantile(self, q: float) -> float | None:
        """The estimated value at rank ``floor(q * (count - 1))``; ``None`` when empty."""
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"quantile must be in [0, 1], got {q!r}")
        if self._count == 0:
            return None
        rank = math.floor(q * (self._count - 1))
        negatives = sum(self._negative.values())
        if rank < negatives:
            # The most negative values come first: walk |x| keys from the largest down.
            seen = 0
            for k in sorted(self._negative, reverse=True):
                seen += self._negative[k]
                if seen > rank:
                    return -self._value(k)
        rank -= negatives
        if rank < self._zero:
            return 0.0
        rank -= self._zero
        seen = 0
        for k in sorted(self._positive):
            seen += self._positive[k]
            if seen > rank:
                return self._value(k)
        raise AssertionError("bucket counts do not add up to count")  # pragma: no cover

    def _value(self, key: int) -> float:
        """The representative ``gamma**key * (1 - a)`` of a bucket, capped at the largest
        float (the top bucket's representative can exceed it)."""
        log_value = key * self._log_gamma + math.log1p(-self.relative_accuracy)
        if log_value >= math.log(sys.float_info.max):
            return sys.float_info.max
        return math.exp(log_value)

    # ------------------------------------------------------------------ serialising

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready and compact: each store is a list of runs ``[first_key, [counts]]``
        over consecutive keys (empty keys inside a run have count 0).

        >>> s = QuantileSketch()
        >>> s.add_many(np.array([1.0, 1.0, 1.05, -3.0, 0.0]))
        >>> s.to_dict()
        {'relative_accuracy': 0.01, 'zero': 1, 'positive': [[0, [2, 0, 0, 1]]], 'negative': [[55, [1]]]}
        """  # noqa: E501
        return {
            "relative_accuracy": self.relative_accuracy,
            "zero": self._zero,
            "positive": _runs(self._positive),
            "negative": _runs(self._negative),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QuantileSketch:
        """The inverse of :meth:`to_dict`; ``ValueError`` on malformed data."""
        try:
            sketch = cls(float(data["relative_accuracy"]))
            zero = int(data["zero"])
            sketch._positive = _from_runs(data["positive"])
            sketch._negative = _from_runs(data["negative"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed QuantileSketch data: {exc!r}") from exc
        if zero < 0:
            raise ValueError("malformed QuantileSketch data: negative zero count")
        sketch._zero = zero
        sketch._count = zero + sum(sketch._positive.values()) + sum(sketch._negative.values())
        return sketch

    # ------------------------------------------------------------------ comparing

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QuantileSketch):
            return NotImplemented
        return (
            self.relative_accuracy == other.relative_accuracy
            and self._zero == other._zero
            and self._positive == other._positive
            and self._negative == other._negative
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"QuantileSketch(relative_accuracy={self.relative_accuracy!r}, count={self._count}, "
            f"buckets={len(self._positive) + len(self._negative)})"
        )


def _runs(bins: Bins) -> list[list[Any]]:
    runs: list[list[Any]] = []
    counts: list[int] = []
    previous = 0
    for k in sorted(bins):
        if counts and k - previous - 1 <= _MAX_GAP:
            counts.extend([0] * (k - previous - 1))
            counts.append(bins[k])
        else:
            counts = [bins[k]]
            runs.append([k, counts])
        previous = k
    return runs


def _from_runs(runs: Any) -> Bins:
    bins: Bins = {}
    for first, counts in runs:
        start = int(first)
        for i, c in enumerate(counts):
            count = int(c)
            if count < 0:
                raise ValueError("malformed QuantileSketch data: negative bucket count")
            if count:
                key = start + i
                bins[key] = bins.get(key, 0) + count
    return bins
