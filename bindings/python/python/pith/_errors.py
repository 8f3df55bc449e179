"""The exceptions and result types of pith (raised and built by the native module)."""

from __future__ import annotations

import json
from typing import NamedTuple, Optional

__all__ = ["BudgetExceededError", "DecodeError", "Fitted"]


class DecodeError(json.JSONDecodeError):
    """Text that pith cannot decode.

    A ``ValueError``, and a ``json.JSONDecodeError``, so code written for
    ``json.loads`` catches it. ``msg`` says what was expected and what was
    found; ``lineno`` and ``colno`` (1-based, columns count characters) and
    ``pos`` (characters from the start of ``doc``) say where. An error about
    a decoded value rather than its text (a malformed table, or a whole
    number with more digits than an int is made of, say) has a JSON
    ``path`` instead, and ``lineno``, ``colno`` and ``pos`` are None.
    """

    msg: str
    doc: str
    pos: Optional[int]  # type: ignore[assignment]
    lineno: Optional[int]  # type: ignore[assignment]
    colno: Optional[int]  # type: ignore[assignment]
    path: Optional[str]

    def __init__(
        self,
        msg: str,
        doc: str,
        pos: Optional[int],
        lineno: Optional[int] = None,
        colno: Optional[int] = None,
        path: Optional[str] = None,
    ) -> None:
        if lineno is not None and colno is not None:
            text = f"{msg}: line {lineno} column {colno} (char {pos})"
        elif path is not None:
            text = f"at {path}: {msg}"
        else:
            text = msg
        ValueError.__init__(self, text)
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno
        self.path = path

    def __reduce__(self):  # type: ignore[override]
        return (
            self.__class__,
            (self.msg, self.doc, self.pos, self.lineno, self.colno, self.path),
        )


class BudgetExceededError(ValueError):
    """No output of the value fits the budget.

    ``notice`` is the explicit ``output_budget_exceeded`` notice, in the
    form asked for, to show in place of the value (never an empty answer
    that looks complete); ``minimum`` is the smallest budget that works for
    this value (every larger one works too) and ``unbounded`` the tokens of
    the whole output.
    """

    def __init__(
        self,
        message: str,
        notice: str,
        budget: int,
        minimum: int,
        unbounded: int,
        tokenizer: str,
        collections: int,
        rows: int,
    ) -> None:
        super().__init__(message)
        self.notice = notice
        self.budget = budget
        self.minimum = minimum
        self.unbounded = unbounded
        self.tokenizer = tokenizer
        self.collections = collections
        self.rows = rows

    def __reduce__(self):  # type: ignore[override]
        return (
            self.__class__,
            (
                self.args[0],
                self.notice,
                self.budget,
                self.minimum,
                self.unbounded,
                self.tokenizer,
                self.collections,
                self.rows,
            ),
        )


class Fitted(NamedTuple):
    """An output that fits its budget (see ``pith.fit``)."""

    text: str
    """The output, omission receipts and ``read_output`` included."""
    tokens: int
    """Its exact token count (what ``read_output.tokens`` says)."""
    collections_cut: int
    """Collections that show fewer rows than they have."""
    rows_omitted: int
    """Rows left out of those collections."""
