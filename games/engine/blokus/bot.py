"""Bots for the Blokus family (blokus, blokus2, blokus_duo).

Blokus is won by squares placed, and a colour can only keep placing from its corners
(attachment squares), so a placement is rated by its size, the new corners it opens,
the own corners it uses up, and the opponents' corners it takes; early on, reaching
toward the centre counts too. Every term is a few bitboard operations on the engine's
precomputed placement masks, which this family module reads directly.
"""

from __future__ import annotations

import math
import random
from functools import cache
from typing import Any

from games.bots.core import Budget, Choice, lookahead

from ..common import PASS
from ..protocol import Rules
from .geometry import Geometry
from .pieces import SIZES

# Medium's score per placement, by board size: (size, new corners, own corners used
# up, opponents' corners taken, reach toward the centre). On the 20x20 board big pieces
# and new corners count for more and spending own corners for less (medium v three easy
# went from 101 to 109 wins in 112 seeded games); on Duo's 14x14 those weights lost
# games to easy (13/16 against 15/16), so Duo keeps the first ones.
WEIGHTS: dict[int, tuple[float, float, float, float, float]] = {
    14: (3.0, 1.0, 0.5, 1.5, 1.0),
    20: (4.0, 1.5, 0.25, 1.5, 1.0),
}
EASY_POWER = 2  # easy tries pieces in a random order with odds ~ size ** EASY_POWER
OPENING = 5  # pieces per colour during which reaching the centre counts
# By board size: how many of medium's best placements hard looks ahead from (on the
# 20x20 board 32 instead of 16 took hard v three greedy from 54 % to 67 %, 24 games)
HARD_WIDTH = {14: 16, 20: 32}
NODES_PER_SECOND = {14: 400, 20: 300}  # by board size; a node is one policy move


@cache
def _tables(geo: Geometry) -> tuple[list[int], list[float]]:
    """Per placement: its size, and how close it reaches to the centre (0..1)."""
    t = geo.tables
    centre = (geo.size - 1) / 2
    sizes, reach = [], []
    for place, mask in zip(t.places, t.masks, strict=True):
        sizes.append(mask.bit_count())
        near = min(abs(r - centre) + abs(c - centre) for r, c in place.cells)
        reach.append(1.0 - near / (2 * centre))
    return sizes, reach


def attach(state: Any, colour: int) -> int:
    """Squares where ``colour`` could start its next piece (its free corners)."""
    geo: Geometry = state.geo
    own = state.occ[colour]
    occupied = state.occupied
    if not own:
        return geo.start_bits[colour] & ~occupied
    return geo.diagonals(own) & ~(occupied | geo.edges(own))


def _opponents(rules: Any, state: Any, colour: int) -> list[int]:
    seat = rules.colour_seats[colour]
    return [c for c in range(rules.ncolours) if rules.colour_seats[c] != seat]


def _pids(rules: Any, state: Any) -> list[int]:
    return rules._pids(state)  # the engine's cached legal placement ids


def scores(rules: Any, state: Any) -> list[tuple[float, int]]:
    """(score, pid) of every legal placement of the colour to move, best first."""
    colour = state.colour
    geo: Geometry = state.geo
    t = geo.tables
    sizes, reach = _tables(geo)
    own = state.occ[colour]
    mine = attach(state, colour)
    dead = state.occupied | geo.edges(own) | mine
    theirs = 0
    for c in _opponents(rules, state, colour):
        theirs |= attach(state, c)
    placed = 21 - state.hand[colour].bit_count()
    size_w, new_w, lost_w, taken_w, centre_w = WEIGHTS[geo.size]
    centre = centre_w * max(0, OPENING - placed) / OPENING
    masks, halos, corners = t.masks, t.halos, t.corners
    out = []
    for pid in _pids(rules, state):
        m = masks[pid]
        value = (
            size_w * sizes[pid]
            + new_w * (corners[pid] & ~dead).bit_count()
            - lost_w * (mine & halos[pid]).bit_count()
            + taken_w * (m & theirs).bit_count()
            + centre * reach[pid] * 5
        )
        out.append((value, pid))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def evaluate(rules: Any, state: Any, seat: int) -> float:
    """Squares placed plus a mobility bonus, own colours minus the others'."""
    geo: Geometry = state.geo
    total = 0.0
    occupied = state.occupied
    for c in range(rules.ncolours):
        placed = state.occ[c].bit_count()
        able = rules.able(c, state.hand, state.out, state.in_game)
        moves = (
            len(geo.generate(state.hand[c], state.occ[c], occupied, geo.start_bits[c]))
            if able
            else 0
        )
        value = placed + 3.0 * math.log2(1 + moves)
        total += value if rules.colour_seats[c] == seat else -value
    return total


