"""Action and event value objects, and the strict parser for untrusted action JSON.

Actions are small frozen dataclasses (hashable, comparable) like python-chess's ``Move``;
``Leave`` is the server-written event for a seat that resigns, times out or is removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..common import (
    LEGAL,
    PASS,
    Cell,
    Leave,
    Legality,
    Pass,
    parse_cell,
    parse_object,
)
from ..errors import InvalidAction, brief

Orientation = Literal["H", "V"]


@dataclass(frozen=True, slots=True)
class Move:
    """Move the pawn of the seat to move to ``to`` (a step or a jump)."""

    to: Cell

    def to_json(self) -> dict[str, Any]:
        return {"type": "move", "to": [self.to[0], self.to[1]]}


@dataclass(frozen=True, slots=True)
class Barrier:
    """Place a 2-long barrier whose 2x2 block has ``at`` as its top-left cell."""

    at: Cell
    orientation: Orientation

    def to_json(self) -> dict[str, Any]:
        return {"type": "barrier", "at": [self.at[0], self.at[1]], "orientation": self.orientation}


Action = Move | Barrier | Pass
Event = Move | Barrier | Pass | Leave


_KEYS = {"move": {"type", "to"}, "barrier": {"type", "at", "orientation"}, "pass": {"type"}}


def parse_barrier_action(obj: object, grid: int, anchor_lo: int, anchor_hi: int) -> Action:
    """Parse a barrier-game action; raises ``InvalidAction`` for anything else.

    ``grid`` bounds move targets (0..grid-1); anchors must lie in ``anchor_lo..anchor_hi``.
    """
    kind, obj = parse_object(obj, _KEYS)
    if kind == "move":
        return Move(parse_cell(obj["to"], "'to'", 0, grid - 1))
    if kind == "pass":
        return PASS
    orientation = obj["orientation"]
    if orientation != "H" and orientation != "V":
        raise InvalidAction(f"orientation must be 'H' or 'V', not {brief(orientation)}")
    at = parse_cell(obj["at"], "'at'", anchor_lo, anchor_hi)
    return Barrier(at, "H" if orientation == "H" else "V")


__all__ = [
    "LEGAL",
    "PASS",
    "Action",
    "Barrier",
    "Cell",
    "Event",
    "Leave",
    "Legality",
    "Move",
    "Orientation",
    "Pass",
    "parse_barrier_action",
    "parse_cell",
]
