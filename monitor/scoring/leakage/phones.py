"""``pii`` / ``phone``: international, North American and national numbers, less the
fictional ranges reserved for drama and documentation.

Besides the shapes that are phone numbers wherever they stand (``+CC ...``, North
American, national with a trunk ``0``), a number written the way people write their own
number in a sentence that asks to be called or texted (:data:`CUED_PHONE`: "call me on 612
34 56 78", "text me at 98765 43210", "ring (11) 98765-4321", "my cell is 867-5309") is a
phone: 7-12 digits in 2-5 groups of 2-5 digits separated by one space, dash or dot, or a
bracketed area code and groups, at most 30 characters (no digit, no sentence end) after a
call word (preceded by a space, a bracket, a colon or a quote). Not reported there:
numbers with the 555 exchange, year ranges (``2023-2024``), amounts (a currency sign
before, a unit or ``%`` after), dates and times.

Fictional, never reported: the drama ranges (US ``555-0100``-``555-0199``, UK Ofcom
:data:`UK_DRAMA_PREFIXES`), one repeated digit or a run of consecutive digits, North
American numbers with area code or exchange 555 (unassigned, or the films' and
textbooks' exchange), and, in a sample record
(:func:`sample_context`: a ``"phone":`` key of JSON/YAML near ``John Doe``,
``example``, ``sample``, ``dummy``, ``test``...), a number with a run of five consecutive
digits (``+1 202 123 4567``).

Holdout3 added:

- a slash between the area code and the number, as written in Germany
  (``+49 89 / 7003 3440``): at most one, after the country or the area code;
- a CSV field: a comma after a letter starts a number (``Logistics,073-544 38 21``); a
  comma after a digit still does not (``1,250,000``);
- contact words as call words: contacted, reached, reachable ("can be contacted on (21)
  90047-1458"), and a possessive before "number" ("their new number, 914 193 926", "my
  number is ..."), but not "their number of ..."; an IPv4 address after such a word
  ("reachable at 192.168.10.254") is not a phone;
- not a phone: a national number that continues a longer run, after a group of three or
  more digits and one space or dash (``4334 0388 6996 8812``, a 16-digit reference that
  fails Luhn), as cards do for runs that continue; and a North American or national
  number the line labels as the identifier of a thing ("appointment reference is
  595-245-7623", "Order #: 020 7123 4567": a word of
  :data:`.digits.REFERENCE_WORDS` followed only by number/no./ID/is..., see
  :func:`.digits.called_otherwise`) when no phone word (:data:`PHONE_WORD`) is within 60
  characters. International ``+CC``/``00CC`` numbers stay phones whatever the label.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate
from typing import Final

from monitor.scoring.leakage.boundaries import alnum_at
from monitor.scoring.leakage.digits import (
    DIGIT_GROUP,
    NOT_NUMBER_CUE,
    NUMBER_END,
    NUMBER_START,
    REFERENCE_WORDS,
    Span,
    called_otherwise,
    digits_of,
)
from monitor.scoring.leakage.hits import Hit, capped, hit

__all__ = [
    "INTL_PHONE",
    "NANP_PHONE",
    "NATIONAL_PHONE",
    "PHONE_CUE",
    "PHONE_WORD",
    "UK_DRAMA_PREFIXES",
    "add_intl_phone",
    "add_nanp_phone",
    "add_national_phone",
    "fictional_phone",
    "find_cued_phones",
    "sample_context",
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
    rf"(?>(?:{_SEP}|[ ]?/[ ]?)?(?:\([0-9]{{1,4}}\)|[0-9]{{1,8}}+)){{1,7}}"
)  # a slash only between the area code and the number (add_intl_phone): +49 89 / 7003 3440
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
_CONTACT = r"contact|contacted|reach|reached|reachable"
PHONE_CUE = re.compile(
    r"(?i)\b(?:phone|tel|telephone|mobile|cell|cellphone|fax|call|text|sms|whatsapp|"
    rf"{_CONTACT}|dial|ph|mob)\b[^0-9\n]{{0,24}}$"
)
#: A word that calls a number a phone, anywhere near it.
PHONE_WORD = re.compile(
    r"(?i)\b(?:phone|phones|tel|telephone|mobile|cell|cellphone|fax|call|calls|called|text"
    rf"|sms|whatsapp|{_CONTACT}|dial|ring|ph|mob|landline|hotline|helpline)\b"
)
_RUN_BEFORE = re.compile(r"(?<![0-9])[0-9]{3,}[ \-]\Z")


def _sequential(d: str) -> bool:
    return len(set(d)) == 1 or d in "01234567890123" or d in "98765432109876"


def fictional_phone(national: str, cc: str) -> bool:
    """``national``: the digits after the country code, without a trunk prefix."""
    if _sequential(national):
        return True
    if cc == "1" and len(national) == 10:
        area, exchange = national[:3], national[3:6]
        return "555" in (area, exchange)
    if cc == "44":
        return national.startswith(UK_DRAMA_PREFIXES)
    return False


def _phone_end_ok(text: str, end: int) -> bool:
    return not alnum_at(text, end) or _EXTENSION.match(text, end) is not None


def add_intl_phone(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, s = m.start(), m.group()
    kept: list[tuple[int, str]] = []  # (end offset in s, digits counted)
    count = 0
    slash = False
    for g in DIGIT_GROUP.finditer(s, 1 if s[0] == "+" else 2):
        if kept and "/" in s[kept[-1][0] : g.start()]:
            if slash or len(kept) > 2:
                break  # one slash, after the country or area code: +49 89 / 7003 3440
            slash = True
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
    if fictional_phone(national, cc) or sample_fictional(text, start, end, digits):
        claimed.append((start, end))
    else:
        out.append(hit(start, end, "pii", "phone"))


def add_nanp_phone(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, end = m.span()
    if not _phone_end_ok(text, end) or alnum_at(text, start - 1):
        return
    digits = digits_of(m.group())[-10:]
    if (
        NOT_NUMBER_CUE.search(text, max(0, start - 40), start)
        or fictional_phone(digits, "1")
        or sample_fictional(text, start, end, digits)
        or called_otherwise(text, start, end, REFERENCE_WORDS, PHONE_WORD, label=True)
    ):
        claimed.append((start, end))
    else:
        out.append(hit(start, end, "pii", "phone"))


def add_national_phone(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, s = m.start(), m.group()
    if _date_like(s) or alnum_at(text, start - 1):
        return
    if _RUN_BEFORE.search(text[max(0, start - 12) : start]):
        return  # the tail of a longer number: 4334 0388 6996 8812
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
        or sample_fictional(text, start, end, national)
        or (
            s[:2] != "00"
            and called_otherwise(text, start, end, REFERENCE_WORDS, PHONE_WORD, label=True)
        )
    ):  # "00": an international number, judged as one
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


_SAMPLE_CUE = re.compile(
    r"(?i)\b(?:john|jane) (?:q\. )?(?:doe|smith)\b|\b(?:example|examples|sample|dummy|fake"
    r"|mock|fixture|placeholder|lorem|test|demo|seed)\b"
)
_RECORD_KEY = re.compile(
    r"(?i)[\"']?(?:phone|tel|telephone|mobile|cell|fax)\w*[\"']?\s*[:=]\s*[\"']?$"
)
_RUN5 = re.compile("|".join("0123456789"[i : i + 5] for i in range(6)))


def sample_context(text: str, start: int, end: int) -> bool:
    """Whether a number is a field of a sample record: a ``phone``-like key right before it
    and a sample cue (``John Doe``, ``example``, ``sample``, ``test``...) within 200
    characters."""
    if not _RECORD_KEY.search(text, max(0, start - 30), start):
        return False
    return _SAMPLE_CUE.search(text, max(0, start - 200), min(len(text), end + 200)) is not None


def sample_fictional(text: str, start: int, end: int, digits: str) -> bool:
    """A sample record's number with five consecutive digits (``123-4567``)."""
    return _RUN5.search(digits) is not None and sample_context(text, start, end)


