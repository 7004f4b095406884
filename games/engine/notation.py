"""Text pieces every family shares: cell names, pass and leave events, game lines, and
the status lines under a board picture.

A cell is named by its column letter (``a`` = column 0) then its row number (0 at the
top), so ``[2, 5]`` is ``f2``: the JSON coordinates, never renumbered, so text and JSON
never disagree. A leave event is ``resign:2``, ``timeout:0`` or ``removed:1``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .common import LEAVE_REASONS, PASS, Cell, Leave, Pass
from .errors import InvalidAction, brief

T = TypeVar("T")

CELL = r"[a-z](?:0|[1-9][0-9]?)"  # a regex piece: column letter, row without leading zero
_CELL = re.compile(r"([a-z])(0|[1-9][0-9]?)")
_LEAVE = re.compile(r"(resign|timeout|removed):(0|[1-9][0-9]?)")


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


def format_shared(event: object) -> str:
    """The token of a pass (``pass``) or a leave (``resign:2``), the events every family
    has; a family's ``format_action`` ends with it. Anything else is ``InvalidAction``."""
    if isinstance(event, Pass):
        return "pass"
    if isinstance(event, Leave):
        return format_leave(event)
    raise InvalidAction(f"not an event: {brief(event)}")


def status_lines(
    rules: Any, state: Any, marks: Sequence[str], mover: int, note: str = ""
) -> list[str]:
    """What a picture ends with: who left, then who is to move (``mover``, and ``note``)
    or how the game ended; each seat named with its mark, ``seat 2 (G)``."""

    def name(seat: int) -> str:
        return f"seat {seat} ({marks[seat]})"

    lines = []
    if state.left_order:
        lines.append("left the game: " + ", ".join(name(s) for s in state.left_order))
    result = rules.result(state)
    if result is None:
        lines.append(f"to move: {name(mover)}{note}")
    else:
        who = "no winner" if result.winner is None else f"winner {name(result.winner)}"
        lines.append(f"game over ({result.reason}): {who}; ranking {list(result.ranking)}")
    return lines


def leave_from_token(token: str, seats: int) -> Leave | None:
    """The leave event a token names, None if it names none; a seat out of range raises."""
    m = _LEAVE.fullmatch(token)
    if m is None or m.group(1) not in LEAVE_REASONS:
        return None
    seat = int(m.group(2))
    if seat >= seats:
        raise InvalidAction(f"seat {seat} does not exist")
    return Leave(seat, m.group(1))


def parse_token(text: object, seats: int, own: Callable[[str], T]) -> T | Pass | Leave:
    """One event's token from untrusted input: a pass, a leave, or what ``own`` (the
    family's reader of its action tokens) makes of it; raises ``InvalidAction``."""
    token = token_of(text)
    if token == "pass":
        return PASS
    leave = leave_from_token(token, seats)
    return own(token) if leave is None else leave


def token_of(text: object) -> str:
    """One notation token from untrusted input, stripped; raises ``InvalidAction``."""
    if not isinstance(text, str):
        raise InvalidAction(f"notation must be a string, not {brief(text)}")
    return text.strip()
