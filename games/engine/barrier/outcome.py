"""How games end: shortest paths (pawns ignored), results and competition rankings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import standings
from .geometry import bfs_path
from .state import Result, State

if TYPE_CHECKING:
    from .rules import BarrierRules


def _distance(rules: BarrierRules, state: State, seat: int) -> int | None:
    found = shortest_path(rules, state, seat)
    return None if found is None else found[0]


def shortest_path(
    rules: BarrierRules, state: State, seat: int
) -> tuple[int, list[tuple[int, int]]] | None:
    """Length and one shortest path (cells from the pawn into the goal), pawns ignored."""
    pawn = state.pawns[seat]
    if pawn is None:
        return None
    g = rules.geometry
    i = g.index[pawn]
    if (g.goal[seat] >> i) & 1:
        return 0, [pawn]
    od, ou, orr, ol = rules._open(state)
    path = bfs_path(i, g.target[seat], od, ou, orr, ol, g.stride)
    if path is None:
        return None
    cells = [g.cell[j] for j in path]
    if g.extra_step:
        spec = g.seats[seat]
        r, c = cells[-1]
        cells.append((spec.line, c) if spec.axis == 0 else (r, spec.line))
    return len(cells) - 1, cells


def result(rules: BarrierRules, state: State) -> Result | None:
    """None while the game runs; else winner, competition ranking and reason."""
    if state.turn is not None:
        return None
    cached = state.cache.get("result")
    if cached is not None:
        return cached
    g = rules.geometry
    playing = [s for s in range(rules.seats) if state.in_game[s]]
    winner: int | None = None
    for s in playing:
        pawn = state.pawns[s]
        if pawn is not None and (g.goal[s] >> g.index[pawn]) & 1:
            winner, reason = s, "goal"
    if winner is None:
        if len(playing) == 1:
            winner, reason = playing[0], "last_standing"
        elif state.ply >= rules.max_plies:
            reason = "move_limit"
        else:
            reason = "stalemate"
    # the winner first, then the others by distance to their goals (none: last of them)
    far = 10**6
    keys = {
        s: -1 if s == winner else d if (d := _distance(rules, state, s)) is not None else far
        for s in playing
    }
    result = Result(winner, standings(rules.seats, keys, state.left_order), reason)
    state.cache["result"] = result
    return result
