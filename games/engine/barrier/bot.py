"""Bots for the barrier family (bloqueio, bloqueio2, quoridor, quoridor4).

The evaluation is a race: each seat's shortest-path distance (pawns ignored) turned
into "plies until it could arrive" by its place in the turn order, so a tie goes to
whoever moves first. Barriers are only considered on the first edges of an opponent's
shortest path (two anchors block each edge), which keeps the branching small enough
for a real search in Python. This module may read the family's internals (geometry,
bitboards); nothing outside this family relies on that.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import pairwise
from typing import Any

from games.bots.core import (
    Budget,
    Choice,
    greedy,
    lookahead,
    paranoid,
)

from ..common import PASS
from ..protocol import Rules
from .actions import Barrier, Move
from .geometry import Geometry, bfs_path

FAR = 99  # distance of a seat with no path (cannot happen in a legal position)
WALL_VALUE = 0.5  # steps a barrier in hand is worth: a block must gain more than this
THREAT_WALL_VALUE = -0.6  # the same while a near opponent wins the race: spend them on it
URGENT = 2  # steps from its goal at which an opponent winning the race must be blocked
EASY_PROGRESS = 0.6  # how often easy steps along its shortest path
NODES_PER_SECOND = {2: 3000, 4: 1600}  # by seats; the clock stops a slow move first
HARD_WALL_VALUE = 1.5  # hard's leaves (2 seats): keep barriers to answer late blocks
HARD_WALLS_KEPT = 10  # ... for this many in hand; more (Bloqueio 2 has 12) count WALL_VALUE
REPLY_WIDTH = 2  # opponent replies hard's 2-seat search tries: medium's best by its score
LOOKAHEAD_WIDTH = 64  # candidates hard plays out with more than two seats
LOOKAHEAD_ROUNDS = 3  # rounds it plays each one out for, under each opponent model
LOOKAHEAD_WALL_VALUE = 1.5  # a barrier in hand at the end of a four-seat playout
RACE_WIN = 2.0  # end of a four-seat playout: hard wins the pawn race, nobody can block
VERIFIED = 4  # hard's best four-seat candidates checked against medium's own replies
VERIFY_NODES = 16  # nodes the lookahead leaves for each such check
VERIFY_MIN_NODES = 400  # below this budget (tests, a nearly flagged clock), no checks


# -- distances ------------------------------------------------------------------------


def _opens(rules: Any, state: Any) -> tuple[int, int, int, int]:
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
    od, ou, orr, ol = _opens(rules, state)
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


def _layers(rules: Any, state: Any, seat: int) -> list[int]:
    """Cells by distance to ``seat``'s goal (backward BFS): ``layers[k]`` are k away
    from the target cells (plus ``extra_step``)."""
    g: Geometry = rules.geometry
    od, ou, orr, ol = _opens(rules, state)
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


def _cell_distance(rules: Any, layers: list[int], seat: int, cell: int) -> int:
    g: Geometry = rules.geometry
    if (g.goal[seat] >> cell) & 1:
        return 0
    bit = 1 << cell
    for k, layer in enumerate(layers):
        if layer & bit:
            return k + g.extra_step
    return FAR


# -- candidates -----------------------------------------------------------------------


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


def _path_barriers(rules: Any, state: Any, seat: int, edges: int | None) -> list[Barrier]:
    """Barriers that cut the first ``edges`` edges (all if None) of one shortest path."""
    pawn = state.pawns[seat]
    g: Geometry = rules.geometry
    if pawn is None:
        return []
    i = g.index[pawn]
    if (g.goal[seat] >> i) & 1:
        return []
    od, ou, orr, ol = _opens(rules, state)
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


def _moves(rules: Any, state: Any, seat: int) -> list[Move]:
    """Pawn moves of the seat to move, nearest to its goal first."""
    g: Geometry = rules.geometry
    cells = rules._moves(state, seat)
    layers = _layers(rules, state, seat)
    ranked = sorted(cells, key=lambda c: (_cell_distance(rules, layers, seat, c), c))
    return [g.moves[c] for c in ranked]


def _legal(rules: Rules, state: Any, barriers: list[Barrier]) -> list[Barrier]:
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
        layers = _layers(rules, state, seat)
        return 1 + min(_cell_distance(rules, layers, seat, c) for c in cells)

    def candidates(self, state: Any, me: int, root: bool) -> list[Any]:
        rules = self.rules
        seat = state.turn
        if root:
            return self.ranked(state, me)
        moves: list[Any] = _moves(rules, state, seat)
        if seat != me:
            moves = moves[:2]  # an opponent's sensible steps; paranoid blocks come below
        barriers: list[Barrier] = []
        if state.barriers_left[seat] > 0:
            target = me if seat != me else self.leader(state, me)
            if target is not None:
                barriers = _legal(rules, state, _path_barriers(rules, state, target, 3))
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
        actions: list[Any] = list(_moves(rules, state, seat))
        if state.barriers_left[seat] > 0:
            found: list[Barrier] = []
            for other in range(rules.seats):
                if other != seat and state.in_game[other]:
                    path = _path_barriers(rules, state, other, None)
                    found += [b for b in path if b not in found]
            actions += _legal(rules, state, found)
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
        scores = [_score(self, self.rules.apply(state, a), me, value, target) for a in actions]
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
        actions: list[Any] = list(_moves(rules, state, seat))
        if state.barriers_left[seat] > 0:
            edges = None if state.ply == self.root_ply + 1 else 3
            actions += _legal(rules, state, _path_barriers(rules, state, me, edges))
        if not actions:
            return rules.legal_actions(state)[:8]
        value, target = self.stance(state, seat)
        scores = [_score(self, rules.apply(state, a), seat, value, target) for a in actions]
        # stable: equal scores keep the candidates' own order (moves first), deterministic
        ranked = sorted(range(len(actions)), key=lambda i: -scores[i])
        return [actions[i] for i in ranked[:REPLY_WIDTH]]


_DISTANCES: dict[tuple[int, int, int, int], dict[int, int]] = {}  # see ``_distances``
DISTANCES_KEPT = 4096  # positions' tables kept (a pure function of the barriers: no state)


def _distances(rules: Any, state: Any, seat: int) -> dict[int, int]:
    """Every cell from which ``seat`` can reach its goal, and its distance (as
    ``_cell_distance``: goal cells 0, else the layer plus ``extra_step``). Memoised by
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
    for k, layer in enumerate(_layers(rules, state, seat)):
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
    dist = {s: _distances(rules, state, s) for s in order}
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


