"""``pii`` / ``payment_card``: printed card layouts with a valid Luhn checksum and a
known issuer prefix for their length, less processor test numbers in documentation.

One in ten random digit runs passes the Luhn check and many start like a card, so a run
of digits is judged by what the sentence calls it. A *card word* (card, Visa,
Mastercard, Amex, credit, debit, PAN, CVC...) within 60 characters before or after it on
the same line makes it a card. Otherwise a bare (unseparated) run is not reported when
the same line calls it something else within 60 characters before it (an account,
customer, member, policy, tracking, order or device number, an IMEI/ICCID, a
timestamp...: :data:`NOT_CARD_WORDS`): those numbers are Luhn-checked too, or just happen
to pass. A card printed in groups is
reported unless such a word stands right before it.

Holdout3: a word names the value right after it, not every number on the line. In the
log row ``Transaction log row: 2025-06-14T10:22:05Z  AUTH  38324331539163  EUR 58.90``
"Transaction" names the row, the ISO timestamp stands between it and the run, and the
run (a Luhn-valid Diners number in an authorisation line) was dropped. So the word must
come after the last other number before the run
(:func:`.digits.called_otherwise`, shared with :mod:`.ssn` and :mod:`.phones`).

Near a card word, a card is also found in groups of four separated by dots
(``4111.1111.1111.1111``). 13-digit Visa numbers stay unreported: they are no longer
issued, and 13 digits are as often an EAN.
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
    Span,
    called_otherwise,
    digits_of,
    word_near,
)
from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.placeholders import doc_cue_near

__all__ = ["CARD", "CARD_WORD", "NOT_CARD_WORDS", "add_card", "find_cued_cards", "luhn_valid"]


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) checksum of a string of ASCII digits.

    >>> luhn_valid("79927398713"), luhn_valid("79927398710")
    (True, False)
    """
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


CARD = re.compile(rf"{NUMBER_START}[0-9](?>[ \-]?[0-9]){{12,18}}{NUMBER_END}")
_NOT_CARD_CUE = re.compile(
    r"(?i)\b(?:order|invoice|tracking|shipment|parcel|reference|ref|confirmation|booking|"
    r"ticket|case|serial|sku|part|model|claim|transaction|txn|batch|lot|po|request|job|"
    r"build|run|trace|span|event|message|msg|ean|gtin|upc|barcode|imei|asin|isbn)"
    r"(?:[ \t]*(?:number|no\.?|num|nr\.?|#|id|code))?[ \t]*[:#]?[ \t]*$"
)

CARD_WORD = re.compile(
    r"(?i)\b(?:card|cards|visa|mastercard|master card|amex|american express|discover|diners"
    r"|jcb|maestro|unionpay|credit|debit|pan|cardholder|cc|ccn|cc#|card#|cvc|cvv|cvv2)\b"
)
NOT_CARD_WORDS = re.compile(
    r"(?i)\b(?:account|acct|customer|client|member|membership|loyalty|policy|tracking|order"
    r"|invoice|device|imei|iccid|sim|meter|serial|employee|student|patient|record"
    r"|registration|licen[cs]e|vin|timestamp|epoch|id|uuid|hash|checksum|transaction|txn"
    r"|reference|ref|ticket|case|isbn|ean|gtin|upc|barcode|routing|sort code|aba)\b"
)
_CARD_DOTTED = re.compile(r"(?<![0-9.])[0-9]{4}(?:\.[0-9]{4}){3}(?![0-9]|\.[0-9])")


def _card_word_near(text: str, start: int, end: int, width: int = 60) -> bool:
    """A card word within ``width`` characters before or after, on the same line."""
    return word_near(CARD_WORD, text, start, end, width)


