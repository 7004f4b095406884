"""Action and event value objects, and the strict parser for untrusted action JSON.

Actions are small frozen dataclasses (hashable, comparable) like python-chess's ``Move``;
``Leave`` is the server-written event for a seat that resigns, times out or is removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .errors import InvalidAction, brief

Cell = tuple[int, int]
Orientation = Literal["H", "V"]
LEAVE_REASONS = ("resign", "timeout", "removed")


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


@dataclass(frozen=True, slots=True)
class Pass:
    """The only action of a seat that has nothing else to do (recorded by the server)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Leave:
    """A seat leaves the game (resign, timeout or moderator removal); not a client action."""

    seat: int
    why: str = "resign"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.why, "seat": self.seat}


Action = Move | Barrier | Pass
Event = Move | Barrier | Pass | Leave
PASS = Pass()


@dataclass(frozen=True, slots=True)
class Legality:
    """Answer of ``Rules.is_legal``: truthy iff legal; ``reason`` says why not."""

    ok: bool
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.ok


LEGAL = Legality(True)


def _int(value: object, what: str) -> int:
    # bool is a subclass of int, but JSON true is not a number here.
    if type(value) is not int:
        raise InvalidAction(f"{what} must be an integer, not {brief(value)}")
    return value


def parse_cell(value: object, what: str, lo: int, hi: int) -> Cell:
    """Parse ``[r, c]`` with both coordinates in ``lo..hi`` (inclusive)."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise InvalidAction(f"{what} must be a list [row, col], not {brief(value)}")
    r = _int(value[0], f"{what} row")
    c = _int(value[1], f"{what} col")
    if not (lo <= r <= hi and lo <= c <= hi):
        raise InvalidAction(f"{what} [{brief(r)},{brief(c)}] is out of range {lo}..{hi}")
    return (r, c)


_KEYS = {"move": {"type", "to"}, "barrier": {"type", "at", "orientation"}, "pass": {"type"}}


def parse_barrier_action(obj: object, grid: int, anchor_lo: int, anchor_hi: int) -> Action:
    """Parse a barrier-game action; raises ``InvalidAction`` for anything else.

    ``grid`` bounds move targets (0..grid-1); anchors must lie in ``anchor_lo..anchor_hi``.
    """
    if not isinstance(obj, dict):
        raise InvalidAction(f"an action must be a JSON object, not {brief(obj)}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise InvalidAction(f"action 'type' must be a string, not {brief(kind)}")
    keys = _KEYS.get(kind)
    if keys is None:
        raise InvalidAction(f"unknown action type {brief(kind)}")
    extra = [k for k in obj if k not in keys]
    if extra:
        raise InvalidAction(f"unknown key {brief(extra[0])} in a {kind} action")
    missing = sorted(keys.difference(obj))
    if missing:
        raise InvalidAction(f"a {kind} action needs {missing[0]!r}")
    if kind == "move":
        return Move(parse_cell(obj["to"], "'to'", 0, grid - 1))
    if kind == "pass":
        return PASS
    orientation = obj["orientation"]
    if orientation != "H" and orientation != "V":
        raise InvalidAction(f"orientation must be 'H' or 'V', not {brief(orientation)}")
    at = parse_cell(obj["at"], "'at'", anchor_lo, anchor_hi)
    return Barrier(at, "H" if orientation == "H" else "V")


def parse_leave(obj: object, seats: int) -> Leave:
    """Parse a server event ``{"type": "resign"|"timeout"|"removed", "seat": s}``."""
    if not isinstance(obj, dict) or set(obj) != {"type", "seat"}:
        raise InvalidAction(f"a leave event is {{type, seat}}, not {brief(obj)}")
    why = obj["type"]
    if why not in LEAVE_REASONS:
        raise InvalidAction(f"unknown leave reason {brief(why)}")
    seat = _int(obj["seat"], "seat")
    if not 0 <= seat < seats:
        raise InvalidAction(f"seat {seat} does not exist")
    return Leave(seat, str(why))