# -- levels ---------------------------------------------------------------------------


def easy(rules: Rules, state: Any, rng: random.Random) -> Any:
    """Mostly a step along a shortest path; sometimes any legal action."""
    seat = state.turn
    if rng.random() < EASY_PROGRESS:
        moves = rules._moves(state, seat)  # type: ignore[attr-defined]
        if moves:
            layers = _layers(rules, state, seat)
            dist = {c: _cell_distance(rules, layers, seat, c) for c in moves}
            best = min(dist.values())
            g: Geometry = rules.geometry  # type: ignore[attr-defined]
            return g.moves[rng.choice(sorted(c for c in moves if dist[c] == best))]
    return _any_action(rules, state, rng)


def _any_action(rules: Any, state: Any, rng: random.Random) -> Any:
    """A uniformly random legal action, drawn by rejection from every pawn move and
    barrier slot: listing the legal barriers (a path check each) costs far more."""
    seat = state.turn
    g: Geometry = rules.geometry
    pool: list[Any] = [g.moves[c] for c in sorted(rules._moves(state, seat))]
    if state.barriers_left[seat] > 0:
        pool += [info.action for info in g.h_list] + [info.action for info in g.v_list]
    for _ in range(32):
        if not pool:
            break
        action = rng.choice(pool)
        if rules.is_legal(state, action):
            return action
    return rng.choice(rules.legal_actions(state))


def medium(rules: Rules, state: Any, rng: random.Random) -> Any:
    """The best action by the one-ply race evaluation (ties broken by ``rng``), race
    aware: while the leader would arrive first, a barrier in hand is worth nothing
    (or less), so medium spends them on the leader instead of racing a lost race.
    With more than two seats it first keeps the actions whose two-move race plan
    (``_plan``: the pawns meeting in the middle included) leaves it the fewest steps
    short: the one-ply race alone walked into races it lost on turn order."""
    ev = BarrierEvaluator(rules)
    me = state.turn
    value, target = ev.stance(state, me)
    actions = ev.root_actions(state)
    if rules.seats > 2:  # first the actions whose race plan leaves it fewest steps short
        short = {a: _plan(rules, rules.apply(state, a), me) for a in actions}
        least = min(short.values())
        actions = [a for a in actions if short[a] == least]
    return greedy(rules, state, actions, lambda s: _score(ev, s, me, value, target), rng)


def _step(rules: Any, state: Any) -> Any:
    """The seat to move's step (or jump) nearest its goal, lowest cell on ties."""
    seat = state.turn
    cells = rules._moves(state, seat)
    if not cells:
        return rules.legal_actions(state)[0]
    table = _distances(rules, state, seat)
    return rules.geometry.moves[min(cells, key=lambda c: (table.get(c, FAR), c))]


