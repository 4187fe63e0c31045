"""``pii`` / ``phone``: international, North American and national numbers, less the
fictional ranges reserved for drama and documentation."""

from __future__ import annotations

import re
from typing import Final

from monitor.scoring.leakage.boundaries import alnum_at
from monitor.scoring.leakage.digits import (
    DIGIT_GROUP,
    NOT_NUMBER_CUE,
    NUMBER_END,
    NUMBER_START,
    Span,
    digits_of,
)
from monitor.scoring.leakage.hits import Hit, hit

__all__ = [
    "INTL_PHONE",
    "NANP_PHONE",
    "NATIONAL_PHONE",
    "PHONE_CUE",
    "UK_DRAMA_PREFIXES",
    "add_intl_phone",
    "add_nanp_phone",
    "add_national_phone",
    "fictional_phone",
]

#: UK numbers Ofcom reserves for TV and radio drama, as national significant digits
#: (without the trunk 0) followed by the free digits: fictional, never reported.
UK_DRAMA_PREFIXES: Final = (
    "1134960", "1144960", "1154960", "1164960", "1174960", "1184960", "1214960",
    "1314960", "1414960", "1514960", "1614960", "1914980", "2079460", "2896496",
    "2920180", "1632960", "7700900", "8081570", "9098790", "3069990",
)  # fmt: skip

_SEP = r"[ .\-\u00a0\u202f]"
INTL_PHONE = re.compile(
    r"(?:\+(?<![0-9.\-/+]\+)|0(?<![0-9.\-/]0)0)[1-9][0-9]{0,2}\)?"
    rf"(?>{_SEP}?(?:\([0-9]{{1,4}}\)|[0-9]{{1,8}}+)){{1,7}}"
)
NANP_PHONE = re.compile(
    rf"{NUMBER_START}(?:1{_SEP}?)?(?:\([0-9]{{3}}\){_SEP}?|[0-9]{{3}}{_SEP})"
    rf"[0-9]{{3}}{_SEP}[0-9]{{4}}{NUMBER_END}"
)
NATIONAL_PHONE = re.compile(
    rf"{NUMBER_START}(?:\(0[0-9]{{1,4}}\)[ .\-/\u00a0\u202f]?|0[0-9]{{1,4}}[ .\-/\u00a0\u202f])"
    rf"[0-9]{{2,8}}(?:{_SEP}[0-9]{{2,8}}){{0,4}}{NUMBER_END}"
)
_DATE_LIKE = re.compile(r"([0-9]{1,2})([./\-])([0-9]{1,2})\2([0-9]{2}|[0-9]{4})(?![0-9./\-])")
_EXTENSION = re.compile(r"[ ]?(?:x|ext\.?|extension)[ ]?[0-9]{1,6}(?![0-9A-Za-z])", re.I)
PHONE_CUE = re.compile(
    r"(?i)\b(?:phone|tel|telephone|mobile|cell|cellphone|fax|call|text|sms|whatsapp|"
    r"contact|reach|dial|ph|mob)\b[^0-9\n]{0,24}$"
)


def _sequential(d: str) -> bool:
    return len(set(d)) == 1 or d in "01234567890123" or d in "98765432109876"


def fictional_phone(national: str, cc: str) -> bool:
    """``national``: the digits after the country code, without a trunk prefix."""
    if _sequential(national):
        return True
    if cc == "1" and len(national) == 10:
        return national[3:6] == "555" and national[6:8] == "01"
    if cc == "44":
        return national.startswith(UK_DRAMA_PREFIXES)
    return False


def _phone_end_ok(text: str, end: int) -> bool:
    return not alnum_at(text, end) or _EXTENSION.match(text, end) is not None


def add_intl_phone(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, s = m.start(), m.group()
    kept: list[tuple[int, str]] = []  # (end offset in s, digits counted)
    count = 0
    for g in DIGIT_GROUP.finditer(s, 1 if s[0] == "+" else 2):
        trunk = g.group() == "0" and kept and s[g.start() - 1] == "("  # "+44 (0)20 ..."
        digits = "" if trunk else g.group()
        if count + len(digits) > 15:
            break
        count += len(digits)
        kept.append((g.end(), digits))
    if count < 8:
        return
    end = start + kept[-1][0]
    if not _phone_end_ok(text, end):
        return
    digits = "".join(d for _, d in kept)
    if digits.startswith("1"):
        cc, national = "1", digits[1:]
    elif digits.startswith("44"):
        cc, national = "44", digits[2:].removeprefix("0")
    else:
        cc, national = "", digits
    close = s.find(")")
    if text[start - 1 : start] == "(" and close > 0 and "(" not in s[:close]:
        start -= 1  # "(+44) 20 ..."
    if fictional_phone(national, cc):
        claimed.append((start, end))
    else:
        out.append(hit(start, end, "pii", "phone"))


def add_nanp_phone(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, end = m.span()
    if not _phone_end_ok(text, end) or alnum_at(text, start - 1):
        return
    if NOT_NUMBER_CUE.search(text, max(0, start - 40), start) or fictional_phone(
        digits_of(m.group())[-10:], "1"
    ):
        claimed.append((start, end))
    else:
        out.append(hit(start, end, "pii", "phone"))


def add_national_phone(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, s = m.start(), m.group()
    if _date_like(s) or alnum_at(text, start - 1):
        return
    groups = list(DIGIT_GROUP.finditer(s))
    count = sum(len(g.group()) for g in groups)
    while count > 12 and len(groups) > 2:
        count -= len(groups.pop().group())
    if not 9 <= count <= 12:
        return
    end = start + groups[-1].end()
    if not _phone_end_ok(text, end):
        return
    national = "".join(g.group() for g in groups)[1:]
    if (
        NOT_NUMBER_CUE.search(text, max(0, start - 40), start)
        or _sequential(national)
        or national.startswith(UK_DRAMA_PREFIXES)
    ):
        claimed.append((start, end))
    else:
        out.append(hit(start, end, "pii", "phone"))


def _date_like(s: str) -> bool:
    """``d.m.y``, ``m/d/y``... at the start of ``s`` and not followed by more groups."""
    m = _DATE_LIKE.match(s)
    if not m:
        return False
    a, b = int(m.group(1)), int(m.group(3))
    return 1 <= min(a, b) <= 12 and 1 <= max(a, b) <= 31
