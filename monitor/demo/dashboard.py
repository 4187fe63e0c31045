"""The live table of ``ragmon demo``: folds scored events and dead letters; renders text.

>>> board = Dashboard()
>>> board.add_scored({"variant": "control", "quality": {"overall": 0.5},
...                   "crag": {"classification": "ambiguous"}})
>>> board.add_dead_letter({"error": {"reason": "invalid_json"}})
>>> print(board.render(elapsed_s=10.0, produced=2, events_per_s=0.2).splitlines()[-3])
control             1         0.500        0%      100%        0%
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Dashboard", "VariantStats"]

_CLASSES = ("correct", "ambiguous", "incorrect")


@dataclass
class VariantStats:
    count: int = 0
    quality_sum: float = 0.0
    crag: Counter[str] = field(default_factory=Counter)

    @property
    def mean_quality(self) -> float:
        return self.quality_sum / self.count if self.count else 0.0


@dataclass
class Dashboard:
    variants: dict[str, VariantStats] = field(default_factory=dict)
    dead_letters: Counter[str] = field(default_factory=Counter)
    scored: int = 0

    def add_scored(self, scored: dict[str, Any]) -> None:
        name = str(scored.get("variant") or "(none)")
        stats = self.variants.setdefault(name, VariantStats())
        stats.count += 1
        stats.quality_sum += float(scored["quality"]["overall"])
        stats.crag[scored["crag"]["classification"]] += 1
        self.scored += 1

    def add_dead_letter(self, letter: dict[str, Any]) -> None:
        self.dead_letters[str(letter["error"]["reason"])] += 1

    def render(self, *, elapsed_s: float, produced: int, events_per_s: float) -> str:
        lines = [
            f"elapsed {elapsed_s:6.0f} s   produced {produced:>8}   scored {self.scored:>8}"
            f"   dead letters {sum(self.dead_letters.values()):>5}"
            f"   scored/s {events_per_s:8.1f}",
            "",
            f"{'variant':<14}{'events':>7}{'mean quality':>14}"
            + "".join(f"{c:>10}" for c in _CLASSES),
        ]
        for name in sorted(self.variants):
            v = self.variants[name]
            shares = "".join(f"{v.crag[c] / v.count:>10.0%}" for c in _CLASSES)
            lines.append(f"{name:<14}{v.count:>7}{v.mean_quality:>14.3f}{shares}")
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(self.dead_letters.items()))
        lines += ["", f"dead letters by reason: {reasons or '-'}"]
        return "\n".join(lines)
