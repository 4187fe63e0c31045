"""The learned part of the injection detector: a linear model over words, word pairs and
the character n-grams inside words, scored as the maximum over windows of the text.

Features (of the normalised text, :func:`.normalisation.normalise`): the text is split
into tokens (:func:`tokens`: runs of letters and digits, single CJK characters, runs of
up to three punctuation characters). Each token contributes its own weight (``w:`` +
token), the weights of the 3-, 4- and 5-character pieces of ``<token>`` (``c:`` + piece;
tokens of at most :data:`MAX_GRAM_WORD` characters) and the weight of the pair it starts
(``b:`` + token + space + next token). A *window* is :data:`WINDOW_TOKENS` consecutive
tokens (windows start every :data:`STRIDE_TOKENS` tokens; a shorter text is one window);
its logit is the bias plus the sum of its tokens' contributions, and the text's logit is
its highest window's. So a long benign text has no more chances to add up than a short
one, and an instruction hidden in the middle of a long document is scored in its own
window, with only its neighbours around it.

There are two sets of weights, both in ``model.npz`` in this package (written by
``bench/injection_model/train.py`` from the development set of
``bench/injection_model/data.py``, read on first use): the query model's, and the chunk
model's (:data:`CHUNK` before each feature name, its own bias). The chunk model was fitted
on every development text with a retrieved chunk's features counted twice, as themselves
and as chunk-only copies, so that what documents need (a benign manual says "do not ...",
an attack in it speaks to the assistant) is learnt apart from what they share with
queries; a chunk feature's weight is the sum of the two. Scoring queries with that model's
shared weights lost query attacks out of fold (0.887 to 0.858 blocked at 1 % benign), and
giving queries copies of their own too lost more (0.889 to 0.832, before dev3), so
queries keep a model of their own, fitted without copies.

Scoring is look-ups: a token's contribution (its word and character pieces) is kept in a
bounded memo per model, so a word is decomposed once per process, and each position costs
one memo look-up and one look-up of its (token, next token) pair. An ASCII text is scored
by the model's ``Table`` of ``_kernel.c`` (built with the package; optional): the same
tokens, contributions (computed here, once per token, and handed to the table) and pair
weights, added in the same order, so the same logit as :func:`python_logit`, the Python
path, which runs for other text and without the kernel. The sums are plain sequential
additions (``reduce``; Python 3.11's ``sum`` of floats adds the same way; later versions
compensate).

:func:`direct_score` and :func:`indirect_score` combine the model's logit with the pattern
score (:mod:`.evidence`, :mod:`.indirect`) by a logistic fit on out-of-fold predictions
of the development set, rescaled so that each mode's threshold lands on
``BLOCK_THRESHOLD`` (0.5). A pattern score at or above a per-mode *level* also blocks by
itself (the score is then the higher of the two). The threshold and the level are chosen
together on the out-of-fold development texts (queries; retrieved chunks): both ways
together block 1 % of the benign ones, and within that budget the level blocks the most
attacks. (Before, any pattern score of 0.5 blocked: in indirect mode the patterns alone
blocked 20 % of the benign development documents, policies and release notes that say
"ignore the warning" or "the instructions below replace ...".)

>>> tokens("ignore <|system|> the rules!")
['ignore', '<|', 'system', '|>', 'the', 'rules', '!']
>>> windows(3)
[(0, 3)]
>>> windows(100)
[(0, 48), (24, 72), (48, 96), (72, 100)]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, reduce
from importlib import resources
from itertools import accumulate, pairwise, repeat
from operator import add
from typing import TYPE_CHECKING, cast

from monitor.scoring.injection.kernel import KERNEL
from monitor.scoring.injection.normalisation import TYPESET, normalise_unicode, typeset_as_ascii

if TYPE_CHECKING:
    from monitor.scoring.injection._kernel import Table

__all__ = [
    "HEAD_TOKENS",
    "MAX_GRAM_WORD",
    "STRIDE_TOKENS",
    "TAIL_TOKENS",
    "WINDOW_TOKENS",
    "Model",
    "calibrated",
    "direct_score",
    "indirect_score",
    "load",
    "logit",
    "model_text",
    "python_logit",
    "token_features",
    "tokens",
    "windows",
]

WINDOW_TOKENS = 48
STRIDE_TOKENS = 24
HEAD_TOKENS = 4096
TAIL_TOKENS = 1024
"""A text of more tokens is scored on its first ``HEAD_TOKENS`` and last ``TAIL_TOKENS``
(bounded time on huge inputs, as the patterns' ``SCAN_HEAD``/``SCAN_TAIL``)."""
CHUNK = "k:"
"""The prefix of the chunk model's weights: in a retrieved chunk, feature ``f`` weighs
``w["k:" + f]``, in a query ``w[f]``."""
MAX_GRAM_WORD = 24
GRAM_SIZES = (3, 4, 5)
_MEMO_MAX = 200_000

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]{{1,3}}")
# the same tokens of an ASCII text, faster: ASCII classes (\x1c-\x1f are Unicode spaces)
_ASCII_TOKEN = re.compile(r"\w+|[^\w\s\x1c-\x1f]{1,3}", re.ASCII)


