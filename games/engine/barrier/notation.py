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

from ..errors import InvalidAction, brief
from ..notation import CELL, cell_from_name, format_cell, format_shared, parse_token
from .actions import Barrier, Event, Move

_TOKEN = re.compile(f"({CELL})([hv]?)")


def format_event(event: Event) -> str:
    """One event as a token without spaces."""
    if isinstance(event, Move):
        return format_cell(event.to)
    if isinstance(event, Barrier):
        return format_cell(event.at) + event.orientation.lower()
    return format_shared(event)


def parse_event(text: object, seats: int) -> Event:
    """Parse one token; coordinates are range-checked later by the kind's rules."""
    return parse_token(text, seats, _move_or_barrier)


def _move_or_barrier(token: str) -> Move | Barrier:
    m = _TOKEN.fullmatch(token)
    if m is None:
        raise InvalidAction(f"bad notation {brief(token)}")
    cell, orientation = cell_from_name(m.group(1)), m.group(2)
    if orientation:
        return Barrier(cell, "H" if orientation == "h" else "V")
    return Move(cell)
