"""The barrier family's evaluators: the candidate actions a bot considers (steps, and
barriers on the first edges of an opponent's shortest path) and how it scores a position
(medium's, and hard's with barriers kept for late blocks)."""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from typing import Any

from ..protocol import Rules
from .actions import Barrier, Move
from .bot_race import barrier_key, cell_distance, distance, distance_layers
from .geometry import Geometry, bfs_path

WALL_VALUE = 0.5  # steps a barrier in hand is worth: a block must gain more than this
THREAT_WALL_VALUE = -0.6  # the same while a near opponent wins the race: spend them on it
URGENT = 2  # steps from its goal at which an opponent winning the race must be blocked
HARD_WALL_VALUE = 1.5  # hard's leaves (2 seats): keep barriers to answer late blocks
HARD_WALLS_KEPT = 10  # ... for this many in hand; more (Bloqueio 2 has 12) count WALL_VALUE
REPLY_WIDTH = 2  # opponent replies hard's 2-seat search tries: medium's best by its score


@cache
def _blockers(geometry: Geometry) -> dict[tuple[int, bool], tuple[Barrier, ...]]:
    """For each edge (its lower cell's bit, vertical step?), the barriers that block it."""
    out: dict[tuple[int, bool], tuple[Barrier, ...]] = {}
    for (r, c), i in geometry.index.items():
        for vertical, anchors in ((True, ((r, c), (r, c - 1))), (False, ((r, c), (r - 1, c)))):
            found = []
            for at in anchors:
                k = geometry.anchor_of(at)
                if k is not None:
                    info = geometry.h_info[k] if vertical else geometry.v_info[k]
                    found.append(info.action)
            out[i, vertical] = tuple(found)
    return out


def path_barriers(rules: Any, state: Any, seat: int, edges: int | None) -> list[Barrier]:
    """Barriers that cut the first ``edges`` edges (all if None) of one shortest path."""
    pawn = state.pawns[seat]
    g: Geometry = rules.geometry
    if pawn is None:
        return []
    i = g.index[pawn]
    if (g.goal[seat] >> i) & 1:
        return []
    od, ou, orr, ol = barrier_key(rules, state)
    path = bfs_path(i, g.target[seat], od, ou, orr, ol, g.stride)
    if not path:
        return []
    table = _blockers(g)
    out: list[Barrier] = []
    for a, b in list(pairwise(path))[:edges]:
        for barrier in table[min(a, b), abs(a - b) == g.stride]:
            if barrier not in out:
                out.append(barrier)
    return out


def pawn_moves(rules: Any, state: Any, seat: int) -> list[Move]:
    """Pawn moves of the seat to move, nearest to its goal first."""
    g: Geometry = rules.geometry
    cells = rules._moves(state, seat)
    layers = distance_layers(rules, state, seat)
    ranked = sorted(cells, key=lambda c: (cell_distance(rules, layers, seat, c), c))
    return [g.moves[c] for c in ranked]


def legal_barriers(rules: Rules, state: Any, barriers: list[Barrier]) -> list[Barrier]:
    return [b for b in barriers if rules.is_legal(state, b)]


