"""Values every family shares: pass and leave events, legality answers, results, and
the strict helpers that parse untrusted JSON (booleans are not numbers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction, InvalidAction, InvalidState, brief

Cell = tuple[int, int]
LEAVE_REASONS = ("resign", "timeout", "removed")


class TurnState:
    """Base of every kind's state (a frozen dataclass with a ``turn`` field)."""

    __slots__ = ()
    turn: int | None

    @property
    def is_over(self) -> bool:
        """Nobody is to move: the game is over."""
        return self.turn is None


@dataclass(frozen=True, slots=True)
class Pass:
    """The only action of a seat that has nothing else to do (recorded by the server)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}


PASS = Pass()


@dataclass(frozen=True, slots=True)
class Leave:
    """A seat leaves the game (resign, timeout or moderator removal); not a client action."""

    seat: int
    why: str = "resign"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.why, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Legality:
    """Answer of ``Rules.is_legal``: truthy iff legal; ``reason`` says why not."""

    ok: bool
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.ok


LEGAL = Legality(True)


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended; ``ranking[s]`` is seat s's rank (competition style).

    ``scores`` (per seat) only in kinds that score, such as Blokus.
    """

    winner: int | None
    ranking: tuple[int, ...]
    reason: str  # goal | last_standing | blocked | move_limit | stalemate | score
    scores: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winner": self.winner,
            "ranking": list(self.ranking),
            "reason": self.reason,
        }
        if self.scores is not None:
            out["scores"] = list(self.scores)
        return out


def competition_ranks(keys: dict[int, Any], first: int = 1) -> dict[int, int]:
    """Competition ranks (1, 2, 2, 4) from ``first`` for seats by ascending ``keys``."""
    return {s: first + sum(1 for t in keys if keys[t] < keys[s]) for s in keys}


def standings(seats: int, keys: dict[int, Any], left_order: tuple[int, ...]) -> tuple[int, ...]:
    """A finished game's ranking (docs/rules.md#ranking): the seats still in the game by
    ascending ``keys`` (competition ranks from 1), then those that left, latest first."""
    ranking = [0] * seats
    for s, rank in competition_ranks(keys).items():
        ranking[s] = rank
    place = len(keys) + 1
    for s in reversed(left_order):
        ranking[s] = place
        place += 1
    return tuple(ranking)


def cells_json(cells: tuple[Cell | None, ...]) -> list[list[int] | None]:
    """Cells (None for a pawn gone) as JSON ``[row, col]`` lists."""
    return [None if c is None else [c[0], c[1]] for c in cells]


def state_json(state: Any, **fields: Any) -> dict[str, Any]:
    """A state's JSON (docs/api.md): ``turn``, the kind's own ``fields`` in their order,
    then the seats' bookkeeping every kind keeps (``in_game``, ``ply``, ``left_order``)."""
    return {
        "turn": state.turn,
        **fields,
        "in_game": list(state.in_game),
        "ply": state.ply,
        "left_order": list(state.left_order),
    }


def parse_int(value: object, what: str) -> int:
    """An int from JSON; ``True`` is refused although bool subclasses int."""
    if type(value) is not int:
        raise InvalidAction(f"{what} must be an integer, not {brief(value)}")
    return value


