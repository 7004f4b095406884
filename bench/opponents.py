"""Yardstick opponents for the bot ladder: NOT bot levels, and no code from games/bots.

The levels in ``games/bots`` are measured against each other and against these simple,
independently written players, so that a level is never only good at beating its own
relatives. Each sees only the engine (legal actions, apply, distances, the board's
public masks) and breaks ties with a seeded coin:

- ``racer`` (barrier kinds): one ply deep, it plays the legal action that maximizes the
  closest opponent's shortest path minus its own (pawns ignored), and places a barrier
  only when that gains at least one step more than its best pawn move.
- ``blocker`` (barrier kinds; issue #48's greedy player): one ply deep against the rival
  closest to winning (fewest steps, then the next to move after it), fixed before it
  moves: the step that most improves its own path against that rival's, or the barrier
  that lengthens that rival's path the most, placed only when it lengthens it by more
  than its best step shortens its own. Unlike ``racer``, the barrier is judged by that
  rival alone, not by whoever is closest once it is placed, so three blockers all wall
  off whoever leads.
- ``blokus_greedy``: the largest piece that fits, placed where its colour keeps the most
  free corners.
- ``blockade_greedy``: Blockade, the placement that leaves the opponent the fewest
  replies; Blockade Run, a winning step if any, else the step and block that maximize
  the opponent's distance minus its own.
- ``uniform`` (every kind): a legal action drawn uniformly at random, the round-robin
  ladder's anchor (rated 0 Elo): the one player whose strength needs no argument.

``play(name, rules, state, seed)`` is the one entry point the ladder calls.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine import PASS, Rules

FAR = 10_000  # a seat without a path (cannot happen in a legal barrier position)


def _pick(rng: random.Random, best: list[Any]) -> Any:
    return best[0] if len(best) == 1 else rng.choice(best)


def _argmax(items: list[Any], value: Callable[[Any], float]) -> list[Any]:
    """Every item of the highest value (in their order)."""
    best: list[Any] = []
    top = -float("inf")
    for item in items:
        v = value(item)
        if v > top:
            top, best = v, [item]
        elif v == top:
            best.append(item)
    return best


# -- barrier kinds ----------------------------------------------------------------------


def _dist(rules: Rules, state: Any, seat: int) -> int:
    d = rules.distance(state, seat)  # type: ignore[attr-defined]
    return FAR if d is None else d


def _race(rules: Rules, state: Any, me: int) -> float:
    """The closest opponent's shortest path minus mine (pawns ignored)."""
    if state.turn is None:
        result = rules.result(state)
        return FAR if result is not None and result.winner == me else -FAR
    others = [s for s in range(rules.seats) if s != me and state.in_game[s]]
    if not others:
        return FAR
    return min(_dist(rules, state, s) for s in others) - _dist(rules, state, me)


def racer(rules: Rules, state: Any, rng: random.Random) -> Any:
    """The greedy racer: the best pawn move by the race, unless a barrier beats it by a
    whole step or more."""
    me = state.turn
    legal = rules.legal_actions(state)
    if legal == [PASS]:
        return PASS
    moves = [a for a in legal if type(a).__name__ == "Move"]
    barriers = [a for a in legal if type(a).__name__ == "Barrier"]

    def value(action: Any) -> float:
        return _race(rules, rules.apply(state, action), me)

    best_moves = _argmax(moves, value) if moves else []
    move_value = value(best_moves[0]) if best_moves else -float("inf")
    if barriers:
        best_barriers = _argmax(barriers, value)
        if value(best_barriers[0]) >= move_value + 1:
            return _pick(rng, best_barriers)
    if best_moves:
        return _pick(rng, best_moves)
    return _pick(rng, _argmax(legal, value))


