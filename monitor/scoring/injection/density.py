"""Two vocabulary features: jailbreak density and a soft "talks to the assistant" weight.

Long role-play jailbreaks are recognised by their vocabulary: the distinct
jailbreak-lexicon words (persona, unfiltered, refuse, guidelines, character, ...) together
with second-person directives ("you will", "you must", "your responses"). This adds
evidence only past a threshold of distinct words, so length alone adds nothing. A text
with no pattern evidence that still talks to the assistant about its rules, instructions
or persona gets a small tie-breaking weight (at most :data:`SOFT_WEIGHT_CAP`).

>>> density({"you", "the"}, "you the")
0.0
>>> soft({"ignore", "your", "instructions"})
0.09
"""

from __future__ import annotations

import re

__all__ = ["SOFT_WEIGHT_CAP", "density", "soft"]

_LEX_STRONG = frozenset(
    "chatgpt openai jailbreak jailbroken jailbreaking unfiltered uncensored unrestricted amoral "
    "immoral unethical censorship censored censor disclaimer disclaimers refuse refuses refusal "
    "refusing roleplay persona pretend simulate hypothetical hypothetically fictional filters "
    "filtered morals moral ethics ethical illegal harmful offensive confines unhinged profanity "
    "obey comply loophole dan character characters policies guidelines restrictions "
    "limitations inappropriate explicit warnings lecture lectures moralizing".split()
)
_LEX_WEAK = frozenset(
    "respond responds response responses reply replies never always must anything rules limits "
    "free mode tokens ai prompt prompts assistant chatbot bot sorry apologize warning stay break "
    "instructions policy generate opinions human freedom allowed abide unlimited answer answers "
    "ignore forget act pretend role".split()
)
# "\byou(?: will| must| ...)\b|\byour (?:responses?|...)\b", written to start with the
# literal "you" so that ``re`` jumps from one "you" to the next (the same matches)
_DIRECTIVE = re.compile(
    r"you(?<=\byou)(?:(?: will| must| shall| are going to| have to| should| can| cannot"
    r"| can't| never| always| don't| do not| won't| will never| are| have| may| need to"
    r"| no longer)\b|r (?:responses?|answers?|replies|output|purpose|goal|task|role|name)\b)"
)


def density(tokens: set[str], norm: str) -> float:
    """Evidence weight of jailbreak vocabulary; zero for ordinary questions, long or short."""
    strong = len(tokens & _LEX_STRONG)
    weak = len(tokens & _LEX_WEAK)
    points = 2 * strong + weak
    if points < 10:
        return 0.0
    directives = len(_DIRECTIVE.findall(norm)) if len(norm) < 200_000 else 50
    points += min(directives, 12)
    return min(0.85, max(0.0, 0.045 * (points - 14)))


_SOFT_ADDRESS = frozenset("you your yours yourself you're you've you'll ur u".split())
_SOFT_META = frozenset(
    "instructions instruction rules prompt prompts guidelines directives configured "
    "configuration developers developer operator creators creator programming programmed "
    "restrictions censoring censor censored moderation filters filter refusals refuse ethics "
    "ethical morals moral persona roleplay character unfiltered uncensored jailbreak guidance "
    "told setup safety limits limitations obey disobey pretend simulate hacker admin memory "
    "trained training ai assistant bot chatbot model rule orders commands".split()
)
_SOFT_VERB = frozenset(
    "ignore forget disregard drop erase override bypass reveal show print repeat echo pretend "
    "act roleplay become simulate obey follow stop leak dump disable skip quote paste".split()
)
SOFT_WEIGHT_CAP = 0.18
"""The most the soft "talks to the assistant about its own rules" feature adds."""


def soft(tokens: set[str]) -> float:
    """A small weight for texts that talk to the assistant about its rules, instructions or
    persona without matching a pattern: it ranks paraphrased attacks above plain questions
    while staying far below the warn threshold."""
    meta = len(_SOFT_META.intersection(tokens))
    if meta == 0:
        return 0.0
    verbs = len(_SOFT_VERB.intersection(tokens))
    address = not _SOFT_ADDRESS.isdisjoint(tokens)
    if not verbs and not address:
        return 0.0
    return min(SOFT_WEIGHT_CAP, 0.035 * meta + 0.025 * verbs + (0.03 if address else 0.0))