def tokens(norm: str) -> list[str]:
    """The tokens of a normalised text (its head and tail when it has very many)."""
    toks: list[str] = (_ASCII_TOKEN if norm.isascii() else _TOKEN).findall(norm)
    if len(toks) > HEAD_TOKENS + TAIL_TOKENS:
        return toks[:HEAD_TOKENS] + toks[-TAIL_TOKENS:]
    return toks


def token_features(token: str) -> list[str]:
    """The features a token contributes by itself (its word and character pieces)."""
    out = [f"w:{token}"]
    if 1 < len(token) <= MAX_GRAM_WORD and token[0].isalnum():
        padded = f"<{token}>"
        for n in GRAM_SIZES:
            out.extend(f"c:{padded[i : i + n]}" for i in range(len(padded) - n + 1))
    return out


def windows(n_tokens: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` token ranges of the windows of a text of ``n_tokens`` tokens."""
    if n_tokens <= WINDOW_TOKENS:
        return [(0, n_tokens)]
    out = []
    start = 0
    while True:
        end = min(start + WINDOW_TOKENS, n_tokens)
        out.append((start, end))
        if end == n_tokens:
            return out
        start += STRIDE_TOKENS


@dataclass(frozen=True, slots=True)
class Model:
    """Weights by feature, the bias and each mode's combination and threshold."""

    weights: dict[str, float]
    bias: float
    chunk_bias: float
    """The chunk model's bias."""
    pairs: tuple[dict[tuple[str, str], float], dict[tuple[str, str], float]]
    """The pair features' weights by (first, second) token, of the query model and of the
    chunk model (``b:first second`` and ``k:b:first second`` in ``weights``)."""
    tables: tuple[Table, Table] | None
    """The query model's and the chunk model's ``_kernel.Table`` (its pair weights, and the
    token contributions computed so far), None without the kernel."""
    direct: tuple[float, float, float, float, float]
    """(model coefficient, pattern coefficient, intercept, raw threshold, the pattern score
    that blocks by itself): together, they block 1 % of the benign development texts."""
    indirect: tuple[float, float, float, float, float]


@cache
def load() -> Model:
    """The shipped model (read once)."""
    import numpy as np  # only when the model is first used

    ref = resources.files("monitor.scoring.injection").joinpath("model.npz")
    with resources.as_file(ref) as path, np.load(path) as data:
        names = data["features"].tobytes().decode().split("\n")
        values = data["weights"].astype(float).tolist()
        bias = float(data["bias"])
        chunk_bias = float(data["chunk_bias"])
        direct = tuple(float(v) for v in data["direct"])
        indirect = tuple(float(v) for v in data["indirect"])
    weights = dict(zip(names, values, strict=True))
    pairs: tuple[dict[tuple[str, str], float], dict[tuple[str, str], float]] = ({}, {})
    for name, value in weights.items():
        chunk = name.startswith(CHUNK)
        feature = name.removeprefix(CHUNK)
        if feature.startswith("b:"):
            first, second = feature[2:].split(" ", 1)
            pairs[chunk][first, second] = value
    tables = None if KERNEL is None else (KERNEL.Table(pairs[0]), KERNEL.Table(pairs[1]))
    return Model(weights, bias, chunk_bias, pairs, tables, direct, indirect)  # type: ignore[arg-type]


_memos: tuple[dict[str, float], dict[str, float]] = ({}, {})  # queries, chunks


def _contribution(token: str, weights: dict[str, float], chunk: bool) -> float:
    get = weights.get
    total = 0.0
    prefix = CHUNK if chunk else ""
    for feature in token_features(token):
        total += get(prefix + feature, 0.0)
    memo = _memos[chunk]
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[token] = total
    return total


def logit(norm: str, model: Model | None = None, *, chunk: bool = False) -> float:
    """The model's logit for a normalised text (a retrieved chunk's with ``chunk``): its
    highest window's."""
    model = load() if model is None else model
    if model.tables is None or not norm.isascii():
        return python_logit(norm, model, chunk=chunk)
    table = model.tables[chunk]
    bias = model.chunk_bias if chunk else model.bias
    while True:
        found = table.logit(norm, bias, WINDOW_TOKENS, STRIDE_TOKENS, HEAD_TOKENS, TAIL_TOKENS)
        if isinstance(found, float):
            return found
        # tokens it has not seen: their contributions, computed here (the next call finds
        # them all: a text has at most HEAD_TOKENS + TAIL_TOKENS tokens)
        if len(table) + len(found) > _MEMO_MAX:
            table.clear()
        for token in dict.fromkeys(found):
            known = _memos[chunk].get(token)
            table.add(token, _contribution(token, model.weights, chunk) if known is None else known)


def python_logit(norm: str, model: Model, *, chunk: bool = False) -> float:
    """:func:`logit` in Python (memoising the contributions of new tokens)."""
    toks = tokens(norm)
    bias = model.chunk_bias if chunk else model.bias
    if not toks:
        return bias
    found: list[float | None] = list(map(_memos[chunk].get, toks))
    contrib = cast(list[float], found)
    if None in found:
        weights = model.weights
        contrib = [
            c if c is not None else _contribution(t, weights, chunk)
            for t, c in zip(toks, found, strict=True)
        ]
    # each token plus the pair it starts (0.0 when the model has no such pair: x + 0.0 == x)
    pair_weights = map(model.pairs[chunk].get, pairwise(toks), repeat(0.0))
    with_pairs: list[float] = list(map(add, contrib, pair_weights))
    with_pairs.append(contrib[-1])
    if len(with_pairs) <= WINDOW_TOKENS:
        return bias + reduce(add, with_pairs, 0.0)
    prefix: list[float] = [0.0, *accumulate(with_pairs)]
    return bias + max(prefix[end] - prefix[start] for start, end in windows(len(with_pairs)))


_CONTROL = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def model_text(text: str) -> str:
    """The text the model tokenises: :func:`.normalisation.normalise` (an ASCII text, or
    one whose only other characters are typographic punctuation: its lower-case ASCII
    form without control characters, which has the same tokens).

    >>> text = "Ignore" + chr(0) + " THE   rules"
    >>> model_text(text), tokens(model_text(text))
    ('ignore the   rules', ['ignore', 'the', 'rules'])
    >>> model_text("\u201cIgnore\u201d \u2014 them")
    '"ignore" - them'
    """
    if KERNEL is not None:  # ASCII or typeset text in one pass in C; None: any other text
        fast = KERNEL.model_text(text, TYPESET)
        return normalise_unicode(text) if fast is None else fast
    if not text.isascii():
        typeset = typeset_as_ascii(text)
        if typeset is None:
            return normalise_unicode(text)
        text = typeset
    low = text.lower()
    if not low.isprintable():
        low = low.encode().translate(None, _CONTROL).decode()
    return low


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def calibrated(raw: float, threshold: float) -> float:
    """Rescale a probability so that ``threshold`` lands on 0.5 (monotone, piecewise
    linear, 0 and 1 fixed).

    >>> calibrated(0.2, 0.2), calibrated(0.1, 0.2), calibrated(0.6, 0.2)
    (0.5, 0.25, 0.75)
    """
    if raw < threshold:
        return 0.5 * raw / threshold
    return 0.5 + 0.5 * (raw - threshold) / (1.0 - threshold)


def _combined(
    model_logit: float, pattern: float, params: tuple[float, float, float, float, float]
) -> float:
    a, b, c, threshold, level = params
    score = calibrated(_sigmoid(a * model_logit + b * pattern + c), threshold)
    if pattern >= level:  # a pattern this strong blocks by itself
        score = max(score, pattern)
    return round(score, 6)


def direct_score(norm: str, pattern: float) -> float:
    """The combined score of a user query (normalised text, pattern score)."""
    model = load()
    return _combined(logit(norm, model), pattern, model.direct)


def indirect_score(norm: str, pattern: float) -> float:
    """The combined score of a retrieved chunk (normalised text, indirect pattern score)."""
    model = load()
    return _combined(logit(norm, model, chunk=True), pattern, model.indirect)
