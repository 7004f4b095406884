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
from .actions import Move
from .bot_eval import (
    BarrierEvaluator,
    HardEvaluator,
    legal_barriers,
    path_barriers,
    pawn_moves,
    position_score,
)
from .bot_race import FAR, cell_distance, distance, distance_layers, goal_distances, race
from .geometry import Geometry

EASY_PROGRESS = 0.6  # how often easy steps along its shortest path
NODES_PER_SECOND = {2: 3000, 4: 1600}  # by seats; the clock stops a slow move first
LOOKAHEAD_WIDTH = 64  # candidates hard plays out with more than two seats
LOOKAHEAD_ROUNDS = 3  # rounds it plays each one out for, under each opponent model
LOOKAHEAD_WALL_VALUE = 1.5  # a barrier in hand at the end of a four-seat playout
RACE_WIN = 2.0  # end of a four-seat playout: hard wins the pawn race, nobody can block
VERIFIED = 4  # hard's best four-seat candidates checked against medium's own replies
VERIFY_NODES = 16  # nodes the lookahead leaves for each such check
VERIFY_MIN_NODES = 400  # below this budget (tests, a nearly flagged clock), no checks


# -- levels ---------------------------------------------------------------------------


def easy(rules: Rules, state: Any, rng: random.Random) -> Any:
    """Mostly a step along a shortest path; sometimes any legal action."""
    seat = state.turn
    if rng.random() < EASY_PROGRESS:
        moves = rules._moves(state, seat)  # type: ignore[attr-defined]
        if moves:
            layers = distance_layers(rules, state, seat)
            dist = {c: cell_distance(rules, layers, seat, c) for c in moves}
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
    return greedy(rules, state, actions, lambda s: position_score(ev, s, me, value, target), rng)


def _step(rules: Any, state: Any) -> Any:
    """The seat to move's step (or jump) nearest its goal, lowest cell on ties."""
    seat = state.turn
    cells = rules._moves(state, seat)
    if not cells:
        return rules.legal_actions(state)[0]
    table = goal_distances(rules, state, seat)
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
    options: list[Any] = pawn_moves(rules, state, me)
    if winner is not None and winner != me and state.barriers_left[me] > 0:
        options += legal_barriers(rules, state, path_barriers(rules, state, winner, 3))
    return min([behind] + [race(rules, rules.apply(state, a), me)[1] for a in options])



def nodes_per_second(rules: Rules) -> int:
    return NODES_PER_SECOND.get(rules.seats, 4000)


def hard(rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice:
    """Two seats: alpha-beta with iterative deepening over the race evaluation (see
    ``HardEvaluator``: the opponent's replies are its best two by medium's race-aware
    score). More seats: paranoid search (everyone against us) proved far too timid, so
    the best one-ply candidates are played out for three rounds under two opponent models,
    each candidate worth its worse playout: opponents that run and block only for a
    whole step's gain (``_runner``: then nobody else stops a leader, so we must), and
    opponents that block whoever is about to win (Bloqueio: ``_reply``) or whoever leads
    (Quoridor 4: ``_waller``), so that leading early only draws their barriers
    (``_models``). At the end of a playout a barrier in hand is worth
    ``LOOKAHEAD_WALL_VALUE`` steps: the last seat holding barriers decides the race; and
    once nobody else holds one, winning the pawn race is worth ``RACE_WIN`` (``_leaf``).
    On a board with goal zones the best candidates are then checked against medium's
    own replies (``_verified``)."""
    me = state.turn
    ev = BarrierEvaluator(rules)
    if rules.seats == 2:
        return paranoid(rules, state, me, HardEvaluator(rules, state.ply), budget)
    models = _models(ev, me)
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


def _models(ev: BarrierEvaluator, me: int) -> list[Any]:
    """The opponent models hard's four-seat playouts run under (a candidate is worth its
    worse playout); our own later moves are ``_reply``'s in both. Quoridor 4: opponents
    that wall off whoever leads (``_waller``: three of them are what a bot meets at a real
    table, and a lead they see coming draws their walls) and opponents that run
    (``_runner``: then nobody else stops a leader, so we must). Against three such
    wallers this won 17 of 24 where the Bloqueio pair below had won 6 (docs/bots.md).
    Bloqueio: ``_runner`` and ``_reply`` everywhere; there the waller model alone won 3
    of 24 (its goal zones are wide: a single wall rarely costs a pawn two steps)."""
    runner = lambda s: _reply(ev, s) if s.turn == me else _runner(ev, s)  # noqa: E731
    if ev.rules.geometry.extra_step:  # Bloqueio's goal zones
        return [runner, lambda s: _reply(ev, s)]
    return [lambda s: _reply(ev, s) if s.turn == me else _waller(ev, s), runner]


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
    moves = pawn_moves(rules, state, seat)
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
        for barrier in legal_barriers(rules, state, path_barriers(rules, state, rivals[0], 3)):
            after = rules.apply(state, barrier)
            value = min(distance(rules, after, s) for s in others) - mine
            if value >= best_value + 1:
                best, best_value = barrier, value
    if best is None:
        return rules.legal_actions(state)[0]
    return best


def _waller(ev: BarrierEvaluator, state: Any) -> Any:
    """An opponent that walls off whoever leads (what hard meets at a real table): it
    fixes the rival closest to its goal (then whoever moves sooner after it), and places
    the barrier that lengthens that rival's path most when that costs the rival more
    steps than its own best step gains; else it steps (deterministic: first of equals)."""
    rules = ev.rules
    seat = state.turn
    n = rules.seats
    others = [s for s in range(n) if s != seat and state.in_game[s]]
    moves = pawn_moves(rules, state, seat)
    g: Geometry = rules.geometry
    if moves and (g.goal[seat] >> g.index[moves[0].to]) & 1:
        return moves[0]  # the winning step
    dist = {s: distance(rules, state, s) for s in others}
    rival = min(others, key=lambda s: (dist[s], (s - seat) % n))
    gain = 0
    if moves:
        gain = distance(rules, state, seat) - distance(rules, rules.apply(state, moves[0]), seat)
    if state.barriers_left[seat] > 0:
        best, longest = None, gain
        for barrier in legal_barriers(rules, state, path_barriers(rules, state, rival, None)):
            longer = distance(rules, rules.apply(state, barrier), rival) - dist[rival]
            if longer > longest:
                best, longest = barrier, longer
        if best is not None:
            return best
    if moves:
        return moves[0]
    return rules.legal_actions(state)[0]


def _reply(ev: BarrierEvaluator, state: Any) -> Any:
    """A seat's greedy move over its cheap candidates (deterministic: first of equals)."""
    seat = state.turn
    wall_value, target = ev.stance(state, seat)
    actions = ev.candidates(state, seat, False)
    if target is not None and state.barriers_left[seat] > 0:
        actions += legal_barriers(ev.rules, state, path_barriers(ev.rules, state, target, 3))
    best, top = None, -float("inf")
    for action in actions:
        value = position_score(ev, ev.rules.apply(state, action), seat, wall_value, target)
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
