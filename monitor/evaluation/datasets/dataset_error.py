"""The one error a dataset loader raises: where in which file, which field, and why.

The message is :class:`~monitor.errors.FileError`'s one line, ``FILE:LINE: field FIELD:
reason`` (``LINE`` and ``field FIELD`` are left out when unknown, for example a missing
file or a record that is not JSON). ``line`` is 1-based; ``field`` is the dotted path of the
offending value inside the record (list indices as numbers, like the worker's dead letters).

>>> err = DatasetError("evals/cases.jsonl", 3, "user_roles", "input should be a valid list")
>>> str(err)
'evals/cases.jsonl:3: field user_roles: input should be a valid list'
>>> str(DatasetError("evals", None, None, "no cases.jsonl in the directory"))
'evals: no cases.jsonl in the directory'
>>> isinstance(err, FileError), err.line, err.case_id
(True, 3, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import ValidationError

from monitor.errors import FileError

__all__ = ["DatasetError", "dotted"]


def dotted(loc: Sequence[int | str]) -> str | None:
    """A pydantic error location as a dotted field path (``None`` for the record itself).

    >>> dotted(("labels", "relevant_chunks", "c1")), dotted(("chunks", 0, "score")), dotted(())
    ('labels.relevant_chunks.c1', 'chunks.0.score', None)
    """
    return ".".join(str(part) for part in loc) or None


class DatasetError(FileError):
    """A dataset file, or one record of it, that cannot be read.

    ``file`` is the path as given to the loader, ``line`` the 1-based line of the record
    (``None`` for the file as a whole), ``field`` the dotted path inside the record
    (``None`` when the record itself is at fault), ``reason`` a human sentence and
    ``case_id`` the record's case when it could be read (so a runner can list the cases
    that ``skip_invalid`` left out).
    """

    def __init__(
        self,
        file: str,
        line: int | None,
        field: str | None,
        reason: str,
        *,
        case_id: str | None = None,
    ) -> None:
        super().__init__(file, line, field, reason)
        self.case_id = case_id

    @classmethod
    def from_validation(
        cls,
        file: str,
        line: int | None,
        exc: ValidationError,
        *,
        prefix: Sequence[int | str] = (),
        rename: Mapping[str, str] | None = None,
        case_id: str | None = None,
    ) -> DatasetError:
        """The first error of a pydantic ``ValidationError`` (and how many more there are).

        ``prefix`` is the record's own path in the file (``("queries", 2)``); ``rename``
        maps a model field path to the source field it was read from (``labels.answerable``
        -> ``answerable``), so the error names what the file says.

        >>> from pydantic import BaseModel
        >>> class M(BaseModel):
        ...     tags: list[str]
        >>> try:
        ...     M.model_validate({"tags": ["a", 2]})
        ... except ValidationError as exc:
        ...     print(DatasetError.from_validation("f.jsonl", 2, exc))
        ...     print(DatasetError.from_validation("f.json", 9, exc, prefix=("queries", 0),
        ...                                        rename={"tags": "metadata.tags"}))
        f.jsonl:2: field tags.1: Input should be a valid string
        f.json:9: field queries.0.metadata.tags.1: Input should be a valid string
        """
        errors = exc.errors(include_url=False, include_input=False)
        first = errors[0]
        path = dotted(first["loc"])
        for model_path, source_path in (rename or {}).items():
            if path == model_path or (path or "").startswith(model_path + "."):
                path = source_path + (path or "")[len(model_path) :]
                break
        path = dotted([*prefix, *(path.split(".") if path else [])])
        reason = first["msg"].removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            reason = "unknown field (the format has no such field; a typo?)"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return cls(file, line, path, f"{reason}{more}", case_id=case_id)
