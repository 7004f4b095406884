"""Compact text notation of Blokus events and whole games.

Grammar (coordinates are the JSON ones; ``a`` is column 0, the number is the row)::

    game    := event (" " event)*
    event   := place | "pass" | leave
    place   := piece "/" orient "@" col row    e.g. "L5/0@a0"
    piece   := "I1" | "I2" | ... | "Z5"          (docs/rules.md#blokus, exact case)
    orient  := "0" .. "7"                       index into the piece's fixed orientations
    col     := "a" .. "t"                       (Duo: "a" .. "n")
    row     := "0" | "1" .. "19"                (no leading zero)
    leave   := ("resign" | "timeout" | "removed") ":" seat     e.g. "resign:1"

``row col`` is the anchor: the top-left corner of the oriented piece's bounding box
(that square itself may be empty, as in F). Orientation 0 is the rules' drawing; the
order of the rest is fixed in pieces.py. "L5/0@a0" = L5 on [0,0],[1,0],[1,1],[1,2],[1,3].
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import InvalidAction, brief
from ..notation import format_shared, parse_token
from .actions import Event, Place
from .pieces import INDEX, ORIENTATIONS

if TYPE_CHECKING:
    from .rules import BlokusRules

_PLACE = re.compile(r"([A-Z][1-5]?)/([0-7])@([a-z])(0|[1-9][0-9]?)")


def format_event(rules: BlokusRules, event: Event) -> str:
    """One event as a token without spaces."""
    if isinstance(event, Place):
        pid = rules._pid_of(event)
        if pid is None:
            raise InvalidAction(f"not a placement of {brief(event.piece)} on this board")
        tables = rules.geo.tables
        r, c = tables.anchor_of[pid]
        return f"{event.piece}/{tables.orient_of[pid]}@{chr(ord('a') + c)}{r}"
    return format_shared(event)


def parse_event(rules: BlokusRules, text: object) -> Event:
    """Parse one token; the placement must fit on the board (legality comes later)."""
    return parse_token(text, rules.seats, lambda token: _place(rules, token))


def _place(rules: BlokusRules, token: str) -> Place:
    m = _PLACE.fullmatch(token)
    if not m:
        raise InvalidAction(f"bad notation {brief(token)}")
    name, orient, col, row = m.groups()
    p = INDEX.get(name)
    if p is None:
        raise InvalidAction(f"unknown piece {brief(name)}")
    shapes = ORIENTATIONS[p]
    o = int(orient)
    if o >= len(shapes):
        raise InvalidAction(f"{name} has orientations 0..{len(shapes) - 1}, not {o}")
    r0, c0 = int(row), ord(col) - ord("a")
    size = rules.geo.size
    cells = tuple((r0 + r, c0 + c) for r, c in shapes[o])
    if any(r >= size or c >= size for r, c in cells):
        raise InvalidAction(f"{token} does not fit on the {size}x{size} board")
    return Place(name, cells)
