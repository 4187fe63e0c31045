"""Word tokens and content terms shared by the 003 scorers (not by spec 000's port, which
keeps its own JavaScript tokenisation).

A token is a run of letters or digits, keeping inner ``.`` ``,`` ``'`` ``-`` between them
(``1,000``, ``3.5``, ``don't``, ``e-mail``), lower-cased. A content term is a token of
three or more characters that is not a stop word, with a light plural stem (``policies``
-> ``policy``, ``days`` -> ``day``; ``class`` stays).

>>> tokenize("The 1,000 employees' e-mail policies, v2.")
['the', '1,000', 'employees', 'e-mail', 'policies', 'v2']
>>> content_terms(tokenize("The policies of the days"))
['policy', 'day']
>>> text = "Hi, Bob!"
>>> [text[s:e] for s, e in token_spans(text)]
['Hi', 'Bob']
"""

from __future__ import annotations

import re

__all__ = [
    "GRAM_BYTES",
    "STOP_WORDS",
    "content_terms",
    "count_terms",
    "distinct_tokens",
    "python_tokens",
    "shared_trigrams",
    "stem",
    "token_spans",
    "tokenize",
    "trigram_keys",
    "trigram_set",
    "word_count",
]

GRAM_BYTES = 16
"""The size of one record of :func:`trigram_keys` (one distinct trigram)."""

try:  # tokens and trigram records in C (_tokens.c, built by setup.py)
    from monitor.scoring import _tokens as _KERNEL
except ImportError:  # pragma: no cover - built wherever the tests run
    _KERNEL = None  # type: ignore[assignment]

_TOKEN = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*")

STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can cannot could did do does doing down during each
    few for from further had has have having he her here hers herself him himself his how i if
    in into is it its itself just let me more most my myself no nor not now of off on once only
    or other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up upon
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves""".split()
)


def tokenize(text: str) -> list[str]:
    """The tokens of ``text``, lower-cased: ``_TOKEN.findall(text.lower())``.

    No token holds whitespace, so the text is split at whitespace first and only pieces
    with a character other than a letter or digit go through the regex (``str.isalnum``
    is the regex's ``[^\\W_]``); about half the words of prose are such pieces, and the
    split is several times faster than the scan. Text whose characters beyond ASCII are
    all separators that lower-casing keeps (ASCII, and typeset prose) is tokenised in C
    instead, in one pass (``_tokens.tokens``, when built; None for other text).
    """
    found = None if _KERNEL is None else _KERNEL.tokens(text)
    return python_tokens(text) if found is None else found


def python_tokens(text: str) -> list[str]:
    """:func:`tokenize` in Python."""
    out: list[str] = []
    append = out.append
    findall = _TOKEN.findall
    for piece in text.lower().split():
        if piece.isalnum():
            append(piece)
        else:
            out += findall(piece)
    return out


def trigram_set(tokens: list[str]) -> frozenset[str]:
    """The word trigrams of ``tokens``, each its three tokens joined by spaces.

    >>> sorted(trigram_set(["a", "b", "c", "d"]))
    ['a b c', 'b c d']
    """
    return frozenset(map(" ".join, zip(tokens, tokens[1:], tokens[2:], strict=False)))


def trigram_keys(tokens: list[str]) -> bytes | None:
    """The distinct word trigrams of ``tokens`` as compact sorted records, ``GRAM_BYTES``
    each (``_tokens.trigram_keys``: about 16 bytes per token against some 100 for the set
    of strings); None without the kernel (use :func:`trigram_set`).

    >>> keys = trigram_keys(["a", "b", "c", "a", "b", "c"])
    >>> keys is None or len(keys) // GRAM_BYTES == len(trigram_set(["a", "b", "c", "a", "b", "c"]))
    True
    """
    return None if _KERNEL is None else _KERNEL.trigram_keys(tokens)


def shared_trigrams(keys: list[bytes], tokens: list[list[str]]) -> list[int]:
    """For texts whose :func:`trigram_keys` are ``keys`` and tokens ``tokens``, how many
    distinct trigrams each pair ``(i, j)``, ``i < j``, shares, pairs in order:
    ``len(trigram_set(tokens[i]) & trigram_set(tokens[j]))`` (exact: records with equal keys
    count only when their tokens are equal strings), all pairs in one pass.

    >>> texts = [["a", "b", "c", "d"], ["b", "c", "d"], ["x", "y", "z"]]
    >>> keys = [trigram_keys(t) for t in texts]
    >>> shared_trigrams(keys, texts) if keys[0] is not None else [1, 0, 0]
    [1, 0, 0]
    """
    assert _KERNEL is not None, "trigram keys come from the kernel"
    return _KERNEL.shared_trigrams(keys, tokens)


def distinct_tokens(token_lists: list[list[str]]) -> int:
    """How many distinct tokens the lists hold: ``len(set().union(*token_lists))``, counted
    in C where the kernel is built (without building the set).

    >>> distinct_tokens([["a", "b"], ["b", "c"], []])
    3
    """
    if _KERNEL is None:
        return len(set().union(*token_lists))
    return _KERNEL.distinct_tokens(token_lists)


def count_terms(counts: dict[str, int], tokens: list[str], table: dict[str, str]) -> bool:
    """Add to ``counts`` how often each term ``table[token]`` of ``tokens`` occurs ("" is
    no term), in C: ``Counter(map(table.__getitem__, tokens))`` without "", in the same
    order. False when a token is not in ``table`` (``counts`` is then partly filled) or
    where the kernel is not built.

    >>> counts: dict[str, int] = {}
    >>> table = {"the": "", "days": "day", "day": "day"}
    >>> found = count_terms(counts, ["the", "days", "day"], table)
    >>> counts if found else {"day": 2}
    {'day': 2}
    """
    return _KERNEL is not None and _KERNEL.count_terms(counts, tokens, table)


def word_count(text: str) -> int:
    """``len(text.split())``, counted in C where the kernel is built (no word is made).

    >>> word_count("  two\\u00a0words\\n"), word_count("")
    (2, 0)
    """
    return len(text.split()) if _KERNEL is None else _KERNEL.word_count(text)


def token_spans(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of every token of ``text``."""
    return [m.span() for m in _TOKEN.finditer(text)]


def stem(token: str) -> str:
    """A light plural stem: ``ies`` -> ``y``, a final ``s`` dropped unless ``ss``/``us``/``is``."""
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def content_terms(tokens: list[str]) -> list[str]:
    """Tokens worth matching: three or more characters, not stop words, stemmed."""
    return [stem(t) for t in tokens if len(t) > 2 and t not in STOP_WORDS]
