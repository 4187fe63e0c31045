"""Every rule family of the detector, and which of them a text selects.

The families are the gated groups of each category (override, extraction, persona, role,
bypass, in that order), the harmful-topic family, the foreign-language family, and apart
from them the delimiter family (run when the text has delimiter characters). A family is
selected when each of its gates shares a word with the text; one set intersection with
the gate-word index finds the candidates, so most questions select nothing.

>>> [f.key for f in select({"ignore", "previous", "instructions"}, False, False)][:3]
['o_core', 'o_sys_msg', 'b_your']
>>> select({"what", "are", "the", "system", "requirements"}, False, False)
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from monitor.scoring.injection import (
    bypass,
    delimiter,
    extraction,
    multilingual,
    override,
    persona,
    role,
)
from monitor.scoring.injection.bank import Bank, Family, Group, Spec, family
from monitor.scoring.injection.starts import LATE, SCAN_PREFIXES, STARTS
from monitor.scoring.injection.vocab import HARM_WORDS

__all__ = ["DELIM", "FAMILIES", "ML", "SPECS", "build", "select"]


def build(
    index: int,
    gates: Sequence[str],
    specs: Sequence[Spec],
    indirect: Iterable[str] = (),
) -> Family:
    """A family with its entries from the start table."""
    key = specs[0][0]
    return family(
        index,
        gates,
        specs,
        indirect=indirect,
        starts=STARTS.get(key),
        chain=SCAN_PREFIXES.get(key),
        late=key in LATE,
    )


def _families() -> tuple[Family, ...]:
    banks: tuple[tuple[Bank, tuple[Group, ...]], ...] = (
        (override.RULES, override.GROUPS),
        (extraction.RULES, extraction.GROUPS),
        (persona.RULES, persona.GROUPS),
        (role.RULES, role.GROUPS),
        (bypass.RULES, bypass.GROUPS),
    )
    specs: dict[str, Spec] = {}
    indirect: set[str] = set()
    for rules, _ in banks:
        specs.update(rules.specs)
        indirect.update(rules.indirect)
    out: list[Family] = []
    used: set[str] = set()
    for _, groups in banks:
        for gates, names in groups:
            used.update(names)
            out.append(
                build(len(out), gates, [specs[n] for n in names], indirect.intersection(names))
            )
    missing = set(specs) - used
    if missing:  # pragma: no cover - a programming error, caught by the tests at import
        raise RuntimeError(f"rules without a group: {sorted(missing)}")
    out.append(build(len(out), (HARM_WORDS,), list(bypass.HARM_RULES.specs.values())))
    ml = multilingual.RULES
    out.append(build(len(out), (multilingual.GATE,), list(ml.specs.values()), ml.indirect))
    return tuple(out)


FAMILIES = _families()
SPECS: dict[str, Spec] = {
    name: spec
    for rules in (
        override.RULES,
        extraction.RULES,
        persona.RULES,
        role.RULES,
        bypass.RULES,
        bypass.HARM_RULES,
        multilingual.RULES,
        delimiter.RULES,
    )
    for name, spec in rules.specs.items()
}
"""Every rule by name (the indirect-only rules are in :mod:`.indirect`)."""
ML = FAMILIES[-1]
DELIM = build(len(FAMILIES), (), list(delimiter.RULES.specs.values()), delimiter.RULES.indirect)

# Frequent words make poor index keys: each family is indexed by its least common gate.
_COMMON = frozenset(
    "what how you your yours the with all it that this now first i i'm am be will can may do "
    "don't not no more to for on here there me my we let going so and any set get give tell "
    "write show list type use make start open only just which if out off before above until "
    "one two both when would used say mind help want need like answer reply respond are is was "
    "have has a an of in at by from as or but our us they them their its about into over "
    "under again after also even still then than some such very too could should must shall "
    "might being been were did does done having get got go".split()
)


def _gate_index(families: Sequence[Family]) -> dict[str, tuple[int, ...]]:
    """Word -> families whose primary (least common) gate holds it."""
    index: dict[str, list[int]] = {}
    for i, fam in enumerate(families):
        primary = min(fam.gates, key=lambda g: (len(g & _COMMON) / len(g), len(g)))
        for word in primary:
            index.setdefault(word, []).append(i)
    return {w: tuple(v) for w, v in index.items()}


_GATE_INDEX = _gate_index(FAMILIES)
_GATE_WORDS = frozenset(_GATE_INDEX)


def select(tokens: set[str], nonascii: bool, has_delim: bool) -> list[Family]:
    """The families whose every gate shares a word with ``tokens``, in catalogue order
    (plus the foreign-language family for non-ASCII text and the delimiter family when
    the text has delimiter characters)."""
    chosen: list[Family] = []
    hits = _GATE_WORDS.intersection(tokens)
    if hits:
        candidates: set[int] = set()
        for word in hits:
            candidates.update(_GATE_INDEX[word])
        for i in sorted(candidates):
            fam = FAMILIES[i]
            for gate in fam.gates:
                if gate.isdisjoint(tokens):
                    break
            else:
                chosen.append(fam)
    if nonascii and ML not in chosen:
        chosen.append(ML)
    if has_delim:
        chosen.append(DELIM)
    return chosen
