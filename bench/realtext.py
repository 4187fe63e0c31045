"""Events of real prose at a chosen size, with or without popular passages reused.

The text is CPython's own documentation (``pydoc_data.topics``, via
:mod:`bench.scenarios.corpus`): about 65,000 words of the language reference, shipped with
every CPython. An event has the shape of an ordinary RAG request: a question, ``k`` chunks
of 100-200 words (about 900 bytes each) in rank order with descending vector and rerank
scores, and an answer of two or three sentences quoting the first chunk and citing it.
Chunks are added until the event is about ``size_kb`` KB of JSON (8 KB: 8 or 9 chunks,
128 KB: about 130).

``reuse=True``: chunks are the corpus's passages (some 400), drawn with Zipf-like
popularity (the ``r``-th most popular passage has weight ``1 / r``), as in production where
a few documents answer most questions. ``reuse=False``: every chunk is new text: sentences
drawn from one topic (in their order) until 100-200 words, so no two chunks are alike and
no per-chunk cache can help. ``labelled=True`` adds what ``ragmon eval`` needs: the
first chunk as the relevant one, the question answerable.

>>> events = RealTextEvents(seed=1, size_kb=8, reuse=False).events(3)
>>> [7_000 < len(orjson.dumps(e)) < 10_000 for e in events]
[True, True, True]
>>> e = events[0]
>>> e["response"]["citations"][0]["chunk_id"] == e["chunks"][0]["chunk_id"]
True
>>> len({c["content"] for e in events for c in e["chunks"]}) == sum(len(e["chunks"]) for e in events)
True
"""  # noqa: E501

from __future__ import annotations

import functools
import hashlib
import random
from typing import Any

import orjson

from bench.scenarios.corpus import Corpus, load_corpus

__all__ = ["RealTextEvents"]


@functools.cache
def _topic_sentences() -> tuple[tuple[str, ...], ...]:
    """Every topic's prose sentences in order (topics with at least 20 sentences)."""
    corpus = load_corpus()
    by_topic: dict[str, list[str]] = {}
    for chunk in corpus.chunks:
        by_topic.setdefault(chunk.document_id, []).extend(_split(chunk.content))
    return tuple(tuple(s) for s in by_topic.values() if len(s) >= 20)


def _split(content: str) -> list[str]:
    from bench.scenarios.corpus import _pieces

    return _pieces(content)


class RealTextEvents:
    """Seeded events of about ``size_kb`` KB; the same seed gives the same events."""

    def __init__(
        self,
        seed: int,
        size_kb: int,
        *,
        reuse: bool,
        labelled: bool = False,
        corpus: Corpus | None = None,
    ):
        self.name = f"realtext:{seed}:{size_kb}:{reuse}"
        self.rng = random.Random(self.name)
        self.content_bytes = size_kb * 1024 - 700  # the rest of the event is about 700 B
        self.reuse = reuse
        self.labelled = labelled
        self.corpus = corpus or load_corpus()
        ranks = list(range(len(self.corpus.chunks)))
        self.rng.shuffle(ranks)
        self._popular = ranks
        self._weights = [1.0 / (r + 1) for r in range(len(ranks))]
        self._index = 0

    def events(self, n: int) -> list[dict[str, Any]]:
        return [self.event() for _ in range(n)]

    def messages(self, n: int) -> list[bytes]:
        return [orjson.dumps(self.event()) for _ in range(n)]

    def event(self) -> dict[str, Any]:
        rng, corpus = self.rng, self.corpus
        question = rng.choice(corpus.questions)
        if self.reuse:
            gold = corpus.chunks[question.gold]
            chunks = [(gold.chunk_id, gold.document_id, gold.content)]
            while self._room(chunks):
                c = corpus.chunks[rng.choices(self._popular, self._weights)[0]]
                chunks.append((c.chunk_id, c.document_id, c.content))
            quoted = [question.sentence]
        else:
            chunks = [self._new_chunk()]
            while self._room(chunks):
                chunks.append(self._new_chunk())
            quoted = [s for s in _split(chunks[0][2]) if s.endswith(".")][:2] or [chunks[0][2]]
        answer = " ".join(f"{s[:-1]} [1]." if s.endswith(".") else s for s in quoted)
        answer = f"According to the documentation, {answer[0].lower()}{answer[1:]}"
        vector = _descending(rng, len(chunks), 0.88, 0.03)
        rerank = _descending(rng, len(chunks), 0.96, 0.06)
        self._index += 1
        digest = hashlib.sha256(f"{self.name}:{self._index}".encode()).hexdigest()
        event: dict[str, Any] = {
            "schema_version": "1",
            "event_id": digest[:32],
            "timestamp_ms": 1_767_225_600_000 + self._index * 10,
            "tenant": "acme",
            "application": "docs-assistant",
            "variant": rng.choice(("control", "treatment")),
            "query": {"text": question.text, "type": "faq"},
            "chunks": [
                {
                    "chunk_id": cid,
                    "document_id": did,
                    "content": content,
                    "score": vector[i],
                    "rerank_score": rerank[i],
                }
                for i, (cid, did, content) in enumerate(chunks)
            ],
            "response": {"text": answer, "citations": [{"chunk_id": chunks[0][0]}]},
            "latency_ms": {"retrieve": 40.0, "generate": 900.0, "total": 960.0},
        }
        if self.labelled:  # the first chunk answers the question (what ragmon eval needs)
            event["labels"] = {"relevant_chunks": {chunks[0][0]: 1.0}, "answerable": True}
        return event

    def _room(self, chunks: list[tuple[str, str, str]]) -> bool:
        """Room for one more chunk (of about 1 KB, with its fields)?"""
        used = sum(len(c[2]) + 110 for c in chunks)
        return used + 600 < self.content_bytes

    def _new_chunk(self) -> tuple[str, str, str]:
        """100-200 words of one topic's sentences, in order, not seen before."""
        rng = self.rng
        topics = _topic_sentences()
        sentences = rng.choice(topics)
        target = rng.randint(100, 200)
        start = rng.randrange(len(sentences))
        picked: list[str] = []
        words = 0
        i = start
        while words < target:
            if rng.random() < 0.7:  # skip some sentences: new combinations, same prose
                picked.append(sentences[i % len(sentences)])
                words += len(picked[-1].split())
            i += 1
        self._index += 1
        return f"c{self._index}", f"t{start}", " ".join(picked)


def _descending(rng: random.Random, n: int, top: float, drop: float) -> list[float]:
    values = [top - rng.uniform(0, 0.05)]
    for _ in range(n - 1):
        values.append(max(0.01, values[-1] - rng.uniform(0, drop)))
    return [round(v, 4) for v in values]