# -- levels ---------------------------------------------------------------------------


def easy(rules: Rules, state: Any, rng: random.Random) -> Any:
    """A random placement, bigger pieces likelier: pieces in hand are tried in a random
    order weighted by size squared, each at its free corners in random order, and the
    first piece that fits is placed at random among its placements at that corner. It
    never lists every legal placement (tens of milliseconds on a 20x20 board)."""
    geo: Geometry = state.geo
    colour = state.colour
    own = state.occ[colour]
    hand = state.hand[colour]
    bad = state.occupied | (geo.edges(own) if own else 0)
    corners = attach(state, colour)
    cells = []
    while corners:
        low = corners & -corners
        cells.append(low.bit_length() - 1)
        corners ^= low
    rng.shuffle(cells)
    # weighted random order (Efraimidis-Spirakis keys): piece p first with odds ~ size^2
    pieces = sorted(
        (p for p in range(len(SIZES)) if (hand >> p) & 1),
        key=lambda p: -(rng.random() ** (1.0 / SIZES[p] ** EASY_POWER)),
    )
    by_cell = geo.tables.by_cell
    for p in pieces:
        for cell in cells:
            fits = [pid for m, pid in by_cell[cell][p] if not m & bad]
            if fits:
                return geo.tables.places[rng.choice(fits)]
    return PASS  # unreachable: think() answers a forced pass before asking easy


def medium(rules: Rules, state: Any, rng: random.Random) -> Any:
    """The best placement by the one-ply score (ties broken by ``rng``)."""
    ranked = scores(rules, state)
    top = ranked[0][0]
    ties = [pid for value, pid in ranked if value >= top - 1e-9]
    return state.geo.tables.places[ties[0] if len(ties) == 1 else rng.choice(ties)]


def _greedy(rules: Any, state: Any) -> Any:
    """Medium's choice without randomness, for simulated replies."""
    pids = _pids(rules, state)
    if not pids:
        return PASS
    return state.geo.tables.places[scores(rules, state)[0][1]]


def nodes_per_second(rules: Rules) -> int:
    return NODES_PER_SECOND.get(rules.info.rows, 40)


def hard(rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice:
    """A one-round lookahead: each of medium's best placements is followed by every
    other colour's greedy reply, then the position is evaluated (squares and mobility).
    A node is one move played."""
    seat = state.turn
    places = state.geo.tables.places
    candidates = [places[pid] for _, pid in scores(rules, state)[: HARD_WIDTH[state.geo.size]]]
    return lookahead(
        rules,
        state,
        seat,
        candidates,
        lambda s: _greedy(rules, s),
        lambda s: evaluate(rules, s, seat),
        budget,
    )


# -- hints ----------------------------------------------------------------------------


def explain(rules: Rules, state: Any, action: Any) -> str:
    """Why ``action`` is a good idea, in words, for the colour to move."""
    colour = state.colour
    if action == PASS:  # named, never "your": spectators read it too
        return f"passes: none of {rules.info.colours[colour].name}'s pieces fits any more"
    after = rules.apply(state, action)
    before = attach(state, colour)
    opened = (attach(after, colour) & ~before).bit_count()
    names = [c.name for c in rules.info.colours]
    size = len(action.cells)
    text = f"places a {size}-square piece and opens {opened} new corner" + (
        "" if opened == 1 else "s"
    )
    cells = state.geo.mask(action.cells)
    taken = [((cells & attach(state, c)).bit_count(), c) for c in _opponents(rules, state, colour)]
    most, whose = max(taken, default=(0, colour))
    if most > 0:
        text += f", taking {most} of {names[whose]}'s"
    return text
