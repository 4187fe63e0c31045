"""Normalisation and the de-obfuscated copies a text is matched in.

:func:`normalise`: NFKC (full-width and other compatibility forms become ASCII),
casefold, typographic apostrophes to ``'``, zero-width, bidi, soft-hyphen and control
characters removed, Unicode tag characters (invisible "ASCII smuggling") read as the ASCII
they encode, whitespace collapsed to single spaces.

:func:`copies`: besides the normalised text (and its lines, for multi-line text), the
de-obfuscated copies, each made only when its trigger is present: letter spacing undone
(``i g n o r e``, ``i.g.n.o.r.e``), intra-word separators removed (``in-struc-tions``),
Latin look-alike Cyrillic and Greek letters mapped to Latin, l33t digits and symbols read
as letters (``1gn0r3``, ``@ll``), base64 blobs decoded (when they decode to printable
text), ROT13 and reversed text when the text mentions them. For ASCII text each trigger
is first ruled out with a byte-translation and a substring test (a text without four
single characters in a row separated by one separator cannot be letter-spaced, ...), so
ordinary text pays a few microseconds for all of them; the exact trigger runs only when
the quick test cannot rule it out.

>>> normalise("  ＩＧＮＯＲＥ\\u200b the   Rules’ ")
"ignore the rules'"
>>> copies("1gn0r3 4ll rul3s", normalise("1gn0r3 4ll rul3s"), set()).obfuscated
['ignore all rules']
>>> copies("Full-time staff get 15 days.", "full-time staff get 15 days.", set()).obfuscated
[]
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from monitor.scoring.injection.kernel import KERNEL

__all__ = [
    "TYPESET",
    "Copies",
    "copies",
    "normalise",
    "normalise_lines",
    "normalise_unicode",
    "plain_bytes",
    "typeset_as_ascii",
    "without_separators",
]

_DROP = dict.fromkeys(
    [
        *range(0x00, 0x09),
        0x0B,
        0x0C,
        *range(0x0E, 0x20),
        *range(0x7F, 0xA0),
        0xAD,
        0x034F,
        0x061C,
        0x115F,
        0x1160,
        0x17B4,
        0x17B5,
        0x180E,
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2070),
        0x3164,
        *range(0xFE00, 0xFE10),
        0xFEFF,
        0xFFA0,
        *range(0xFFF0, 0xFFFC),
        *range(0xE0100, 0xE01F0),
    ]
)
_SPECIAL: dict[int, str | int | None] = {
    **_DROP,
    0x2018: "'",
    0x2019: "'",
    0x201B: "'",
    0x2032: "'",
    0x02BC: "'",
    0x201C: '"',
    0x201D: '"',
    0x201E: '"',
    0x00AB: '"',
    0x00BB: '"',
    0x2010: "-",
    0x2011: "-",
    0x2012: "-",
    0x2013: "-",
    0x2014: "-",
    # tag characters spell ASCII invisibly; read them
    **{cp: chr(cp - 0xE0000) for cp in range(0xE0020, 0xE007F)},
    0xE0001: None,
    0xE007F: None,
}
_ASCII_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])

_HOMOGLYPHS = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "һ": "h",
        "ӏ": "l",
        "ԛ": "q",
        "ԝ": "w",
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ω": "w",
        "ɡ": "g",
        "ı": "i",
        "ℓ": "l",
    }
)
_MIXED_SCRIPT = re.compile(r"[a-z][\u0370-\u03ff\u0400-\u04ff\u0500-\u052f]|[\u0370-\u052f][a-z]")

_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s"}
)
_LEET_CHARS = frozenset("013457@$")
# "[a-z][013457@$]+[a-z]|(?<!\w)[@$][a-z]" (a letter, l33t characters, a letter; or "@"
# or "$" starting a word and followed by a letter), written l33t-character-first so that
# ``re`` skips quickly to them; only whether it matches is used
_LEET_TRIGGER = re.compile(
    r"[013457@$](?:(?<=[a-z][013457@$])[013457@$]*[a-z]|(?<=[@$])(?<![\w][@$])(?=[a-z]))"
)
# runs of single characters separated by one separator: "i g n o r e", "i.g.n.o.r.e"
_SPACED = re.compile(r"(?<!\w)\w(?:[ .\-_*+/|~,]\w){3,}(?!\w)")
# a separator between two lower-case letters (written separator-first so that ``re``
# skips quickly to the separators; the same matches as "(?<=[a-z])[-_.*](?=[a-z])")
_HYPHENATED = re.compile(r"[-_.*](?<=[a-z][-_.*])(?=[a-z])")
_B64 = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,4096}+={0,2}")
_B64_MAX_BLOBS = 4


def _byte_map(classes: dict[str, str]) -> bytes:
    """A ``bytes.translate`` table: the characters of each key to its value, the rest
    to ``x``."""
    table = bytearray(b"x" * 256)
    for chars, to in classes.items():
        for ch in chars:
            table[ord(ch)] = ord(to)
    return bytes(table)


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_DIGITS = "0123456789"
# letter spacing: word characters (but "_", handled apart) and one-character separators
_SPACING_MAP = _byte_map({_LETTERS + _LETTERS.upper() + _DIGITS: "w", " .-*+/|~,": "s", "_": "_"})
# l33t: letters, and the characters read as letters
_LEET_MAP = _byte_map({_LETTERS: "a", "013457@$": "1"})
_LEET_MAP_ANY_CASE = _byte_map({_LETTERS + _LETTERS.upper(): "a", "013457@$": "1"})
# base64 alphabet
_B64_MAP = _byte_map({_LETTERS + _LETTERS.upper() + _DIGITS + "+/": "b"})


def _unspace(m: re.Match[str]) -> str:
    s = m.group()
    seps = set(s[1::2])
    if " " in seps and len(seps) > 1:  # "i.g.n.o.r.e y.o.u.r": spaces separate words
        return "".join(c for c in s if c == " " or c not in seps)
    return s[::2]


def normalise(text: str) -> str:
    """The text as matched: NFKC, casefolded, invisible characters removed, whitespace
    collapsed.

    >>> normalise("  ＩＧＮＯＲＥ\\u200b the   Rules’ ")
    "ignore the rules'"
    """
    if not text.isascii():  # typeset prose: read its quotes and dashes first (same text)
        text = typeset_as_ascii(text) or text
    if text.isascii():
        if len(text.encode().translate(None, _ASCII_CONTROL_BYTES)) != len(text):
            text = text.translate(_DROP)
        return " ".join(text.lower().split())
    return normalise_unicode(text)


def normalise_unicode(text: str) -> str:
    """:func:`normalise` of a text with characters beyond typeset ASCII (for a caller that
    has tried :func:`typeset_as_ascii` already).

    >>> normalise_unicode("ＩＧＮＯＲＥ  caf\u00e9")
    'ignore café'
    """
    text = unicodedata.normalize("NFKC", text.translate(_SPECIAL)).translate(_SPECIAL)
    return " ".join(text.casefold().split())


def normalise_lines(text: str) -> list[str]:
    """:func:`normalise` line by line (line breaks kept)."""
    return [normalise(line) for line in text.splitlines()]


_SPACE_HINT = re.compile(r" \S \S \S ")


def _maybe_spaced(text: str, norm: str) -> bool:
    """Cheap pre-check for :func:`_spacing_copy`: three one-character words in a row, or
    enough separators for "i.g.n.o.r.e"; in ASCII text without "_", only if there are four
    one-character words separated by one separator each."""
    if (
        text.isascii()
        and "_" not in text
        and b"wswswsw" not in text.encode().translate(_SPACING_MAP)
    ):
        return False
    if _SPACE_HINT.search(f" {norm} "):
        return True
    return any(norm.count(c) >= 3 for c in ".-_*+|~")


def _spacing_copy(text: str) -> tuple[str, list[str]] | None:
    """Letter spacing undone, on the lower-cased text before whitespace is collapsed, and
    the squashed runs."""
    if not text.isascii():  # typeset prose: the same lower-cased text, faster
        text = typeset_as_ascii(text) or text
    if text.isascii():
        if KERNEL is not None and not KERNEL.spaced_run(text):
            return None  # the same answer as the search below, in C
        low = text.lower()
    else:
        low = unicodedata.normalize("NFKC", text.translate(_SPECIAL)).casefold()
    if not _SPACED.search(low):
        return None
    runs: list[str] = []

    def squash(m: re.Match[str]) -> str:
        out = _unspace(m)
        runs.append(out)
        return out

    return " ".join(_SPACED.sub(squash, low).split()), runs


def _maybe_leet(base: str) -> bool:
    """Whether :data:`_LEET_TRIGGER` can match: a letter followed by a l33t character,
    or a l33t character followed by a letter."""
    if base.isascii():
        mapped = base.encode().translate(_LEET_MAP)
        return b"a1" in mapped or b"1a" in mapped
    return not _LEET_CHARS.isdisjoint(base)


def _maybe_b64(text: str) -> bool:
    """Whether the text may have a run of 16 base64 characters (all ASCII: a character
    beyond ASCII is encoded as bytes that break a run, as it breaks a match of _B64)."""
    return b"b" * 16 in text.encode("utf-8", "surrogatepass").translate(_B64_MAP)


def _decoded_blobs(text: str) -> list[str]:
    out: list[str] = []
    for m in _B64.finditer(text):
        blob = m.group()
        core = blob.rstrip("=")
        if not (any(c.isupper() for c in core) and any(c.islower() for c in core)):
            continue
        try:
            raw = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
            decoded = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        printable = sum(c.isprintable() or c.isspace() for c in decoded)
        if " " in decoded and printable >= 0.95 * len(decoded):
            out.append(normalise(decoded))
        if len(out) >= _B64_MAX_BLOBS:
            break
    return out


_HYPHENATED_BYTES = re.compile(_HYPHENATED.pattern.encode())
# _SPACED on the letter-spacing classes of ASCII text without "_"
_SPACED_CLASSES = re.compile(rb"(?<!w)w(?:sw){3,}(?!w)")
_ROT_SPACED = re.compile(rb"rot\s+13")
_LEET_TRIGGER_BYTES = re.compile(_LEET_TRIGGER.pattern.encode())


def without_separators(norm: str) -> str:
    """``norm`` without the separators between two letters ("in-struc-tions")."""
    return _HYPHENATED.sub("", norm)


_TYPOGRAPHIC: dict[int, str] = {
    **{
        cp: to
        for cp, to in _SPECIAL.items()
        if cp < 0x10000 and isinstance(to, str) and to in "'\"-"
    },
    0x2026: "...",  # NFKC
    0x00A0: " ",  # NFKC
    0x00B0: "#",  # a symbol, as "#" is to every rule
}
_TYPOGRAPHIC_PAIRS = tuple((chr(cp), to) for cp, to in _TYPOGRAPHIC.items())
_NOT_TYPOGRAPHIC = re.compile("[^\x00-\x7f" + "".join(map(chr, _TYPOGRAPHIC)) + "]")
# for the model's tokens: "°" stays a symbol of its own, as normalise() leaves it
_TYPESET_PAIRS = tuple((ch, to) for ch, to in _TYPOGRAPHIC_PAIRS if ch != "\u00b0")
_NOT_TYPESET = re.compile("[^\x00-\x7f" + "".join(ch for ch, _ in _TYPESET_PAIRS) + "]")
TYPESET = {ord(ch): to for ch, to in _TYPESET_PAIRS}
"""What :func:`typeset_as_ascii` writes for each character beyond ASCII, by code point."""


def typeset_as_ascii(text: str) -> str | None:
    """``text`` with its typographic quotes, dashes, ellipses and no-break spaces written
    as :func:`normalise` reads them, when no other character is beyond ASCII (real prose
    is often typeset, and :func:`normalise` is much slower); None otherwise.

    >>> typeset_as_ascii("\u201cfine\u201d \u2014 really\u2026")
    '"fine" - really...'
    >>> typeset_as_ascii("caf\u00e9") is None, typeset_as_ascii("20\u00b0C") is None
    (True, True)
    """
    if _NOT_TYPESET.search(text):
        return None
    for ch, to in _TYPESET_PAIRS:  # a few replace() calls beat one translate()
        if ch in text:
            text = text.replace(ch, to)
    return text


def plain_bytes(text: str) -> tuple[bytes, bytes] | None:
    """For a pre-check, in bytes: when ``text`` is ASCII (once its typographic quotes,
    dashes, ellipses and no-break spaces are read as :func:`normalise` reads them), has no
    control characters and
    no obfuscation trigger but intra-word separators (a reversed copy is the caller's to
    check: ``low[::-1]``, when the text mentions reversing), the lower-cased text
    (whitespace as is) and the same without the separators. The words of every copy
    :func:`copies` makes are words of one of these two, and so are its strings without
    whitespace. None otherwise (also when a trigger cannot be ruled out quickly).

    >>> plain_bytes("A full-time job")
    (b'a full-time job', b'a fulltime job')
    >>> plain_bytes("i g n o r e it") is None
    True
    """
    fast = None if KERNEL is None else KERNEL.plain(text, _TYPOGRAPHIC)
    if fast is not None:  # no trigger but maybe base64 (in C; the rest is for the others)
        low, joined, b64 = fast
        return None if b64 and _decoded_blobs(text) else (low, joined)
    if not text.isascii():
        # typographic quotes, dashes, ellipses and no-break spaces (common in real prose)
        # become what normalise() makes of them; any other non-ASCII character: None
        if _NOT_TYPOGRAPHIC.search(text):
            return None
        for ch, to in _TYPOGRAPHIC_PAIRS:  # a few replace() calls beat one translate()
            if ch in text:
                text = text.replace(ch, to)
    raw = text.encode()
    if len(raw.translate(None, _ASCII_CONTROL_BYTES)) != len(raw):
        return None
    if b"b" * 16 in raw.translate(_B64_MAP) and _decoded_blobs(text):
        return None  # copies() adds the decoded text
    spacing = raw.translate(_SPACING_MAP)
    underscore = b"_" in raw  # a word character and a separator: ask the full check
    if (underscore or (b"wswswsw" in spacing and _SPACED_CLASSES.search(spacing))) and (
        KERNEL is None or KERNEL.spaced_run(text)  # else _spacing_copy() makes no copy
    ):
        norm = " ".join(text.lower().split())
        if _maybe_spaced(text, norm) and _spacing_copy(text) is not None:
            return None
    low = raw.lower()
    if b"rot1" in low or b"rot-1" in low:
        return None
    if b"rot" in low and _ROT_SPACED.search(low):
        return None
    joined = low
    if underscore or b"-" in low or b"." in low or b"*" in low:
        joined = _HYPHENATED_BYTES.sub(b"", low)
    leet = raw.translate(_LEET_MAP_ANY_CASE)
    if (b"a1" in leet or b"1a" in leet) and _LEET_TRIGGER_BYTES.search(joined):
        return None
    return low, joined


class Copies(NamedTuple):
    """The copies of a text that are matched."""

    plain: list[str]
    """The normalised text, and its lines joined by line breaks when that differs."""
    obfuscated: list[str]
    """The de-obfuscated copies that differ from the plain ones."""
    runs: list[str]
    """The letter-spaced runs, squashed."""


def copies(text: str, norm: str, words: Iterable[str]) -> Copies:
    """The copies of ``text`` (normalised: ``norm``; its words: ``words``)."""
    plain = [norm]
    if KERNEL is not None and text.isascii() and not KERNEL.copy_triggers(text, norm):
        return Copies(plain, [], [])  # nothing below can make a copy (checked in C)
    if "\n" in text:  # line starts matter for role labels ("\nSYSTEM: ...")
        lines = "\n".join(line for line in normalise_lines(text) if line)
        if lines != norm:
            plain.append(lines)
    variants: list[str] = []
    spacing = _spacing_copy(text) if _maybe_spaced(text, norm) else None
    runs: list[str] = []
    base = norm
    if spacing is not None:
        base, runs = spacing
        variants.append(base)
    if sum(map(base.count, "-_.*")) >= 3 and len(_HYPHENATED.findall(base)) >= 3:
        base = _HYPHENATED.sub("", base)
        variants.append(base)
    if not base.isascii() and _MIXED_SCRIPT.search(base):  # (it needs Greek or Cyrillic)
        base = base.translate(_HOMOGLYPHS)
        variants.append(base)
    if _maybe_leet(base) and _LEET_TRIGGER.search(base):
        variants.append(base.translate(_LEET))
    if len(text) >= 16 and _maybe_b64(text) and max(map(len, words), default=0) >= 12:
        variants.extend(_decoded_blobs(text))
    if "rot13" in norm or "rot-13" in norm or "rot 13" in norm:
        variants.append(codecs.encode(norm, "rot13"))
    if "revers" in norm or "backward" in norm:
        variants.append(norm[::-1])
    obfuscated: list[str] = []
    for v in variants:
        if v not in plain and v not in obfuscated:
            obfuscated.append(v)
    return Copies(plain, obfuscated, runs)
