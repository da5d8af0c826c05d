"""Schema errors that name file:line:column, what is wrong and, where one exists, a hint."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, Optional


@dataclass(frozen=True)
class Location:
    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column}


class SchemaError(Exception):
    """One problem in a schema or model; str() is the compiler-style diagnostic."""

    def __init__(self, location: Optional[Location], message: str, hint: str = ""):
        super().__init__(message)
        self.location = location
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        text = f"{where}error: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class SchemaErrors(Exception):
    """Every problem found in one pass, so a user fixes them all at once."""

    def __init__(self, errors: list[SchemaError]):
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """A hint naming the closest candidate(s), or "" when nothing is close."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=2, cutoff=0.6)
    if not matches:
        return ""
    return "did you mean " + " or ".join(f"`{m}`" for m in matches) + "?"
