"""``pii`` / ``us_ssn``: ``AAA-GG-SSSS`` with a valid area, group and serial.

Holdout3: identifiers of things are also printed in the SSN's 3-2-4 shape (a case file,
a ticket, an order: ``Case file 703-02-3873``), and most of them pass the area, group and
serial check. As for bare card-shaped runs, the rule is what the line calls the number
(:func:`.digits.called_otherwise`): labelled as the identifier of a thing (a word of
:data:`.digits.REFERENCE_WORDS`: case, ticket, reference, order, invoice..., followed
only by number, no., ID, file, is... before it), it is that identifier and not an
SSN, unless an SSN word (SSN, social security, TIN...: :data:`SSN_WORD`) is within 60
characters on the line. Such a number is not a phone either (its span is claimed).
"""

from __future__ import annotations

import re

from monitor.scoring.leakage.boundaries import alnum_at
from monitor.scoring.leakage.digits import (
    NUMBER_END,
    NUMBER_START,
    REFERENCE_WORDS,
    Span,
    called_otherwise,
)
from monitor.scoring.leakage.hits import Hit, hit

__all__ = ["SSN", "SSN_CUE", "SSN_WORD", "add_ssn", "ssn_valid"]

SSN = re.compile(rf"{NUMBER_START}([0-9]{{3}})([ \-])([0-9]{{2}})\2([0-9]{{4}}){NUMBER_END}")
SSN_CUE = re.compile(
    r"(?i)\b(?:ssn|social security(?: number| no\.?)?|soc\.? ?sec|ss#|tin)\b[^0-9\n]{0,24}$"
)

SSN_WORD = re.compile(r"(?i)\b(?:ssn|ssns|social security|soc\.? ?sec|ss#|tin|taxpayer|itin)\b")


def ssn_valid(area: str, group: str, serial: str) -> bool:
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return False
    return f"{area}{group}{serial}" not in ("078051120", "219099999", "123456789")


def add_ssn(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, end = m.span()
    if alnum_at(text, end) or alnum_at(text, start - 1):
        return
    if m.group(2) == " " and not SSN_CUE.search(text, max(0, start - 40), start):
        return
    if ssn_valid(m.group(1), m.group(3), m.group(4)) and not called_otherwise(
        text, start, end, REFERENCE_WORDS, SSN_WORD, label=True
    ):
        out.append(hit(start, end, "pii", "us_ssn"))
    else:
        claimed.append((start, end))  # SSN-shaped: not a phone either