def parse_cell(value: object, what: str, lo: int, hi: int) -> Cell:
    """Parse ``[r, c]`` with both coordinates in ``lo..hi`` (inclusive)."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise InvalidAction(f"{what} must be a list [row, col], not {brief(value)}")
    r = parse_int(value[0], f"{what} row")
    c = parse_int(value[1], f"{what} col")
    if not (lo <= r <= hi and lo <= c <= hi):
        raise InvalidAction(f"{what} [{brief(r)},{brief(c)}] is out of range {lo}..{hi}")
    return (r, c)


def parse_object(obj: object, keys_by_type: dict[str, set[str]]) -> tuple[str, dict[str, Any]]:
    """Check an action object's ``type`` and exact key set; returns (type, object)."""
    if not isinstance(obj, dict):
        raise InvalidAction(f"an action must be a JSON object, not {brief(obj)}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise InvalidAction(f"action 'type' must be a string, not {brief(kind)}")
    keys = keys_by_type.get(kind)
    if keys is None:
        raise InvalidAction(f"unknown action type {brief(kind)}")
    extra = [k for k in obj if k not in keys]
    if extra:
        raise InvalidAction(f"unknown key {brief(extra[0])} in a {kind} action")
    missing = sorted(keys.difference(obj))
    if missing:
        raise InvalidAction(f"a {kind} action needs {missing[0]!r}")
    return kind, obj


def parse_leave(obj: object, seats: int) -> Leave:
    """Parse a server event ``{"type": "resign"|"timeout"|"removed", "seat": s}``."""
    if not isinstance(obj, dict) or set(obj) != {"type", "seat"}:
        raise InvalidAction(f"a leave event is {{type, seat}}, not {brief(obj)}")
    why = obj["type"]
    if why not in LEAVE_REASONS:
        raise InvalidAction(f"unknown leave reason {brief(why)}")
    seat = parse_int(obj["seat"], "seat")
    if not 0 <= seat < seats:
        raise InvalidAction(f"seat {seat} does not exist")
    return Leave(seat, str(why))


def check_leave(state: Any, seats: int, seat: object, why: str) -> int:
    """Validate a leave request against a running state; returns the seat."""
    if why not in LEAVE_REASONS:
        raise IllegalAction(f"unknown reason to leave {brief(why)}")
    if state.turn is None:
        raise IllegalAction("game is over")
    if type(seat) is not int or not 0 <= seat < seats:
        raise IllegalAction(f"no seat {brief(seat)}")
    if not state.in_game[seat]:
        raise IllegalAction(f"seat {seat} already left")
    return seat


def state_int(value: object, what: str, lo: int, hi: int) -> int:
    """An int field of state JSON in ``lo..hi``; raises ``InvalidState`` (bools refused)."""
    if type(value) is not int:
        raise InvalidState(f"{what} must be an integer, not {brief(value)}")
    if not lo <= value <= hi:
        raise InvalidState(f"{what} must be in {lo}..{hi}, not {brief(value)}")
    return value


def state_list(value: object, what: str, length: int | None = None) -> list[object]:
    """A list field of state JSON, of ``length`` items if given; raises ``InvalidState``."""
    if not isinstance(value, list):
        raise InvalidState(f"{what} must be a list, not {brief(value)}")
    if length is not None and len(value) != length:
        raise InvalidState(f"{what} must have {length} items, not {len(value)}")
    return value


def state_cell(value: object, what: str, rows: int, cols: int) -> Cell:
    """A ``[row, col]`` of state JSON on a ``rows`` x ``cols`` grid; raises ``InvalidState``."""
    items = state_list(value, what, 2)
    return (
        state_int(items[0], f"{what} row", 0, rows - 1),
        state_int(items[1], f"{what} col", 0, cols - 1),
    )


def state_keys(obj: object, keys: tuple[str, ...]) -> dict[str, Any]:
    """A state JSON object with exactly ``keys``; raises ``InvalidState``."""
    if not isinstance(obj, dict):
        raise InvalidState(f"a state must be a JSON object, not {brief(obj)}")
    for key in obj:
        if key not in keys:
            raise InvalidState(f"unknown state key {brief(key)}")
    for key in keys:
        if key not in obj:
            raise InvalidState(f"state needs {key!r}")
    return obj


def state_bools(value: object, what: str, length: int) -> tuple[bool, ...]:
    """A list of ``length`` booleans of state JSON; raises ``InvalidState``."""
    items = state_list(value, what, length)
    for v in items:
        if type(v) is not bool:
            raise InvalidState(f"{what} items must be true/false, not {brief(v)}")
    return tuple(bool(v) for v in items)


def state_frame(
    obj: object, keys: tuple[str, ...], seats: int, max_plies: int
) -> tuple[dict[str, Any], int | None, tuple[bool, ...], int, tuple[int, ...]]:
    """A state JSON object with exactly ``keys``, and the fields every kind has (the
    inverse of ``state_json``): ``turn``, ``in_game``, ``ply``, ``left_order``."""
    data = state_keys(obj, keys)
    in_game, left_order = state_seats(data["in_game"], data["left_order"], seats)
    ply = state_int(data["ply"], "ply", 0, max_plies)
    turn = None if data["turn"] is None else state_int(data["turn"], "turn", 0, seats - 1)
    return data, turn, in_game, ply, left_order


def state_seats(
    in_game: object, left_order: object, seats: int
) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """``in_game`` and ``left_order`` of state JSON, consistent with each other."""
    flags = state_bools(in_game, "in_game", seats)
    order = tuple(
        state_int(v, "left_order item", 0, seats - 1) for v in state_list(left_order, "left_order")
    )
    if len(set(order)) != len(order):
        raise InvalidState("left_order repeats a seat")
    if set(order) != {s for s in range(seats) if not flags[s]}:
        raise InvalidState("left_order must list exactly the seats not in the game")
    return flags, order
