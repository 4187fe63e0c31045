"""The labelled texts the injection model is trained, calibrated and evaluated on.

Sources (all written for ragmon, or public text shipped with CPython):

- ``bench/injection_model/corpus.py``: the template families (split by family);
- ``tests/fixtures/injection/dev.jsonl``: hand-written attacks and hard negatives
  (training); ``holdout.jsonl``, ``holdout2.jsonl``, ``holdout3.jsonl`` and
  ``chunks.jsonl``: hand-written, never trained on (holdout);
- ``dev2.jsonl`` and ``dev2_chunks.jsonl``: queries and retrieved documents written for
  ragmon by a writer who saw none of the rest of this set;
- ``dev3_chunks.jsonl``: retrieved documents by a writer who read only ``dev2_chunks`` (to
  write what it lacks: most attacks avoid "ignore", "previous" and "instructions");
- ``dev4.jsonl``: queries by a writer who read only ``dev.jsonl`` and ``dev2.jsonl`` (to
  write what they lack: attacks in other languages, payloads pasted into a request,
  persona jailbreaks, and benign requests in other languages);
- ``dev5.jsonl`` and ``dev5_chunks.jsonl``: queries and documents by a writer asked for
  personas, filter bypasses, pasted payloads and hard benign documents;
- ``holdout4.jsonl`` to ``holdout10_chunks.jsonl`` (the queries and documents of
  holdout4, holdout6 to holdout10, and holdout5's documents): by seven writers who read
  nothing of the project. They were the independent holdouts of earlier models (their
  first sights are in the README); holdout4 to holdout8 are training data since a model
  chosen on holdout9, and holdout9 and holdout10 since a model chosen on holdout11, each
  by a rule written before that holdout existed;
- ``dev6.jsonl`` and ``dev6_chunks.jsonl``: 300 queries and 344 documents by a writer
  asked for the injection techniques holdout9's documents were missed on (conditional
  triggers, tool calls, buried and labelled notes, fake turns, CV screening) and hard
  benign documents;
- ``holdout11.jsonl`` and ``holdout11_chunks.jsonl``: 730 queries and 370 documents by a
  ninth writer who read nothing of the project; the holdout of the model before the
  shipped one, training data since the shipped model, chosen on holdout12;
- ``dev7.jsonl`` and ``dev7_chunks.jsonl``: 400 queries and 240 documents by a writer
  asked for attacks in other languages (23 languages) and role overrides, with benign
  requests in the same languages, benign role-play and admin questions;
- ``holdout12.jsonl`` and ``holdout12_chunks.jsonl`` (holdout): 730 queries and 370
  documents by a tenth writer who read nothing of the project, first scored with the
  shipped model and the one before it;
- the ``ragmon demo`` corpus (``monitor/demo/corpus.py``): policy chunks and the questions
  they answer (benign, training) and its injection payloads (training);
- CPython's documentation topics (``pydoc_data.topics``, as packed by
  ``bench/scenarios/corpus.py``): technical chunks full of "ignore", "override", "system",
  "instructions" and the questions made from them (benign); topics are split by name
  (every third topic, sorted, is holdout).

A row: ``text, label, category, family, mode ("query" | "chunk"), split``. A holdout text
that also occurs in training (the documentation repeats sentences across topics; short
common questions recur across writers: 14 of holdout12's 1,100 texts) is dropped from
the holdout.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["FIXTURES", "HOLDOUT_FILES", "load_rows"]

Row = dict[str, object]
FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "injection"
HOLDOUT_FILES = (
    "holdout.jsonl",
    "holdout2.jsonl",
    "holdout3.jsonl",
    "chunks.jsonl",
    "holdout12.jsonl",
    "holdout12_chunks.jsonl",
)


_EDGE = 80


def _fixture(name: str, split: str) -> list[Row]:
    """A fixture file's rows. Families (the folds' groups) are five per category, except
    that chunks sharing their first or last 80 characters are one family: the same
    document with and without an injection added stays on one side of a fold."""
    out: list[Row] = []
    document: dict[str, str] = {}  # an edge of a chunk -> the family of its document
    with (FIXTURES / name).open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            if not line.strip():
                continue
            r = json.loads(line)
            if "content" in r:  # retrieved chunks
                text, mode = r["content"], "chunk"
                category = "indirect" if r["label"] else "benign_document"
                if r["label"] and "technique" in r:  # holdout5: how the injection is made
                    category = f"indirect_{r['technique']}"
                edges = (f"<{text[:_EDGE]}", f">{text[-_EDGE:]}")
                family = next(
                    (document[e] for e in edges if e in document), f"fx:{name}:doc:{n % 5}"
                )
                document.update(dict.fromkeys(edges, family))
            else:
                text, mode = r["text"], "query"
                category = r.get("category") or "benign_fixture"
                family = f"fx:{name}:{category}:{n % 5}"
            out.append(_row(text, r["label"], category, family, mode, split))
    return out


def _row(text: str, label: int, category: str, family: str, mode: str, split: str) -> Row:
    return {
        "text": text,
        "label": int(label),
        "category": category,
        "family": family,
        "mode": mode,
        "split": split,
    }


def _demo() -> list[Row]:
    from monitor.demo.corpus import CORPUS, INJECTION_PAYLOADS, NO_RESULT_QUERIES

    out: list[Row] = []
    for doc in CORPUS:
        for section in doc.sections:
            for chunk in section.chunks:
                out.append(
                    _row(chunk, 0, "benign_document", f"demo:{doc.document_id}", "chunk", "train")
                )
            for _, query in section.queries:
                out.append(
                    _row(query, 0, "benign_question", f"demo:{doc.document_id}", "query", "train")
                )
    out += [
        _row(q, 0, "benign_question", "demo:noresult", "query", "train") for q in NO_RESULT_QUERIES
    ]
    out += [
        _row(p, 1, "demo_payload", "demo:payload", "query", "train") for p in INJECTION_PAYLOADS
    ]
    return out


def _pydoc() -> list[Row]:
    from bench.scenarios.corpus import load_corpus

    corpus = load_corpus()
    names = sorted({c.document_id for c in corpus.chunks})
    holdout = set(names[2::3])
    out: list[Row] = []
    for c in corpus.chunks:
        split = "holdout" if c.document_id in holdout else "train"
        out.append(_row(c.content, 0, "benign_document", f"pydoc:{c.document_id}", "chunk", split))
    for q in corpus.questions[::3]:
        doc = corpus.chunks[q.gold].document_id
        split = "holdout" if doc in holdout else "train"
        out.append(_row(q.text, 0, "benign_question", f"pydoc:{doc}", "query", split))
    return out


def load_rows(seed: int = 17) -> list[Row]:
    """Every labelled row, with its split."""
    from bench.injection_model.corpus import rows

    out = list(rows(seed))
    for name in (
        "dev.jsonl",
        "dev2.jsonl",
        "dev2_chunks.jsonl",
        "dev3_chunks.jsonl",
        "dev4.jsonl",
        "dev5.jsonl",
        "dev5_chunks.jsonl",
        "holdout4.jsonl",
        "holdout4_chunks.jsonl",
        "holdout5_chunks.jsonl",
        "holdout6.jsonl",
        "holdout7.jsonl",
        "holdout7_chunks.jsonl",
        "holdout8.jsonl",
        "holdout8_chunks.jsonl",
        "holdout9.jsonl",
        "holdout9_chunks.jsonl",
        "holdout10.jsonl",
        "holdout10_chunks.jsonl",
        "dev6.jsonl",
        "dev6_chunks.jsonl",
        "holdout11.jsonl",
        "holdout11_chunks.jsonl",
        "dev7.jsonl",
        "dev7_chunks.jsonl",
    ):
        out += _fixture(name, "train")
    for name in HOLDOUT_FILES:
        out += _fixture(name, "holdout")
    out += _demo()
    out += _pydoc()
    trained = {r["text"] for r in out if r["split"] == "train"}
    seen: set[object] = set()
    kept = []
    for r in out:  # a holdout text that is also a training text (or a repeat) is dropped
        if r["split"] == "holdout" and (r["text"] in trained or r["text"] in seen):
            continue
        seen.add(r["text"])
        kept.append(r)
    return kept