def _plan(rules: Any, state: Any, me: int) -> int:
    """After one of ``me``'s actions: the others step (``_step``) until ``me`` is up
    again, ``me`` plays its best second action (a step, or a barrier on the path of the
    pawn race's winner) and the pawns race to the end; the fewest steps ``me`` is short
    when someone arrives (0: ``me`` wins)."""
    while state.turn is not None and state.turn != me:
        state = rules.apply(state, _step(rules, state))
    if state.turn is None:
        return race(rules, state, me)[1]
    winner, behind = race(rules, state, me)
    options: list[Any] = _moves(rules, state, me)
    if winner is not None and winner != me and state.barriers_left[me] > 0:
        options += _legal(rules, state, _path_barriers(rules, state, winner, 3))
    return min([behind] + [race(rules, rules.apply(state, a), me)[1] for a in options])


def _score(
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


def nodes_per_second(rules: Rules) -> int:
    return NODES_PER_SECOND.get(rules.seats, 4000)


def hard(rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice:
    """Two seats: alpha-beta with iterative deepening over the race evaluation (see
    ``HardEvaluator``: the opponent's replies are its best two by medium's race-aware
    score). More seats: paranoid search (everyone against us) proved far too timid, so
    the best one-ply candidates are played out for three rounds under two opponent models,
    each candidate worth its worse playout: opponents that run and block only for a
    whole step's gain (``_runner``: then nobody else stops a leader, so we must), and
    opponents that block whoever is about to win (``_reply``: then leading early only
    draws their barriers). At the end of a playout a barrier in hand is worth
    ``LOOKAHEAD_WALL_VALUE`` steps: the last seat holding barriers decides the race; and
    once nobody else holds one, winning the pawn race is worth ``RACE_WIN`` (``_leaf``).
    On a board with goal zones the best candidates are then checked against medium's
    own replies (``_verified``)."""
    me = state.turn
    ev = BarrierEvaluator(rules)
    if rules.seats == 2:
        return paranoid(rules, state, me, HardEvaluator(rules, state.ply), budget)
    models = [lambda s: _reply(ev, s) if s.turn == me else _runner(ev, s), lambda s: _reply(ev, s)]
    candidates = ev.ranked(state, me)[:LOOKAHEAD_WIDTH]
    others = [s for s in range(rules.seats) if s != me]
    armed = any(state.barriers_left[s] for s in others)
    walling = any(state.barriers_left[s] < rules.barriers_each for s in others)
    checks = armed and walling and rules.geometry.extra_step and budget.limit >= VERIFY_MIN_NODES
    if not checks:  # Bloqueio, once the others wall and at a real budget: _verified
        return lookahead(
            rules,
            state,
            me,
            candidates,
            models,
            lambda s: _leaf(ev, s, me),
            budget,
            rounds=LOOKAHEAD_ROUNDS,
        )
    return _verified(ev, state, me, candidates, models, budget)


def _verified(
    ev: BarrierEvaluator,
    state: Any,
    me: int,
    candidates: list[Any],
    models: list[Any],
    budget: Budget,
) -> Choice:
    """Hard's four-seat lookahead, then its best candidates checked against medium
    itself: the best is played out once more with the opponents' first replies by
    ``medium`` (race plan included: three of them wall off whoever leads the pawn race,
    which neither cheap model foresees), and is worth the worse of the two values; until
    the best has been checked, or ``VERIFIED`` of them have (medium costs 25 ms a reply,
    too much for every playout). The lookahead leaves ``VERIFY_NODES`` nodes a check.
    Only once an opponent has placed a barrier: greedy racers rarely do, and a hard bot
    that expects medium's walls from the start led them less often (58 % against three
    of them instead of 88 %, docs/bots.md)."""
    rules = ev.rules
    main = Budget(budget.limit - VERIFY_NODES * VERIFIED, None)
    main.deadline = budget.deadline
    score: dict[int, float] = {}
    for i, action in enumerate(candidates):
        one = lookahead(
            rules,
            state,
            me,
            [action],
            models,
            lambda s: _leaf(ev, s, me),
            main,
            rounds=LOOKAHEAD_ROUNDS,
        )
        if not one.depth:  # out of nodes (or time)
            break
        score[i] = one.score
    budget.used = main.used
    if not score:
        return Choice(candidates[0], budget.used, 0, 0.0)
    checked: set[int] = set()
    while True:
        best = max(score, key=lambda i: (score[i], -i))  # the first of equals
        if best in checked or len(checked) >= VERIFIED:
            break
        checked.add(best)
        check = lookahead(
            rules,
            state,
            me,
            [candidates[best]],
            _medium_first(ev, state.ply + rules.seats),
            lambda s: _leaf(ev, s, me),
            budget,
            rounds=LOOKAHEAD_ROUNDS,
        )
        if not check.depth:  # out of nodes (or time)
            break
        score[best] = min(score[best], check.score)
    return Choice(candidates[best], budget.used, LOOKAHEAD_ROUNDS, score[best])


def _medium_first(ev: BarrierEvaluator, until: int) -> Any:
    """A playout's moves for ``_verified``: before ply ``until`` (the opponents' first
    replies) ``medium``'s, its generator seeded by the ply (deterministic); after it,
    ``_reply``'s."""

    def move(state: Any) -> Any:
        if state.ply < until:
            return medium(ev.rules, state, random.Random(state.ply))
        return _reply(ev, state)

    return move


def _leaf(ev: BarrierEvaluator, state: Any, me: int) -> float:
    """The end of a four-seat playout: the race with barriers in hand worth
    ``LOOKAHEAD_WALL_VALUE``, plus ``RACE_WIN`` once no opponent holds a barrier and
    ``me`` wins the pawn race played out (pawns meeting included): then only our own
    barriers can change it. Counted while opponents still hold barriers, it drew hard
    into leads that three race-planning mediums walled off."""
    value = ev.evaluate(state, me, LOOKAHEAD_WALL_VALUE)
    armed = any(state.barriers_left[s] for s in range(ev.rules.seats) if s != me)
    if not armed and race(ev.rules, state, me)[1] == 0:
        value += RACE_WIN
    return value


def _runner(ev: BarrierEvaluator, state: Any) -> Any:
    """An opponent as hard's four-seat search expects it: it runs (its best pawn move)
    and blocks its nearest rival only when a barrier gains a whole step more than that
    step, and never one of two rivals tied for nearest (slowing one gains nothing)."""
    rules = ev.rules
    seat = state.turn
    moves = _moves(rules, state, seat)
    others = [s for s in range(rules.seats) if s != seat and state.in_game[s]]
    dist = {s: distance(rules, state, s) for s in others}
    near = min(dist.values())
    if not moves:
        best, best_value = None, -float("inf")
    else:
        best = moves[0]
        best_value = near - distance(rules, rules.apply(state, best), seat)
    rivals = [s for s in others if dist[s] == near]
    if len(rivals) == 1 and state.barriers_left[seat] > 0:
        mine = distance(rules, state, seat)
        for barrier in _legal(rules, state, _path_barriers(rules, state, rivals[0], 3)):
            after = rules.apply(state, barrier)
            value = min(distance(rules, after, s) for s in others) - mine
            if value >= best_value + 1:
                best, best_value = barrier, value
    if best is None:
        return rules.legal_actions(state)[0]
    return best


def _reply(ev: BarrierEvaluator, state: Any) -> Any:
    """A seat's greedy move over its cheap candidates (deterministic: first of equals)."""
    seat = state.turn
    wall_value, target = ev.stance(state, seat)
    actions = ev.candidates(state, seat, False)
    if target is not None and state.barriers_left[seat] > 0:
        actions += _legal(ev.rules, state, _path_barriers(ev.rules, state, target, 3))
    best, top = None, -float("inf")
    for action in actions:
        value = _score(ev, ev.rules.apply(state, action), seat, wall_value, target)
        if value > top:
            best, top = action, value
    return best


# -- hints ----------------------------------------------------------------------------


def explain(rules: Rules, state: Any, action: Any) -> str:
    """Why ``action`` is a good idea, in words that name the seat to move (read by that
    player as a hint and by anyone in a replay's analysis, so never "you")."""
    me = state.turn
    names = [c.name for c in rules.info.colours]
    who = names[me]
    if action == PASS:
        return f"passes: there is nothing else {who} can do"
    after = rules.apply(state, action)
    if isinstance(action, Move):
        before, now = rules.measure(state, me), rules.measure(after, me)
        if after.turn is None and now == 0:
            return f"reaches {who}'s goal and wins the game"
        if before is not None and now is not None and now < before:
            return f"shortens {who}'s path from {before} to {now}"
        return f"moves {who}'s pawn aside; its path stays {now} steps"
    best: tuple[int, int, int, int] | None = None  # (gain, -distance, seat, new)
    for s in range(rules.seats):
        if s == me or not state.in_game[s]:
            continue
        d0, d1 = rules.measure(state, s), rules.measure(after, s)
        if d0 is None or d1 is None:
            continue
        key = (d1 - d0, -d0, s, d1)
        if best is None or key > best:
            best = key
    if best is None or best[0] <= 0:
        mine = rules.measure(after, me)
        return f"places a barrier that changes no path; {who}'s stays {mine} steps"
    _, neg, s, new = best
    return (
        f"blocks {names[s]}, who is {-neg} steps from goal: their path grows from {-neg} to {new}"
    )
