"""What the judge judges, and the key a judgement of it is remembered by.

:func:`case_hash` is the sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) of
every field of the case with the rubric, the judge model and the prompt version: change
any of them and the case is judged again; change none and a re-run skips it.

>>> case = JudgeCase(case_id="q1", question="Who?", context=["Ada wrote it."], answer="Ada.")
>>> key = case_hash(case, rubric="faithfulness_completeness", model="m", prompt_version="fc.v1")
>>> (len(key), key == case_hash(case, "faithfulness_completeness", "m", "fc.v1"))
(64, True)
>>> key == case_hash(case, "faithfulness_completeness", "m2", "fc.v1")
False
>>> key == case_hash(case.model_copy(update={"answer": "Bob."}), "faithfulness_completeness",
...                  "m", "fc.v1")
False
"""

from __future__ import annotations

import hashlib
import json

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["JudgeCase", "case_hash"]


class JudgeCase(BaseModel):
    """One answer to judge: the question, the retrieved context (chunk texts, in rank
    order), the system's answer and, when the test set has one, a reference answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str = Field(min_length=1)
    question: str
    context: tuple[str, ...] = ()
    answer: str
    reference: str | None = None


def case_hash(case: JudgeCase, rubric: str, model: str, prompt_version: str) -> str:
    """The progress key of judging ``case`` with this rubric, model and prompt version."""
    canonical = json.dumps(
        {
            "case": case.model_dump(mode="json"),
            "rubric": rubric,
            "model": model,
            "prompt_version": prompt_version,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