_CUE_WORDS: Final = (
    "call", "text", "ring", "phone", "mobile", "cell", "whatsapp", "sms", "dial", "tel",
    "reach", "contact", "number",
)  # fmt: skip
CUED_PHONE = re.compile(
    r"(?i)(?:\b(?:call|calling|text|texting|ring|phone|mobile|cell|cellphone|whatsapp|sms"
    rf"|dial|tel|{_CONTACT})\b|\b(?:my|his|her|their|our|your)[ \t]+(?:new[ \t]+)?number\b"
    r"(?![ \t]+of\b))[^0-9\n.!?]{0,30}?"
    r"(?<![0-9])(?P<num>(?:\([0-9]{2,4}\)[ .\-]?)?[0-9]{2,5}(?:[ .\-][0-9]{2,5}){1,4})"
    r"(?![0-9]|[.\-/][0-9])"
)
_AMOUNT_AFTER = re.compile(
    r"\s?(?:%|percent|[a-z]*(?:euro|dollar|pound|yen|usd|eur|gbp|km|kg|mile|minute|hour|day"
    r"|week|month|year|time|people|user|employee|item|unit|step|page|point)s?\b)",
    re.I,
)
_IPV4 = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")
_YEAR_RANGE = re.compile(r"(?:19|20)[0-9]{2}[ \-](?:19|20)[0-9]{2}")


def find_cued_phones(text: str, low: str, out: list[Hit], taken: list[Span]) -> None:
    """Numbers in national form right after a call word (see the module docstring);
    ``taken``: spans of numbers found already (phones, cards, claimed)."""
    if not any(w in low for w in _CUE_WORDS):
        return
    taken = sorted(taken)
    starts = [a for a, _ in taken]
    reach = list(accumulate((b for _, b in taken), max))
    for m in capped(CUED_PHONE.finditer(text)):
        start, end = m.span("num")
        s = m.group("num")
        i = bisect_left(starts, end)  # spans taken that start before this number ends
        if i and reach[i - 1] > start:
            continue
        digits = digits_of(s)
        groups = DIGIT_GROUP.findall(s)
        if not 7 <= len(digits) <= 12 or (len(groups) < 3 and len(digits) < 7):
            continue
        if alnum_at(text, end) or _date_like(s) or _YEAR_RANGE.fullmatch(s) or _IPV4.fullmatch(s):
            continue
        if text[max(0, start - 1) : start] in ("$", "€", "£", "¥") or _AMOUNT_AFTER.match(
            text, end
        ):
            continue
        if start and not (text[start - 1].isspace() or text[start - 1] in "(:\"'"):
            continue  # glued to a word: "SN-4417-2290-8812"
        national = digits[1:] if digits[0] == "0" else digits
        if _sequential(national) or sample_fictional(text, start, end, digits):
            continue
        if groups[0] == "555" or (len(groups) >= 2 and groups[-2] == "555"):
            continue  # the films' exchange (555-0100...)
        out.append(hit(start, end, "pii", "phone"))
