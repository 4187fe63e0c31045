"""Passages and questions from CPython's own documentation (``pydoc_data.topics``: the
language reference's help texts, about 65,000 words in 79 topics, shipped with every
CPython).

Each topic is a document. The sentences of its prose paragraphs (grammar productions,
indented code and underlined headings are left out) are packed, in order, into chunks of
``MIN_WORDS``-``MAX_WORDS`` words (a topic's last chunk joins the one before when short;
a topic with fewer words is one chunk). A *question* is made from one prose sentence of a chunk
(its gold chunk): the sentence's content words, reworded as a question, so that the gold
chunk answers it and the retriever can find it by its terms.

>>> corpus = load_corpus()
>>> len(corpus.chunks) > 250, len(corpus.questions) > 1000
(True, True)
>>> c = corpus.chunks[0]
>>> c.chunk_id, c.document_id, len(c.content.split()) <= MAX_WORDS
('assert-000', 'assert', True)
>>> q = corpus.questions[0]
>>> q.text.endswith("?"), corpus.chunks[q.gold].document_id
(True, 'assert')
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

__all__ = ["MAX_WORDS", "MIN_WORDS", "Chunk", "Corpus", "Question", "load_corpus", "terms"]

MIN_WORDS = 100
MAX_WORDS = 200

_WORD = re.compile(r"[a-z][a-z0-9_]+")
_SCORER_WORD = re.compile(r"[^\W_]+")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\"'][.!?])\s+(?=[A-Z\"(])")
_STOP = frozenset(
    """a about above after again all also an and any are as at be because been before being
    below between both but by can could did do does doing down during each either else few for
    from further had has have having here how however if in into is it its itself just may
    might more most must no nor not now of off on once one only or other our out over own same
    shall should so some such than that the their them then there these they this those
    through thus to too under until up upon very was we were what when where whether which
    while who whom why will with would yet you your""".split()
)
_OPENERS = (
    "In Python, is it true that {s}?",
    "Can you explain why {s}?",
    "How does it work that {s}?",
    "According to the language reference, is it the case that {s}?",
    "I read that {s}. Why?",
)


def terms(text: str) -> frozenset[str]:
    """Lower-cased content words of ``text`` (no stop words, at least 3 letters).

    >>> sorted(terms("The for statement is used to iterate over a sequence"))
    ['iterate', 'sequence', 'statement', 'used']
    """
    return frozenset(w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP)


@dataclass(frozen=True, slots=True)
class Chunk:
    chunk_id: str
    document_id: str
    title: str
    content: str
    sentences: tuple[str, ...]
    """The prose sentences of ``content`` with 8 to 30 words (answer material), in order."""
    terms: frozenset[str]


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    gold: int
    """Index of the chunk that answers it in :attr:`Corpus.chunks`."""
    sentence: str
    """The gold chunk's sentence the question was made from (a faithful answer quotes it)."""


@dataclass(frozen=True, slots=True)
class Corpus:
    chunks: tuple[Chunk, ...]
    questions: tuple[Question, ...]
    neighbours: tuple[tuple[int, ...], ...]
    """For each chunk, the 12 other chunks that share most terms with it (best first):
    what a healthy retriever returns beside the gold chunk."""


def _paragraphs(text: str) -> tuple[str, list[str]]:
    """The topic's title and its prose paragraphs (one line each)."""
    blocks = [b for b in re.split(r"\n\s*\n", text) if b.strip()]
    title = blocks[0].splitlines()[0].strip() if blocks else ""
    out = []
    for block in blocks:
        lines = block.splitlines()
        if any(line.startswith((" ", "\t")) for line in lines):
            continue  # grammar, code, tables
        if len(lines) >= 2 and set(lines[-1].strip()) <= set("*=-~^"):
            continue  # a heading
        prose = " ".join(line.strip() for line in lines)
        if len(prose.split()) >= 8:
            out.append(prose)
    return title, out


def _pieces(paragraph: str) -> list[str]:
    """The paragraph's sentences (so a long paragraph can be split between chunks)."""
    return [s.strip() for s in _SENTENCE_END.split(paragraph) if s.strip()]


def _answerable(sentence: str) -> bool:
    """A prose sentence of 8 to 30 words (as the leakage scorer counts them: runs of
    letters and digits) that ends like one, so that an answer quoting it stays under the
    scorer's 40-word verbatim run; no table rows."""
    words = len(_SCORER_WORD.findall(sentence))
    prose = "|" not in sentence and "i.e" not in sentence
    return 8 <= words <= 30 and prose and sentence.endswith(".")


def _question(sentence: str, number: int) -> str:
    body = sentence.rstrip(".!?:; ")
    if body[:1].isupper() and (body[1:2].islower() or body[1:2] == " "):
        body = body[0].lower() + body[1:]
    return _OPENERS[number % len(_OPENERS)].format(s=body)


@functools.cache
def load_corpus() -> Corpus:
    """The corpus (built once; about a second)."""
    from pydoc_data.topics import topics  # nothing at import

    chunks: list[Chunk] = []
    questions: list[Question] = []
    for name in sorted(topics):
        title, paragraphs = _paragraphs(topics[name])
        pieces = [piece for p in paragraphs for piece in _pieces(p)]
        packed: list[list[str]] = [[]]
        for piece in pieces:
            words = sum(len(p.split()) for p in packed[-1])
            if words >= MIN_WORDS or (words and words + len(piece.split()) > MAX_WORDS):
                packed.append([])
            packed[-1].append(piece)
        if len(packed) > 1 and sum(len(p.split()) for p in packed[-1]) < MIN_WORDS:
            last = packed.pop()
            packed[-1].extend(last)
        for number, group in enumerate(p for p in packed if p):
            content = " ".join(group)
            sentences = tuple(p for p in group if _answerable(p))
            chunk = Chunk(f"{name}-{number:03d}", name, title, content, sentences, terms(content))
            index = len(chunks)
            chunks.append(chunk)
            for i, sentence in enumerate(sentences):
                if len(terms(sentence)) >= 4:
                    questions.append(Question(_question(sentence, i), index, sentence))
    neighbours = []
    for i, chunk in enumerate(chunks):
        scored = sorted(
            ((len(chunk.terms & other.terms) / (len(chunk.terms | other.terms) or 1), j)
             for j, other in enumerate(chunks) if j != i),
            reverse=True,
        )  # fmt: skip
        neighbours.append(tuple(j for _, j in scored[:12]))
    return Corpus(tuple(chunks), tuple(questions), tuple(neighbours))
