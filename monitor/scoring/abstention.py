"""Did the answer abstain? Spec 004 section 8: the explicit ``abstained`` field when the
service sends it (preferred), else the answer text.

The text rule (004's fallback, without a judge at stream rates): the answer abstains when
its first sentence (and the second, after a preface of at most four words such as
"Sorry." or "Unfortunately,") says it cannot answer or found no support — refusal
phrasing ("I can't help with that", "I'm unable to answer") or missing-support phrasing
("I couldn't find any information", "the provided documents do not mention", "there is
no information about", "I don't know"). Only the opening counts, so an answer that gives
facts and later says "I could not find the 2023 figure" is an answer, not an abstention.

>>> abstained_from_text("I'm sorry, but I couldn't find any information about that.")
True
>>> abstained_from_text("Employees get 15 days. I could not find the carry-over rule.")
False
>>> abstained_from_text("The documents don't mention a parking policy.")
True
"""

from __future__ import annotations

import re

from monitor.events.rag_event import Response

__all__ = ["abstained", "abstained_from_text"]

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_SENTENCE_END = re.compile(r"[.!?\n]+")
_PREFACE = re.compile(r"sorry|unfortunately|apolog|regrettably|afraid|hmm")

_NEG = (
    r"(?:can't|cannot|can not|couldn't|could not|am unable to|'m unable to|was unable to|"
    r"am not able to|'m not able to|wasn't able to|was not able to|don't|do not|did not|didn't)"
)
_ABSTAIN = re.compile(
    r"\b(?:"
    rf"i {_NEG} (?:find|locate|see|identify|answer|help|provide|assist|determine|confirm|say)"
    r"|i don't (?:know|have (?:enough|any|that|the|information|access))"
    r"|i do not (?:know|have (?:enough|any|that|the|information|access))"
    r"|(?:no|not enough|insufficient) (?:relevant )?(?:information|details|data|context|"
    r"sources?|documents?|results?) (?:was |were |is |are )?"
    r"(?:found|available|provided|about|on|regarding|to)"
    r"|there (?:is|are) no (?:relevant )?(?:information|details|mention|documents?|records?)"
    r"|(?:the )?(?:provided |available |given |retrieved )?(?:context|documents?|sources?|"
    r"passages?|knowledge base) (?:does not|doesn't|do not|don't|did not|didn't) "
    r"(?:contain|mention|include|cover|say|specify|provide|address|discuss)"
    r"|(?:is|was) not (?:mentioned|covered|specified|addressed|included) in the "
    r"(?:provided )?(?:context|documents?|sources?)"
    r"|unable to (?:find|answer|locate)"
    r"|i'm sorry,? but i (?:can't|cannot)"
    r"|i (?:must|have to) decline"
    r")"
)


def abstained_from_text(text: str) -> bool:
    """Whether the answer's opening abstains."""
    sentences = _SENTENCE_END.split(text.strip(), maxsplit=2)
    head = sentences[0]
    if len(sentences) > 1 and len(head.split()) <= 4 and _PREFACE.search(head.lower()):
        head += " " + sentences[1]
    normal = " ".join(head.lower().translate(_APOSTROPHES).split())
    return _ABSTAIN.search(normal) is not None


def abstained(response: Response | None) -> bool | None:
    """The explicit field, else the text rule; None without a response."""
    if response is None:
        return None
    if response.abstained is not None:
        return response.abstained
    if not response.text.strip():
        return None
    return abstained_from_text(response.text)
