"""Rules, the families they are grouped in, and where in a text a family's regex is tried.

A *rule* is ``(name, category, weight, regex)``. Rules run in *families*: a family is
selected only when each of its gates (word sets) shares a word with the text, and its
regex is the alternation of its rules, strongest first, behind ``(?<![\\w])``. At a
position the first rule that matches is the evidence found there, so a strong rule masks
a weaker one starting at the same place.

Where a family's regex is tried
-------------------------------

Only where one of its matches can start. The start table (:mod:`.starts`) lists for each
family its *needles*: literal strings that every match begins with (``"ignore "``,
``"do not "``, ``"<|"``, ``"^"`` for the start of the text). A needle that begins with a
word is looked up through that word, in a per-text index of word positions, and checked
with one ``str.startswith`` at each of them; a needle that begins with another character
through that character's positions. The regex then runs at the few positions whose text
begins with a needle. The work is proportional to the occurrences of the words that can
begin a match, not to the number of words, and each position is tried once per family.

Four families (delimiters, the DAN names, the jailbreak tags, the indirect-only rules)
start with punctuation; they are tried where the text begins with one of their
three-character *scan prefixes* (:data:`.starts.SCAN_PREFIXES`), at every occurrence,
nested ones included: in ``"[[system: ..."`` both ``"[[s"`` and the ``"[s"`` inside it are
tried (the detector used to skip a prefix inside an earlier one, and missed the bracket
rule there). A family without a start-table entry is run with ``regex.search`` over the
whole text (correct, only slower).

>>> b = bank([("x_demo", "instruction_override", 0.5, r"ignore (?:all|the) rules")])
>>> fam = family(3, ("ignore",), list(b.specs.values()), starts="ignore ")
>>> [(p, name) for p, name in fam.matches(Scan("please ignore all rules. ignore the rules"))]
[(7, 'x_demo'), (25, 'x_demo')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from monitor.scoring.injection.common import Evidence

__all__ = [
    "Bank",
    "Chain",
    "Family",
    "Group",
    "Scan",
    "Spec",
    "Starts",
    "bank",
    "collect",
    "family",
    "is_word_char",
]

Spec = tuple[str, str, float, str]
"""A rule: name, category, weight, regex."""

Group = tuple[tuple[str, ...], tuple[str, ...]]
"""A family of rules: its gates (space-separated words; each must share a word with the
text) and the names of its rules."""


@dataclass(frozen=True, slots=True)
class Bank:
    """A category's rules by name, and the names that count in indirect mode."""

    specs: dict[str, Spec]
    indirect: frozenset[str]


def bank(specs: Sequence[Spec], *, indirect: Iterable[str] = ()) -> Bank:
    return Bank({spec[0]: spec for spec in specs}, frozenset(indirect))


def is_word_char(ch: str) -> bool:
    """``re``'s ``\\w`` for one character."""
    return ch.isalnum() or ch == "_"


# ------------------------------------------------------------------------- word positions

# ASCII: letters, digits and "_" stay, everything else becomes a space (same length)
_WORD_MAP = bytes(c if chr(c).isalnum() or c == 0x5F else 0x20 for c in range(128)) + bytes(
    [0x20] * 128
)
_NON_WORD = re.compile(r"\W")
_DIGIT_START = re.compile(r"(?<!\w)\d")
_INDEX_FROM = 6000
"""Texts at least this long get a full word index (one pass); shorter ones look words
up with ``str.find``."""