def blocker(rules: Rules, state: Any, rng: random.Random) -> Any:
    """The greedy blocker (issue #48): steps against the rival closest to winning, and
    walls that rival off whenever a barrier costs it more than a step gains us."""
    me = state.turn
    legal = rules.legal_actions(state)
    if legal == [PASS]:
        return PASS
    others = [s for s in range(rules.seats) if s != me and state.in_game[s]]
    order = {s: (s - me) % rules.seats for s in others}  # who moves sooner after us
    rival = min(others, key=lambda s: (_dist(rules, state, s), order[s]))
    mine, theirs = _dist(rules, state, me), _dist(rules, state, rival)

    def value(action: Any) -> float:
        after = rules.apply(state, action)
        if after.turn is None:
            return _race(rules, after, me)  # a win (or, never here, a loss)
        return _dist(rules, after, rival) - _dist(rules, after, me)

    moves = [a for a in legal if type(a).__name__ == "Move"]
    barriers = [a for a in legal if type(a).__name__ == "Barrier"]
    best_moves = _argmax(moves, value) if moves else []
    if best_moves and value(best_moves[0]) >= FAR:
        return _pick(rng, best_moves)  # the winning step
    gain = mine - _dist(rules, rules.apply(state, best_moves[0]), me) if best_moves else 0
    if barriers:
        best_barriers = _argmax(barriers, lambda a: _dist(rules, rules.apply(state, a), rival))
        longer = _dist(rules, rules.apply(state, best_barriers[0]), rival) - theirs
        if longer > gain or not best_moves:
            return _pick(rng, _argmax(best_barriers, value))
    if best_moves:
        return _pick(rng, best_moves)
    return _pick(rng, _argmax(legal, value))


# -- Blokus ---------------------------------------------------------------------------


def blokus_greedy(rules: Rules, state: Any, rng: random.Random) -> Any:
    """The largest piece that fits, where its colour keeps the most free corners."""
    legal = [a for a in rules.legal_actions(state) if a != PASS]
    if not legal:
        return PASS
    size = max(len(a.cells) for a in legal)
    biggest = [a for a in legal if len(a.cells) == size]
    geo = state.geo
    own = state.occ[state.colour]
    occupied = state.occupied

    def corners(action: Any) -> int:
        m = geo.mask(action.cells)
        mine = own | m
        return (geo.diagonals(mine) & ~(occupied | m | geo.edges(mine))).bit_count()

    return _pick(rng, _argmax(biggest, corners))


# -- Blockade, Blockade Run -----------------------------------------------------------


def blockade_greedy(rules: Rules, state: Any, rng: random.Random) -> Any:
    """Blockade: leave the opponent the fewest replies. Run: win now if possible, else
    maximize the opponent's steps to goal minus ours (blocks included)."""
    me = state.turn
    legal = rules.legal_actions(state)
    if legal == [PASS]:
        return PASS

    def value(action: Any) -> float:
        after = rules.apply(state, action)
        if after.turn is None:
            result = rules.result(after)
            return FAR if result is not None and result.winner == me else -FAR
        if hasattr(after, "pawns"):  # Blockade Run: the race
            return _run_distance(after, 1 - me) - _run_distance(after, me)
        return -len(rules.legal_actions(after))

    return _pick(rng, _argmax(legal, value))


def _run_distance(state: Any, seat: int) -> int:
    """Blockade Run: steps from ``seat``'s pawn to its goal row through free cells."""
    pawn = state.pawns[seat]
    if pawn is None:
        return FAR
    goal_row = 4 if seat == 0 else 0
    blocked = {divmod(i, 5) for i in range(25) if (state.blocked >> i) & 1}
    seen = {pawn}
    front = [pawn]
    d = 0
    while front:
        if any(r == goal_row for r, _ in front):
            return d
        nxt = []
        for r, c in front:
            for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= cell[0] < 5 and 0 <= cell[1] < 5 and cell not in seen | blocked:
                    seen.add(cell)
                    nxt.append(cell)
        front = nxt
        d += 1
    return FAR


# -- every kind ------------------------------------------------------------------------


def uniform(rules: Rules, state: Any, rng: random.Random) -> Any:
    """Any legal action, each as likely (a forced pass included)."""
    return rng.choice(rules.legal_actions(state))


# -- the ladder's entry point -----------------------------------------------------------

YARDSTICKS: dict[str, Callable[[Rules, Any, random.Random], Any]] = {
    "racer": racer,
    "blocker": blocker,
    "blokus_greedy": blokus_greedy,
    "blockade_greedy": blockade_greedy,
    "uniform": uniform,
}
FOR_FAMILY = {"barrier": "racer", "blokus": "blokus_greedy", "blockade": "blockade_greedy"}
# Every greedy yardstick of a family, for the round-robin ladder (``uniform`` is its anchor)
ALL_FOR_FAMILY = {
    "barrier": ("racer", "blocker"),
    "blokus": ("blokus_greedy",),
    "blockade": ("blockade_greedy",),
}


def play(name: str, rules: Rules, state: Any, seed: int) -> Any:
    """The action yardstick ``name`` plays for the seat to move (seeded ties)."""
    rng = random.Random(seed * 1_000_003 + state.ply)
    return YARDSTICKS[name](rules, state, rng)