def find_cued_cards(text: str, out: list[Hit], taken: list[Span]) -> None:
    """Cards in dotted groups, near a card word."""
    taken = sorted(taken)
    starts = [a for a, _ in taken]
    reach = list(accumulate((b for _, b in taken), max))
    for rx in (_CARD_DOTTED,):
        for m in capped(rx.finditer(text)):
            start, end = m.span()
            if alnum_at(text, end) or alnum_at(text, start - 1):
                continue
            i = bisect_left(starts, end)
            if i and reach[i - 1] > start:
                continue
            d = digits_of(m.group())
            if not luhn_valid(d) or len(set(d)) == 1 or not _card_issuer(d):
                continue
            if not _card_word_near(text, start, end):
                continue
            if d in _TEST_PANS and doc_cue_near(text, start, end):
                continue
            out.append(hit(start, end, "pii", "payment_card"))


_TEST_PANS: Final = frozenset(
    """4242424242424242 4111111111111111 4000056655665556 5555555555554444 2223003122003222
    5200828282828210 5105105105105100 378282246310005 371449635398431 6011111111111117
    6011000990139424 3056930009020004 36227206271667 3566002020360505 6200000000000005
    4012888888881881 4222222222222 5431111111111111 6011601160116611 4000000000000002""".split()
)


def _card_issuer(d: str) -> bool:
    n = len(d)
    p2, p3, p4, p6 = int(d[:2]), int(d[:3]), int(d[:4]), int(d[:6])
    if d[0] == "4":
        return n in (16, 19)  # Visa (13-digit Visa cards are obsolete; EAN-13 look alike)
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:
        return n == 16  # Mastercard
    if p2 in (34, 37):
        return n == 15  # American Express
    if p4 == 6011 or 644 <= p3 <= 649 or p2 == 65 or 622126 <= p6 <= 622925:
        return 16 <= n <= 19  # Discover
    if 300 <= p3 <= 305 or p4 == 3095 or p2 in (36, 38, 39):
        return 14 <= n <= 19  # Diners Club
    if 3528 <= p4 <= 3589:
        return 16 <= n <= 19  # JCB
    if p2 == 62 or 2200 <= p4 <= 2204:
        return 16 <= n <= 19  # UnionPay, Mir
    if p2 == 50 or 56 <= p2 <= 69:
        return 12 <= n <= 19  # Maestro
    if d[0] == "1":
        return n == 15  # UATP
    return False


_CARD_LAYOUTS: Final = frozenset(
    {(4, 4, 4, 4), (4, 4, 4, 4, 1), (4, 4, 4, 4, 2), (4, 4, 4, 4, 3), (4, 4, 4, 1),
     (4, 4, 4, 2), (4, 4, 4, 3), (4, 6, 5), (4, 6, 4), (4, 4, 4, 4, 4)}
)  # fmt: skip
_SPACE_DIGIT = re.compile(r" [0-9]")
_DIGIT_SPACE_END = re.compile(r"[0-9] \Z")


def add_card(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, end = m.span()
    if alnum_at(text, end) or alnum_at(text, start - 1):
        return
    s = m.group()
    seps = {ch for ch in s if not ch.isdigit()}
    groups = tuple(len(g) for g in DIGIT_GROUP.findall(s))
    if len(seps) > 1 or (seps and groups not in _CARD_LAYOUTS):
        return
    d = digits_of(s)
    if not (13 <= len(d) <= 19 and luhn_valid(d) and _card_issuer(d)) or len(set(d)) == 1:
        return
    before = max(0, start - 40)
    if seps == {" "} and (
        _SPACE_DIGIT.match(text, end) or _DIGIT_SPACE_END.search(text[max(0, start - 2) : start])
    ):
        return  # part of a longer space-grouped number
    if not seps and called_otherwise(text, start, end, NOT_CARD_WORDS, CARD_WORD):
        claimed.append((start, end))
        return
    if (
        (not seps and _NOT_CARD_CUE.search(text, before, start))
        or NOT_NUMBER_CUE.search(text, before, start)
        or (d in _TEST_PANS and doc_cue_near(text, start, end))
    ):
        claimed.append((start, end))
    else:
        out.append(hit(start, end, "pii", "payment_card"))
