"""Every number of a text: digit clusters are cut out once and searched for phones, SSNs
and cards, the text for IBANs; a fictional or example number claims its span, and nothing
found inside a claimed span is reported."""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate
from typing import Final

from monitor.scoring.leakage.boundaries import alnum_at
from monitor.scoring.leakage.cards import CARD, add_card, find_cued_cards
from monitor.scoring.leakage.digits import NUMBER_END, NUMBER_START, Span
from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.iban import IBAN_SHAPE, find_ibans
from monitor.scoring.leakage.phones import (
    INTL_PHONE,
    NANP_PHONE,
    NATIONAL_PHONE,
    PHONE_CUE,
    add_intl_phone,
    add_nanp_phone,
    add_national_phone,
    fictional_phone,
    find_cued_phones,
)
from monitor.scoring.leakage.ssn import SSN, SSN_CUE, add_ssn, ssn_valid

__all__ = ["find_numbers"]

_DIGIT_BYTES: Final = b"0123456789"
_CLUSTER = re.compile(
    r"[0-9(+](?<![\w.+\-/(][0-9(+])(?<![0-9],[0-9(+])"  # starts on a boundary (a CSV comma is one)
    r"(?=(?:[ \-.()/+\u00a0\u202f]{0,3}+[0-9]){7})"  # at least 8 digits
    r"(?:[0-9]|[ \-.()/+\u00a0\u202f]{1,3}+(?=[0-9(+]))*+"
)  # a boundary-started run of digits and short runs of number punctuation
_PLAIN = re.compile(rf"{NUMBER_START}[0-9]{{9,11}}{NUMBER_END}")


def _plain(text: str, m: re.Match[str], out: list[Hit]) -> None:
    """A bare run of 9 digits right after an SSN word, or of 10-11 after a phone word."""
    start, end = m.span()
    if alnum_at(text, end) or alnum_at(text, start - 1):
        return
    d = m.group()
    before = max(0, start - 40)
    if len(d) == 9 and SSN_CUE.search(text, before, start):
        if ssn_valid(d[:3], d[3:5], d[5:]):
            out.append(hit(start, end, "pii", "us_ssn"))
    elif len(d) in (10, 11) and PHONE_CUE.search(text, before, start):
        if d[0] == "0":
            national, cc = d[1:], "44" if d[1] == "7" else ""
        elif len(d) == 11 and d[0] == "1":
            national, cc = d[1:], "1"
        elif len(d) == 10:
            national, cc = d, "1"
        else:
            return
        if not fictional_phone(national, cc):
            out.append(hit(start, end, "pii", "phone"))


_DENSE = re.compile(r"[0-9(+][0-9\-.()/+]{7,}+")


def _numbers_in_cluster(text: str, cs: int, ce: int, out: list[Hit], claimed: list[Span]) -> None:
    cluster = text[cs:ce]
    if len(cluster) > 40 and cluster.isdigit():
        return  # a bare digit run longer than any number we know
    if len(cluster) > 128:  # digit soup: look only at its space-free pieces
        for m in capped(_DENSE.finditer(text, cs, ce)):
            if m.end() - m.start() <= 40:
                _numbers_in_cluster(text, m.start(), m.end(), out, claimed)
        return
    if "+" in cluster or "00" in cluster:
        for m in capped(INTL_PHONE.finditer(text, cs, ce)):
            add_intl_phone(text, m, out, claimed)
    for m in capped(SSN.finditer(text, cs, ce)):
        add_ssn(text, m, out, claimed)
    for m in capped(CARD.finditer(text, cs, ce)):
        add_card(text, m, out, claimed)
    for m in capped(NANP_PHONE.finditer(text, cs, ce)):
        add_nanp_phone(text, m, out, claimed)
    for m in capped(NATIONAL_PHONE.finditer(text, cs, ce)):
        add_national_phone(text, m, out, claimed)
    for m in capped(_PLAIN.finditer(text, cs, ce)):
        _plain(text, m, out)


def _cued(text: str, low: str, found: list[Hit], claimed: list[Span], out: list[Hit]) -> None:
    taken = [(h[0], h[1]) for h in found]
    taken.extend(claimed)
    find_cued_phones(text, low, out, taken)


def find_numbers(text: str, out: list[Hit], low: str = "") -> None:
    """Append the phones, SSNs, cards and IBANs of ``text`` to ``out`` (``low``: the text
    lower-cased, when known)."""
    raw = text.encode("utf-8", "surrogatepass")
    n_digits = len(raw) - len(raw.translate(None, _DIGIT_BYTES))
    many_digits = n_digits >= 8
    iban_shape = b"AA00" in raw.translate(IBAN_SHAPE)
    if not many_digits and not iban_shape:
        if n_digits == 7:
            _cued(text, low or text.lower(), [], [], out)
        return
    low = low or text.lower()
    found: list[Hit] = []
    claimed: list[Span] = []  # fictional or example numbers: nothing inside is reported
    for m in capped(_CLUSTER.finditer(text)) if many_digits else ():
        cs, ce = m.span()
        while ce > cs and not text[ce - 1].isdigit():
            ce -= 1
        if ce - cs >= 8:  # at least 9 digits, or 8 after + or 00 (international)
            cluster = text[cs:ce].encode("utf-8", "surrogatepass")
            count = len(cluster) - len(cluster.translate(None, _DIGIT_BYTES))
            if count >= 9 or (count == 8 and (b"+" in cluster or b"00" in cluster)):
                _numbers_in_cluster(text, cs, ce, found, claimed)
    if iban_shape:
        find_ibans(text, found, claimed)
    if many_digits:
        _cued(text, low, found, claimed, found)
        if "card" in low or "visa" in low or "credit" in low or "debit" in low:
            find_cued_cards(text, found, [(h[0], h[1]) for h in found] + claimed)
    if claimed:
        claimed.sort()
        starts = [c[0] for c in claimed]
        reach = list(accumulate((c[1] for c in claimed), max))
        for h in found:
            i = bisect_left(starts, h[1])  # claimed spans starting before the hit's end
            if i and reach[i - 1] > h[0]:
                continue
            out.append(h)
    else:
        out.extend(found)
