"""The race tables of the barrier family's bots: each seat's shortest-path distance to its
goal (pawns ignored), per position and per cell, cached by the barriers alone, and who
wins a pawn race nobody blocks. Read by the evaluators (bot_eval) and the levels (bot)."""

from __future__ import annotations

from typing import Any

from .geometry import Geometry

FAR = 99  # distance of a seat with no path (cannot happen in a legal position)


def barrier_key(rules: Any, state: Any) -> tuple[int, int, int, int]:
    return rules._open(state)  # the engine's cached open-edge masks of this position


def distance(rules: Any, state: Any, seat: int) -> int:
    """Steps from ``seat``'s pawn to its goal, pawns ignored (``FAR`` if none)."""
    pawn = state.pawns[seat]
    if pawn is None:
        return FAR
    g: Geometry = rules.geometry
    i = g.index[pawn]
    if (g.goal[seat] >> i) & 1:
        return 0
    od, ou, orr, ol = barrier_key(rules, state)
    s, target = g.stride, g.target[seat]
    front = reach = 1 << i
    d = 0
    while not front & target:
        nxt = ((front & od) << s) | ((front & ou) >> s) | ((front & orr) << 1) | ((front & ol) >> 1)
        front = nxt & ~reach
        if not front:
            return FAR
        reach |= front
        d += 1
    return d + g.extra_step


def distance_layers(rules: Any, state: Any, seat: int) -> list[int]:
    """Cells by distance to ``seat``'s goal (backward BFS): ``layers[k]`` are k away
    from the target cells (plus ``extra_step``)."""
    g: Geometry = rules.geometry
    od, ou, orr, ol = barrier_key(rules, state)
    s = g.stride
    front = reach = g.target[seat]
    layers = [front]
    while front:
        nxt = ((front & od) << s) | ((front & ou) >> s) | ((front & orr) << 1) | ((front & ol) >> 1)
        front = nxt & ~reach
        reach |= front
        if front:
            layers.append(front)
    return layers


def cell_distance(rules: Any, layers: list[int], seat: int, cell: int) -> int:
    g: Geometry = rules.geometry
    if (g.goal[seat] >> cell) & 1:
        return 0
    bit = 1 << cell
    for k, layer in enumerate(layers):
        if layer & bit:
            return k + g.extra_step
    return FAR


_DISTANCES: dict[tuple[int, int, int, int], dict[int, int]] = {}  # see ``goal_distances``
DISTANCES_KEPT = 4096  # positions' tables kept (a pure function of the barriers: no state)


def goal_distances(rules: Any, state: Any, seat: int) -> dict[int, int]:
    """Every cell from which ``seat`` can reach its goal, and its distance (as
    ``cell_distance``: goal cells 0, else the layer plus ``extra_step``). Memoised by
    the barriers (a race plan asks for the same tables hundreds of times)."""
    key = (id(rules.geometry), state.down, state.right, seat)
    known = _DISTANCES.get(key)
    if known is None:
        if len(_DISTANCES) >= DISTANCES_KEPT:
            _DISTANCES.clear()
        known = _DISTANCES[key] = _table(rules, state, seat)
    return known


def _table(rules: Any, state: Any, seat: int) -> dict[int, int]:
    g: Geometry = rules.geometry
    out: dict[int, int] = {}
    goal = g.goal[seat]
    while goal:
        low = goal & -goal
        out[low.bit_length() - 1] = 0
        goal ^= low
    for k, layer in enumerate(distance_layers(rules, state, seat)):
        while layer:
            low = layer & -layer
            cell = low.bit_length() - 1
            out.setdefault(cell, k + g.extra_step)
            layer ^= low
    return out


def race(rules: Any, state: Any, me: int | None = None, limit: int = 160) -> tuple[int | None, int]:
    """The pawn race played out, barriers untouched: every seat in turn steps (or jumps)
    to its reachable cell nearest its goal (lowest cell on ties), so the pawns meeting
    in the middle count. Returns (winner or None, steps ``me`` still has to go when the
    race ends: 0 if ``me`` wins, ``FAR`` if nobody arrives within ``limit`` plies)."""
    g: Geometry = rules.geometry
    if state.turn is None:
        result = rules.result(state)
        winner = None if result is None else result.winner
        return winner, 0 if winner == me else FAR
    playing = [s for s in range(rules.seats) if state.in_game[s] and state.pawns[s] is not None]
    start = playing.index(state.turn)
    order = playing[start:] + playing[:start]
    dist = {s: goal_distances(rules, state, s) for s in order}
    pos = {s: g.index[state.pawns[s]] for s in order}
    occupied = 0
    for cell in pos.values():
        occupied |= 1 << cell
    down, right = state.down, state.right
    idle = 0
    for ply in range(limit):
        seat = order[ply % len(order)]
        cells = g.pawn_moves(pos[seat], occupied, down, right, g.enterable[seat])
        if not cells:
            idle += 1
            if idle >= len(order):
                break
            continue
        idle = 0
        table = dist[seat]
        best = min(cells, key=lambda c: (table.get(c, FAR), c))
        occupied ^= (1 << pos[seat]) | (1 << best)
        pos[seat] = best
        if (g.goal[seat] >> best) & 1:
            if me is None:
                return seat, 0
            return seat, dist[me].get(pos[me], FAR) if me in pos else FAR
    return None, FAR
