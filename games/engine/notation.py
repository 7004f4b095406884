"""Text notation pieces every family shares: cell names, leave events, game lines.

A cell is named by its column letter (``a`` = column 0) then its row number (0 at the
top), so ``[2, 5]`` is ``f2``: the JSON coordinates, never renumbered, so text and JSON
never disagree. A leave event is ``resign:2``, ``timeout:0`` or ``removed:1``.
"""

from __future__ import annotations

import re

from .common import LEAVE_REASONS, Cell, Leave
from .errors import InvalidAction, brief

CELL = r"[a-z](?:0|[1-9][0-9]?)"  # a regex piece: column letter, row without leading zero
_CELL = re.compile(r"([a-z])(0|[1-9][0-9]?)")
_LEAVE = re.compile(r"(resign|timeout|removed):([0-9])")


def format_cell(cell: Cell) -> str:
    """``(2, 5)`` -> ``"f2"``."""
    return f"{chr(ord('a') + cell[1])}{cell[0]}"


def cell_from_name(name: str) -> Cell:
    """``"f2"`` -> ``(2, 5)``; raises ``InvalidAction`` (range checks are the kind's)."""
    m = _CELL.fullmatch(name)
    if m is None:
        raise InvalidAction(f"bad cell name {brief(name)}")
    return (int(m.group(2)), ord(m.group(1)) - ord("a"))


def format_leave(event: Leave) -> str:
    """``Leave(2, "timeout")`` -> ``"timeout:2"``."""
    return f"{event.why}:{event.seat}"


def leave_from_token(token: str, seats: int) -> Leave | None:
    """The leave event a token names, None if it names none; a seat out of range raises."""
    m = _LEAVE.fullmatch(token)
    if m is None or m.group(1) not in LEAVE_REASONS:
        return None
    seat = int(m.group(2))
    if seat >= seats:
        raise InvalidAction(f"seat {seat} does not exist")
    return Leave(seat, m.group(1))


def token_of(text: object) -> str:
    """One notation token from untrusted input, stripped; raises ``InvalidAction``."""
    if not isinstance(text, str):
        raise InvalidAction(f"notation must be a string, not {brief(text)}")
    return text.strip()