class BarrierEvaluator:
    """Race evaluation and bounded candidates for the generic search."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    def evaluate(
        self,
        state: Any,
        me: int,
        wall_value: float = WALL_VALUE,
        target: int | None = None,
    ) -> float:
        rules = self.rules
        playing = [s for s in range(rules.seats) if state.in_game[s]]
        n = len(playing)
        start = playing.index(state.turn) if state.turn in playing else 0
        order = playing[start:] + playing[:start]
        arrive = {s: distance(rules, state, s) + order.index(s) / n for s in playing}
        if state.turn in arrive:  # the seat to move: by its real moves, jumps included
            arrive[state.turn] = self.mover_distance(state)
        others = [s for s in playing if s != me]
        if not others or me not in arrive:
            return 0.0
        if target is not None and target in arrive:
            lead = arrive[target] - arrive[me]
        else:
            lead = min(arrive[o] for o in others) - arrive[me]
        walls = state.barriers_left[me] - sum(state.barriers_left[o] for o in others) / len(others)
        spread = sum(arrive[o] for o in others) / len(others) - arrive[me]
        return lead + 0.1 * spread + wall_value * walls

    def threat(self, state: Any, me: int) -> int | None:
        """With ``me`` to move: the opponent that would win a pure race against ``me``
        (the soonest to arrive), if it is within ``URGENT`` steps of its goal; else None."""
        rules = self.rules
        playing = [s for s in range(rules.seats) if state.in_game[s]]
        n = len(playing)
        start = playing.index(me)
        order = playing[start:] + playing[:start]
        mine = self.mover_distance(state)
        best: tuple[float, int] | None = None
        for s in order[1:]:
            d = distance(rules, state, s)
            arrive = d + order.index(s) / n
            if arrive <= mine and d <= URGENT and (best is None or arrive < best[0]):
                best = (arrive, s)
        return None if best is None else best[1]

    def mover_distance(self, state: Any) -> int:
        """Steps to goal of the seat to move counting its pawn's real moves: a jump over
        a pawn gains a step, a pawn in the way costs one (plain distance ignores pawns)."""
        rules = self.rules
        seat = state.turn
        cells = rules._moves(state, seat)
        if not cells:
            return distance(rules, state, seat) + 1
        layers = distance_layers(rules, state, seat)
        return 1 + min(cell_distance(rules, layers, seat, c) for c in cells)

    def candidates(self, state: Any, me: int, root: bool) -> list[Any]:
        rules = self.rules
        seat = state.turn
        if root:
            return self.ranked(state, me)
        moves: list[Any] = pawn_moves(rules, state, seat)
        if seat != me:
            moves = moves[:2]  # an opponent's sensible steps; paranoid blocks come below
        barriers: list[Barrier] = []
        if state.barriers_left[seat] > 0:
            target = me if seat != me else self.leader(state, me)
            if target is not None:
                barriers = legal_barriers(rules, state, path_barriers(rules, state, target, 3))
        out = moves + barriers
        if not out:
            out = rules.legal_actions(state)[:8]
        return out

    def leader(self, state: Any, me: int) -> int | None:
        """The opponent nearest to its goal (lowest seat on ties)."""
        others = [s for s in range(self.rules.seats) if s != me and state.in_game[s]]
        if not others:
            return None
        return min(others, key=lambda s: (distance(self.rules, state, s), s))

    def root_actions(self, state: Any) -> list[Any]:
        """Every pawn move plus the legal barriers on any opponent's shortest path."""
        rules = self.rules
        seat = state.turn
        actions: list[Any] = list(pawn_moves(rules, state, seat))
        if state.barriers_left[seat] > 0:
            found: list[Barrier] = []
            for other in range(rules.seats):
                if other != seat and state.in_game[other]:
                    path = path_barriers(rules, state, other, None)
                    found += [b for b in path if b not in found]
            actions += legal_barriers(rules, state, found)
        if not actions:
            actions = rules.legal_actions(state)
        return actions

    def stance(self, state: Any, me: int) -> tuple[float, int | None]:
        """Medium's race-aware weights with ``me`` to move: (value of a barrier in hand,
        the opponent to race against, None for the nearest). While an opponent close to
        its goal would win the pure race, barriers in hand are worth less than nothing
        and the race is measured against that opponent, so a barrier that slows it by a
        step beats a step of ours; otherwise barriers are kept unless they gain more
        than ``WALL_VALUE``."""
        leader = self.threat(state, me)
        return (WALL_VALUE, None) if leader is None else (THREAT_WALL_VALUE, leader)

    def ranked(self, state: Any, me: int) -> list[Any]:
        """Root actions ordered by medium's one-ply score (stable: moves before barriers)."""
        actions = self.root_actions(state)
        value, target = self.stance(state, me)
        scores = [position_score(self, self.rules.apply(state, a), me, value, target)
                  for a in actions]
        return [a for _, a in sorted(zip(scores, actions, strict=True), key=lambda x: -x[0])]


def _hard_walls(n: int) -> float:
    """What ``n`` barriers in hand are worth at hard's 2-seat leaves, in steps."""
    kept = min(n, HARD_WALLS_KEPT)
    return HARD_WALL_VALUE * kept + WALL_VALUE * (n - kept)


class HardEvaluator(BarrierEvaluator):
    """Hard's two-seat search: a barrier in hand is worth ``HARD_WALL_VALUE`` steps at
    the leaves, up to ``HARD_WALLS_KEPT`` of them (walls spent early leave nothing to
    answer a race-aware opponent that walls us in near our goal), and the opponent's
    candidates are the ``REPLY_WIDTH`` replies medium's race-aware one-ply score ranks
    best, over its pawn moves and the barriers on our whole path at the first inner ply
    (first three edges deeper); they are kept per position, as iterative deepening
    revisits them."""

    def __init__(self, rules: Any, root_ply: int) -> None:
        super().__init__(rules)
        self.root_ply = root_ply
        self.replies: dict[tuple[Any, ...], list[Any]] = {}  # iterative deepening revisits

    def evaluate(
        self, state: Any, me: int, wall_value: float = WALL_VALUE, target: int | None = None
    ) -> float:
        lead = super().evaluate(state, me, 0.0, target)
        others = [s for s in range(self.rules.seats) if s != me and state.in_game[s]]
        if not others:
            return lead
        theirs = sum(_hard_walls(state.barriers_left[o]) for o in others) / len(others)
        return lead + _hard_walls(state.barriers_left[me]) - theirs

    def candidates(self, state: Any, me: int, root: bool) -> list[Any]:
        seat = state.turn
        if root or seat == me:
            return super().candidates(state, me, root)
        key = (state.ply, seat, state.pawns, state.hw, state.vw, state.barriers_left)
        known = self.replies.get(key)
        if known is None:
            known = self.replies[key] = self._replies(state, me, seat)
        return known

    def _replies(self, state: Any, me: int, seat: int) -> list[Any]:
        rules = self.rules
        actions: list[Any] = list(pawn_moves(rules, state, seat))
        if state.barriers_left[seat] > 0:
            edges = None if state.ply == self.root_ply + 1 else 3
            actions += legal_barriers(rules, state, path_barriers(rules, state, me, edges))
        if not actions:
            return rules.legal_actions(state)[:8]
        value, target = self.stance(state, seat)
        scores = [position_score(self, rules.apply(state, a), seat, value, target) for a in actions]
        # stable: equal scores keep the candidates' own order (moves first), deterministic
        ranked = sorted(range(len(actions)), key=lambda i: -scores[i])
        return [actions[i] for i in ranked[:REPLY_WIDTH]]

def position_score(
    ev: BarrierEvaluator,
    state: Any,
    me: int,
    wall_value: float = WALL_VALUE,
    target: int | None = None,
) -> float:
    if state.turn is None:
        result = ev.rules.result(state)
        return 1e6 if result is not None and result.winner == me else -1e6
    return ev.evaluate(state, me, wall_value, target)
