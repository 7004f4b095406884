"""Compact text notation of actions and whole games.

Grammar (coordinates are the JSON ones; ``a`` is column 0, the number is the row)::

    game    := event (" " event)*
    event   := move | barrier | "pass" | leave
    move    := col row                      e.g. "f2"   = {"type": "move", "to": [2, 5]}
    barrier := col row ("h" | "v")          e.g. "d3h"  = barrier at [3, 3], orientation H
    leave   := ("resign" | "timeout" | "removed") ":" seat      e.g. "resign:2"
    col     := "a" .. "k"
    row     := "0" | "1" .. "99" (no leading zero)
"""

from __future__ import annotations

import re

from .actions import LEAVE_REASONS, PASS, Barrier, Event, Leave, Move, Pass
from .errors import InvalidAction, brief

_CELL = re.compile(r"([a-z])(0|[1-9][0-9]?)([hv]?)")
_LEAVE = re.compile(r"(resign|timeout|removed):([0-9])")


def format_cell(cell: tuple[int, int]) -> str:
    return f"{chr(ord('a') + cell[1])}{cell[0]}"


def format_event(event: Event) -> str:
    """One event as a token without spaces."""
    if isinstance(event, Move):
        return format_cell(event.to)
    if isinstance(event, Barrier):
        return format_cell(event.at) + event.orientation.lower()
    if isinstance(event, Pass):
        return "pass"
    if isinstance(event, Leave):
        return f"{event.why}:{event.seat}"
    raise InvalidAction(f"not an event: {brief(event)}")


def parse_event(text: object, seats: int) -> Event:
    """Parse one token; coordinates are range-checked later by the kind's rules."""
    if not isinstance(text, str):
        raise InvalidAction(f"notation must be a string, not {brief(text)}")
    token = text.strip()
    if token == "pass":
        return PASS
    m = _CELL.fullmatch(token)
    if m:
        col, row, orientation = m.groups()
        cell = (int(row), ord(col) - ord("a"))
        if orientation:
            return Barrier(cell, "H" if orientation == "h" else "V")
        return Move(cell)
    m = _LEAVE.fullmatch(token)
    if m and m.group(1) in LEAVE_REASONS:
        seat = int(m.group(2))
        if seat >= seats:
            raise InvalidAction(f"seat {seat} does not exist")
        return Leave(seat, m.group(1))
    raise InvalidAction(f"bad notation {brief(token)}")
