"""JSON Schema of every message the monitor reads or writes, generated from the models.

>>> sorted(schema_documents())  # doctest: +NORMALIZE_WHITESPACE
['ab_result.v1.json', 'alert.v1.json', 'dead_letter.v1.json', 'rag_event.v1.json',
 'scored_event.v1.json']
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from monitor.alerts.alert import Alert
from monitor.events.ab_result import AbResult
from monitor.events.dead_letter import DeadLetter
from monitor.events.rag_event import RagEvent
from monitor.events.scored_event import ScoredEvent

__all__ = ["render", "schema_documents", "write_schemas"]

_MODELS: dict[str, tuple[type[BaseModel], str]] = {
    "rag_event.v1.json": (RagEvent, "rag.events.v1"),
    "scored_event.v1.json": (ScoredEvent, "rag.scores.v1"),
    "dead_letter.v1.json": (DeadLetter, "rag.events.dlq.v1"),
    "alert.v1.json": (Alert, "rag.alerts.v1"),
    "ab_result.v1.json": (AbResult, "rag.ab-results.v1"),
}


def schema_documents() -> dict[str, dict[str, Any]]:
    docs = {}
    for name, (model, topic) in _MODELS.items():
        schema = model.model_json_schema(mode="validation")
        schema["$id"] = f"https://ragmon.dev/schemas/{name}"
        schema["description"] = (
            f"Messages on the {topic} topic. " + schema.get("description", "").strip()
        )
        docs[name] = schema
    return docs


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schemas(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schema_documents().items():
        path = directory / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written
