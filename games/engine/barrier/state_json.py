"""Strict reading of state JSON: anything malformed or impossible is ``InvalidState``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import state_cell, state_frame
from ..common import state_int as _int
from ..common import state_list as _list
from ..errors import InvalidState, brief
from .geometry import bfs_path
from .state import PlacedBarrier, State

if TYPE_CHECKING:
    from .rules import BarrierRules

KEYS = ("turn", "pawns", "barriers", "barriers_left", "in_game", "ply", "left_order")


def _cell(value: object, what: str, grid: int) -> tuple[int, int]:
    return state_cell(value, what, grid, grid)


def state_from_json(rules: BarrierRules, obj: object) -> State:
    """Validate ``obj`` field by field, then as a position; build the state."""
    g, n = rules.geometry, rules.seats
    obj, turn, in_game, ply, left_order = state_frame(obj, KEYS, n, rules.max_plies)
    pawns: list[tuple[int, int] | None] = []
    for seat, raw in enumerate(_list(obj["pawns"], "pawns", n)):
        if raw is None:
            if in_game[seat]:
                raise InvalidState(f"seat {seat} is in the game but has no pawn")
            pawns.append(None)
            continue
        if not in_game[seat]:
            raise InvalidState(f"seat {seat} left the game but still has a pawn")
        cell = _cell(raw, f"pawn of seat {seat}", g.grid)
        if not (g.enterable[seat] >> g.index[cell]) & 1:
            raise InvalidState(f"pawn of seat {seat} stands on a forbidden cell {list(cell)}")
        if cell in pawns:
            raise InvalidState(f"two pawns on {list(cell)}")
        pawns.append(cell)
    barriers_left = tuple(
        _int(v, "barriers_left item", 0, rules.barriers_each)
        for v in _list(obj["barriers_left"], "barriers_left", n)
    )
    placed: list[PlacedBarrier] = []
    for raw in _list(obj["barriers"], "barriers"):
        if not isinstance(raw, dict) or set(raw) != {"at", "orientation", "seat"}:
            raise InvalidState(f"a barrier is {{at, orientation, seat}}, not {brief(raw)}")
        at = _cell(raw["at"], "barrier 'at'", g.grid)
        orientation = raw["orientation"]
        if orientation != "H" and orientation != "V":
            raise InvalidState(f"barrier orientation must be 'H' or 'V', not {brief(orientation)}")
        seat = _int(raw["seat"], "barrier seat", 0, n - 1)
        if g.anchor_of(at) is None:
            raise InvalidState(f"barrier anchor {list(at)} is out of range")
        placed.append(PlacedBarrier(at, "H" if orientation == "H" else "V", seat))
    for seat in range(n):
        used = sum(1 for b in placed if b.seat == seat)
        if used + barriers_left[seat] != rules.barriers_each:
            raise InvalidState(
                f"seat {seat}: {used} barriers placed + {barriers_left[seat]} left "
                f"!= {rules.barriers_each}"
            )
    if ply < len(placed) + len(left_order):
        raise InvalidState("ply is smaller than the events the state records")
    _check_placement(rules, placed)
    state = rules.build(
        turn=turn,
        pawns=tuple(pawns),
        barriers=tuple(placed),
        barriers_left=barriers_left,
        in_game=in_game,
        ply=ply,
        left_order=left_order,
    )
    _check_position(rules, state)
    return state


def _check_placement(rules: BarrierRules, placed: list[PlacedBarrier]) -> None:
    """Refuse overlapping or crossing barriers (the placement rules, in any order)."""
    g = rules.geometry
    hw = vw = 0
    for b in placed:
        k = g.anchor_of(b.at)
        assert k is not None
        bh, bv = g.conflicts(hw, vw)
        if b.orientation == "H":
            if (bh >> k) & 1:
                raise InvalidState(f"barrier H at {list(b.at)} overlaps or crosses another")
            hw |= 1 << k
        else:
            if (bv >> k) & 1:
                raise InvalidState(f"barrier V at {list(b.at)} overlaps or crosses another")
            vw |= 1 << k


def _check_position(rules: BarrierRules, state: State) -> None:
    """Paths for every seat in the game, and a ``turn`` consistent with the game's end."""
    g = rules.geometry
    od, ou, orr, ol = g.open_masks(state.down, state.right)
    winners = []
    for seat, pawn in enumerate(state.pawns):
        if pawn is None:
            continue
        i = g.index[pawn]
        if (g.goal[seat] >> i) & 1:
            winners.append(seat)
            continue
        if bfs_path(i, g.target[seat], od, ou, orr, ol, g.stride) is None:
            raise InvalidState(f"seat {seat} has no path to its goal")
    if len(winners) > 1:
        raise InvalidState("more than one pawn stands in its goal")
    playing = sum(state.in_game)
    if playing == 0:
        raise InvalidState("no seat is in the game")
    ended = bool(winners) or playing == 1 or state.ply >= rules.max_plies
    if state.turn is None:
        if not ended and any(
            rules._has_action(state, s) for s in range(rules.seats) if state.in_game[s]
        ):
            raise InvalidState("turn is null but the game is not over")
    else:
        if ended:
            raise InvalidState("the game is over, so turn must be null")
        if not state.in_game[state.turn]:
            raise InvalidState(f"turn is seat {state.turn}, which left the game")
        if not any(rules._has_action(state, s) for s in range(rules.seats) if state.in_game[s]):
            raise InvalidState("no seat has a legal action, so the game is over (stalemate)")