class Scan:
    """One copy of a text being matched: the positions of its words and characters,
    computed once and shared by every family."""

    __slots__ = ("_found", "_hits", "_index", "padded", "text", "vocab")

    def __init__(self, text: str, vocab: AbstractSet[str] | None = None) -> None:
        """``vocab``: a superset of the text's words (runs of ``\\w``), when known."""
        self.text = text
        if text.isascii():
            spaced = text.encode().translate(_WORD_MAP).decode()
        else:
            spaced = _NON_WORD.sub(" ", text)
        self.padded = f" {spaced} "
        self.vocab: AbstractSet[str] = frozenset(spaced.split()) if vocab is None else vocab
        self._index: dict[str, list[int]] | None = None
        self._found: dict[str, list[int]] = {}
        self._hits: dict[tuple[str, tuple[str, ...] | None], list[int]] = {}

    def _build_index(self) -> dict[str, list[int]]:
        index: dict[str, list[int]] = {}
        pos = 0
        for word in self.padded[1:-1].split(" "):
            if word:
                got = index.get(word)
                if got is None:
                    index[word] = [pos]
                else:
                    got.append(pos)
            pos += len(word) + 1
        return index

    def word(self, word: str) -> list[int]:
        """Where the whole word ``word`` starts."""
        if len(self.text) >= _INDEX_FROM:
            if self._index is None:
                self._index = self._build_index()
            return self._index.get(word, [])
        return self._find(self.padded, f" {word} ", 0)

    def hits(self, word: str, needles: tuple[str, ...] | None) -> list[int]:
        """Where the whole word ``word`` starts one of ``needles`` (None: anyhow)."""
        key = (word, needles)
        got = self._hits.get(key)
        if got is None:
            got = self.word(word)
            if needles is not None and got:
                startswith = self.text.startswith
                got = [p for p in got if startswith(needles, p)]
            self._hits[key] = got
        return got

    def stem(self, stem: str) -> list[int]:
        """Where a word starting with ``stem`` starts."""
        return self._find(self.padded, f" {stem}", 0)

    def digits(self) -> list[int]:
        """Where a word that starts with a digit starts."""
        if self.text.isascii():
            return sorted(p for d in "0123456789" for p in self._find(self.padded, f" {d}", 0))
        return [m.start() for m in _DIGIT_START.finditer(self.text)]

    def char(self, ch: str) -> list[int]:
        """Where the character ``ch`` is."""
        return self._find(self.text, ch, 1)

    def _find(self, haystack: str, needle: str, tag: int) -> list[int]:
        key = f"{tag}{needle}"
        got = self._found.get(key)
        if got is None:
            got = []
            find = haystack.find
            i = find(needle)
            while i >= 0:
                got.append(i)
                i = find(needle, i + 1)
            self._found[key] = got
        return got


# ----------------------------------------------------------------------------- families


@dataclass(frozen=True, slots=True)
class Starts:
    """Where a family's matches can start, from its needles."""

    words: dict[str, tuple[str, ...] | None]
    """A whole first word -> the needles beginning with it (None: the word suffices)."""
    stems: tuple[str, ...]
    """First-word prefixes (the word may go on)."""
    marks: dict[str, tuple[str, ...]]
    """A non-word first character -> the needles beginning with it."""
    at_start: bool
    """A match may start at the start of the text (needle ``^``)."""
    digits: bool
    """A match may start with a digit that starts a word (needle ``\\d``)."""

    @classmethod
    def parse(cls, needles: str) -> Starts:
        """Needles are ``|``-separated; a final tab means "the word ends here"."""
        words: dict[str, list[str] | None] = {}
        stems: list[str] = []
        marks: dict[str, list[str]] = {}
        at_start = digits = False
        for needle in filter(None, needles.split("|")):
            if needle == "^":
                at_start = True
            elif needle == "\\d":
                digits = True
            elif not is_word_char(needle[0]):
                marks.setdefault(needle[0], []).append(needle)
            else:
                end = 1
                while end < len(needle) and is_word_char(needle[end]):
                    end += 1
                word, rest = needle[:end], needle[end:]
                if not rest:
                    stems.append(word)
                elif rest == "\t":
                    words[word] = None
                else:
                    known = words.setdefault(word, [])
                    if known is not None:
                        known.append(needle.rstrip("\t"))
        return cls(
            {w: None if v is None else tuple(v) for w, v in words.items()},
            tuple(stems),
            {ch: tuple(v) for ch, v in marks.items()},
            at_start,
            digits,
        )


@dataclass(frozen=True, slots=True)
class Chain:
    """The prefixes (of up to three characters) that begin with a non-word character and
    start a punctuation-led family's matches."""

    first: str
    by_length: tuple[frozenset[str], frozenset[str], frozenset[str]]

    @classmethod
    def parse(cls, prefixes: str) -> Chain:
        found = prefixes.split()
        return cls(
            "".join(sorted({p[0] for p in found})),
            (
                frozenset(p for p in found if len(p) == 1),
                frozenset(p for p in found if len(p) == 2),
                frozenset(p for p in found if len(p) == 3),
            ),
        )

    def positions(self, scan: Scan) -> list[int]:
        """Every position where one of the prefixes starts (not after a word character),
        nested occurrences included."""
        text = scan.text
        one, two, three = self.by_length
        found: list[int] = []
        for ch in self.first:
            for q in scan.char(ch):
                if q and is_word_char(text[q - 1]):
                    continue
                if text[q : q + 3] in three or text[q : q + 2] in two or ch in one:
                    found.append(q)
        return found


@dataclass(frozen=True, slots=True, eq=False)
class Family:
    """Rules matched by one regex, run only when every gate shares a word with the text."""

    key: str
    """The name of its first listed rule (its key in the start table)."""
    index: int
    """Its position in the catalogue: evidence is listed in this order."""
    gates: tuple[frozenset[str], ...]
    regex: re.Pattern[str]
    rules: dict[str, tuple[str, float]]
    indirect: frozenset[str]
    starts: Starts | None
    """None: where matches start is not known; the regex searches the whole text."""
    chain: Chain | None
    late: bool
    """Its evidence is listed after that of the families whose matches start with a word
    (the order in which the detector has always listed evidence)."""

    def matches(self, scan: Scan) -> Iterator[tuple[int, str]]:
        """(position, rule name) of the family's matches in the text, by position."""
        text = scan.text
        starts = self.starts
        if starts is None:
            search = self.regex.search
            m = search(text)
            while m is not None:
                yield m.start(), str(m.lastgroup)
                m = search(text, m.start() + 1)
            return
        found: set[int] = set()
        words = starts.words
        for word in words.keys() & scan.vocab:
            found.update(scan.hits(word, words[word]))
        for stem in starts.stems:
            found.update(scan.stem(stem))
        if starts.marks:
            startswith = text.startswith
            for ch, needles in starts.marks.items():
                if ch in text:
                    found.update([p for p in scan.char(ch) if startswith(needles, p)])
        if starts.at_start:
            found.add(0)
        if starts.digits:
            found.update(scan.digits())
        if self.chain is not None:
            found.update(self.chain.positions(scan))
        match = self.regex.match
        for p in sorted(found):
            m = match(text, p)
            if m is not None:
                yield p, str(m.lastgroup)


def family(
    index: int,
    gates: Sequence[str],
    specs: Sequence[Spec],
    *,
    indirect: Iterable[str] = (),
    starts: str | None = None,
    chain: str | None = None,
    late: bool = False,
) -> Family:
    """A family of ``specs`` (the first one names it) gated by ``gates``, with its
    needles (``|``-separated) and, for punctuation-led families, its scan prefixes."""
    ordered = sorted(specs, key=lambda spec: -spec[2])  # same start: the strongest wins
    parts = [f"(?P<{name}>{rx})" for name, _, _, rx in ordered]
    regex = re.compile(r"(?<![\w])(?:" + "|".join(parts) + ")")
    if regex.groups != len(parts):  # pragma: no cover - a rule with its own group
        raise ValueError(f"a rule of {specs[0][0]} has a capturing group")
    parsed = None if starts is None else Starts.parse(starts)
    if chain is not None and parsed is not None and parsed.marks:  # pragma: no cover
        raise ValueError(f"{specs[0][0]}: a scanned family lists punctuation needles")
    return Family(
        key=specs[0][0],
        index=index,
        gates=tuple(frozenset(g.split()) for g in gates),
        regex=regex,
        rules={name: (cat, w) for name, cat, w, _ in specs},
        indirect=frozenset(indirect),
        starts=parsed,
        chain=None if chain is None else Chain.parse(chain),
        late=late,
    )


# ------------------------------------------------------------------------------ collecting


def collect(
    families: Sequence[Family],
    scans: Sequence[Scan],
    evidence: Evidence,
    *,
    only_indirect: bool,
) -> None:
    """Add the rules the families find in the copies to ``evidence`` (each rule once;
    with ``only_indirect``, only the rules that count in indirect mode).

    Evidence is listed in the detector's historical order: first the word-led families'
    finds by (copy, position, family), then the other families' one family at a time."""
    early: list[tuple[int, int, int, str, Family]] = []
    for fam in families:
        if not fam.late:
            for i, scan in enumerate(scans):
                early.extend((i, p, fam.index, name, fam) for p, name in fam.matches(scan))
    if len(early) > 1:
        early.sort(key=lambda hit: hit[:3])
    for *_, name, fam in early:
        _record(fam, name, evidence, only_indirect)
    for fam in families:
        if fam.late:
            for scan in scans:
                for _, name in fam.matches(scan):
                    _record(fam, name, evidence, only_indirect)


def _record(fam: Family, name: str, evidence: Evidence, only_indirect: bool) -> None:
    if name not in evidence and (not only_indirect or name in fam.indirect):
        evidence[name] = fam.rules[name]
