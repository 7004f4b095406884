"""Bots for the blockade family (blockade, blockade_run) on the 5x5 board.

Blockade is about mobility: whoever cannot place loses, so a placement is rated by how
few replies it leaves. Blockade Run is a race with traps: distance to the goal row
(blocks in the way, pawns ignored) in turn order, plus the steps each pawn has left.
Both are small enough for a deep alpha-beta search within a modest node budget.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.core import WIN, Budget, Choice, OutOfBudget, Verdict, paranoid

from ..protocol import Rules
from . import solve as solver
from .actions import Place, Run
from .board import CELLS, FULL, INDEX, NEIGHBOURS, bits
from .run import GOALS
from .state import RunState

FAR = 25  # a pawn walled off from its goal row
SOLVED = 25  # the depth reported for a solved position: to the end of the game
AREA_W = 0.1  # Run: per free cell a pawn can still reach (it lives on them if walled off)
EASY_RANDOM = 0.45  # Run: how often easy plays any legal action
NODES_PER_SECOND = 20000  # Blockade; Blockade Run nodes cost about four times more
PROOFS_PER_SECOND = 15000  # solve.py's positions a second, both kinds
TRAP_W = 100.0  # Blockade medium: per share of the opponent's replies that hand us a win


def _is_run(state: Any) -> bool:
    return isinstance(state, RunState)


# -- Blockade Run geometry --------------------------------------------------------------


def _free(state: RunState) -> int:
    """Cells a pawn may stand on (not blocked), pawns ignored."""
    return FULL & ~state.blocked


def _bfs(start: int, free: int) -> list[int]:
    """Layers of cells reachable from ``start`` through ``free`` cells."""
    return solver.layers(1 << start, free)


def run_distance(state: RunState, seat: int) -> int:
    """Steps from ``seat``'s pawn to its goal row through unblocked cells (``FAR``: none)."""
    pawn = state.pawns[seat]
    if pawn is None:
        return FAR
    for k, layer in enumerate(_bfs(INDEX[pawn], _free(state))):
        if layer & GOALS[seat]:
            return k
    return FAR


def _steps(state: RunState, seat: int) -> int:
    """Cells ``seat``'s pawn could step to now (the other pawn in the way)."""
    pawn = state.pawns[seat]
    if pawn is None:
        return 0
    other = state.pawns[1 - seat]
    occupied = state.blocked | (0 if other is None else 1 << INDEX[other])
    return (NEIGHBOURS[INDEX[pawn]] & ~occupied).bit_count()


def _area(state: RunState, seat: int) -> int:
    """Free cells ``seat``'s pawn can reach: what it lives on once walled off."""
    pawn = state.pawns[seat]
    if pawn is None:
        return 0
    free = _free(state)
    other = state.pawns[1 - seat]
    if other is not None:
        free &= ~(1 << INDEX[other])
    return sum(layer.bit_count() for layer in _bfs(INDEX[pawn], free)) - 1


def _wins_now(state: RunState) -> bool:
    """Whether the seat to move has a winning step (a free goal cell beside its pawn)."""
    seat = state.turn
    pawn = state.pawns[seat]
    if pawn is None:
        return False
    other = state.pawns[1 - seat]
    occupied = state.blocked | (0 if other is None else 1 << INDEX[other])
    return bool(NEIGHBOURS[INDEX[pawn]] & GOALS[seat] & ~occupied)


def _near_path(state: RunState, seat: int, free: int) -> int:
    """Cells on some shortest path of ``seat`` within two steps of its pawn, and the
    cells beside it: blocking one of them is what slows or traps it."""
    pawn = state.pawns[seat]
    if pawn is None:
        return 0
    start = INDEX[pawn]
    ahead = _bfs(start, free)
    d = next((k for k, layer in enumerate(ahead) if layer & GOALS[seat]), None)
    around = NEIGHBOURS[start] & free
    if d is None:
        return around
    back = _layers_to_goal(seat, free)
    on_path = 0
    for k in (1, 2):
        if k < len(ahead) and d - k < len(back):
            on_path |= ahead[k] & back[d - k]
    return on_path | around


def _layers_to_goal(seat: int, free: int) -> list[int]:
    return solver.layers(GOALS[seat] & free, free)


def _mobility(rules: Any, state: Any) -> float:
    """Blockade, for the seat to move: its number of placements, or a sure win when one
    of them leaves the opponent no reply."""
    targets = rules.targets(state)
    taken = _marks(state)
    for i in bits(targets):
        if not NEIGHBOURS[i] & ~(taken | 1 << i):
            return 500.0
    return float(targets.bit_count())


# -- evaluation -----------------------------------------------------------------------


class BlockadeEvaluator:
    """Mobility (Blockade) or the race plus steps left (Blockade Run)."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    def evaluate(self, state: Any, me: int) -> float:
        if not _is_run(state):
            value = _mobility(self.rules, state)
            return value if state.turn == me else -value
        other = 1 - me
        if _wins_now(state):  # the seat to move steps into its goal row
            return 500.0 if state.turn == me else -500.0
        tempo = 0.5 if state.turn == me else 0.0
        tempo_other = 0.5 - tempo
        race = (run_distance(state, other) - tempo_other) - (run_distance(state, me) - tempo)
        room = _steps(state, me) - _steps(state, other)
        space = _area(state, me) - _area(state, other)
        return race + 0.3 * room + AREA_W * space

    def candidates(self, state: Any, me: int, root: bool) -> list[Any]:
        legal = self.rules.legal_actions(state)
        if not _is_run(state) or len(legal) <= 1:
            return self.ordered(state, legal) if not root else self.ranked(state, legal, me)
        seat = state.turn
        other = 1 - seat
        wins = [a for a in legal if a.block is None]
        if wins:
            return wins
        free = _free(state)
        target = _near_path(state, other, free)
        picked = [a for a in legal if (target >> INDEX[a.block]) & 1]
        if not picked:
            picked = legal
        return self.ranked(state, picked, me) if root else self.ordered(state, picked)

    def ordered(self, state: Any, actions: list[Any]) -> list[Any]:
        """Actions by the one-ply evaluation of the seat to move (cheap move ordering)."""
        seat = state.turn
        return self.ranked(state, actions, seat)

    def ranked(self, state: Any, actions: list[Any], me: int) -> list[Any]:
        scores = [self._after(state, a, me) for a in actions]
        return [a for _, a in sorted(zip(scores, actions, strict=True), key=lambda x: -x[0])]

    def _after(self, state: Any, action: Any, me: int) -> float:
        child = self.rules.apply(state, action)
        if child.turn is None:
            result = self.rules.result(child)
            return 1e6 if result is not None and result.winner == me else -1e6
        return self.evaluate(child, me)


# -- levels ---------------------------------------------------------------------------


def easy(rules: Rules, state: Any, rng: random.Random) -> Any:
    """Blockade: placements leaving fewer replies are likelier. Blockade Run: mostly a
    step toward the goal with a block on the opponent's way."""
    legal = rules.legal_actions(state)
    if not _is_run(state):
        taken = _marks(state)
        weights = [(5 - (NEIGHBOURS[INDEX[a.at]] & ~taken).bit_count()) ** 2 for a in legal]
        return rng.choices(legal, weights=weights)[0]
    wins = [a for a in legal if a.block is None]
    if wins:
        return wins[0]
    if rng.random() < EASY_RANDOM:
        return rng.choice(legal)
    seat = state.turn
    here = run_distance(state, seat)
    toward = [a for a in legal if _closer(state, seat, a, here)]
    pool = toward or legal
    target = _near_path(state, 1 - seat, _free(state))
    blocking = [a for a in pool if (target >> INDEX[a.block]) & 1]
    return rng.choice(blocking or pool)


def _marks(state: Any) -> int:
    return state.marks[0] | state.marks[1]


def _closer(state: RunState, seat: int, action: Any, here: int) -> bool:
    free = _free(state)
    for k, layer in enumerate(_bfs(INDEX[action.to], free)):
        if layer & GOALS[seat]:
            return k < here
    return False


def medium(rules: Rules, state: Any, rng: random.Random) -> Any:
    """The best action by the one-ply evaluation, over every legal action. In Blockade
    the evaluation is the opponent's mobility after it, first by the share of its replies
    that leave us a placement it cannot answer (``_traps``), so that in a lost position
    (the second player's, most of the time) medium keeps an imperfect opponent likeliest
    to go wrong."""
    ev = BlockadeEvaluator(rules)
    me = state.turn
    legal = rules.legal_actions(state)
    scores = [ev._after(state, a, me) for a in legal]
    if not _is_run(state):
        scores = [v + TRAP_W * _traps(rules, state, a) for v, a in zip(scores, legal, strict=True)]
    top = max(scores)
    return rng.choice([a for a, s in zip(legal, scores, strict=True) if s >= top - 1e-9])


def _traps(rules: Rules, state: Any, action: Any) -> float:
    """Blockade: the share of the opponent's replies to ``action`` after which we have a
    placement that leaves it no reply (0 when ``action`` ends the game)."""
    child = rules.apply(state, action)
    replies = rules.legal_actions(child)
    if not replies:
        return 0.0
    good = 0
    for reply in replies:
        grand = rules.apply(child, reply)
        if grand.turn is not None and _mobility(rules, grand) >= 500.0:
            good += 1
    return good / len(replies)


def nodes_per_second(rules: Rules) -> int:
    return NODES_PER_SECOND // 4 if _is_run(rules.initial()) else NODES_PER_SECOND


def hard(rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice:
    """Blockade: solved exactly when the budget allows (a few thousand positions), and
    in a lost position the move that gives the opponent the most ways to go wrong.
    Otherwise (and in Blockade Run) alpha-beta with iterative deepening; Blockade Run
    searches only blocks near the opponent's shortest paths and beside its pawn."""
    if not _is_run(state):
        try:
            return _solved(rules, state, budget)
        except OutOfBudget:
            pass  # too deep to solve in budget: whatever is left goes to the search
    return paranoid(rules, state, state.turn, BlockadeEvaluator(rules), budget)


def _solved(rules: Rules, state: Any, budget: Budget) -> Choice:
    memo: dict[tuple[int, int, int], bool] = {}
    legal = rules.legal_actions(state)
    children = [rules.apply(state, a) for a in legal]
    best, best_key = legal[0], (-1.0, 0)
    for action, child in zip(legal, children, strict=True):
        if child.turn is None or not _wins(rules, child, memo, budget):
            return Choice(action, budget.used, SOLVED, 1e6)
        replies = rules.legal_actions(child)
        errors = sum(
            1
            for r in replies
            if (grand := rules.apply(child, r)).turn is not None
            and _wins(rules, grand, memo, budget)
        )
        key = (errors / len(replies), -len(replies))
        if key > best_key:
            best, best_key = action, key
    return Choice(best, budget.used, SOLVED, -1e6)


def _wins(rules: Rules, state: Any, memo: dict[tuple[int, int, int], bool], budget: Budget) -> bool:
    """Whether the seat to move wins with perfect play (memoised per call)."""
    key = (state.marks[0], state.marks[1], INDEX[state.last.at] if state.last else -1)
    known = memo.get(key)
    if known is not None:
        return known
    budget.spend()
    won = False
    for action in rules.legal_actions(state):
        child = rules.apply(state, action)
        if child.turn is None or not _wins(rules, child, memo, budget):
            won = True
            break
    memo[key] = won
    return won


# -- perfect play -------------------------------------------------------------------------


def solves(rules: Rules) -> bool:
    """Both kinds of the family are solved (games/engine/blockade/solve.py)."""
    return True


def proofs_per_second(rules: Rules) -> int:
    """Positions the solver proves a second (both kinds; measured on this machine)."""
    return PROOFS_PER_SECOND


def _nodes(budget: Budget) -> solver.Nodes:
    return solver.Nodes(budget.left, budget.deadline)


def _run_position(state: RunState) -> solver.RunPosition:
    me, other = INDEX[state.pawns[state.turn]], INDEX[state.pawns[1 - state.turn]]
    empty = FULL & ~state.blocked & ~(1 << me | 1 << other)
    return solver.RunPosition.make(state.turn, me, other, empty)


def _run_action(state: RunState, step: int, block: int | None) -> Run:
    """The engine's action for a solver's run; block None: a spare cell (the lowest
    cell neither pawn can reach), or none after a winning step."""
    if GOALS[state.turn] >> step & 1:
        return Run(CELLS[step])
    if block is None:
        other = INDEX[state.pawns[1 - state.turn]]
        pos = _run_position(state)
        after = pos.after(step, None)
        empty = FULL & ~state.blocked & ~(1 << step | 1 << other)
        spare = empty & ~after.live
        block = (spare & -spare).bit_length() - 1
    return Run(CELLS[step], CELLS[block])


def solve_state(rules: Rules, state: Any, budget: Budget) -> tuple[Verdict, Any] | None:
    """The exact value for the seat to move and a best action (a winning one when it
    wins), or None when the proof does not fit in ``budget``."""
    nodes = _nodes(budget)
    try:
        if not _is_run(state):
            return _solve_place(state, nodes)
        won, step, block = solver.run_best(_run_position(state), nodes, {})
    except solver.Unsolved:
        return None
    finally:
        budget.used += min(nodes.used, budget.left)
    return Verdict(won), _run_action(state, step, block)


def _solve_place(state: Any, nodes: solver.Nodes) -> tuple[Verdict, Any]:
    """Blockade: win or loss by matching theory (instant); the plies to the end and,
    for the winner, the fastest win when the plies fit in the budget. A loser plays the
    placement whose replies hold the most losing ones (the most ways to go wrong)."""
    empty = FULL & ~_marks(state)
    at = None if state.last is None else INDEX[state.last.at]
    moves = list(solver.place_moves(empty, at))
    winning = [u for u, w in moves if w]
    if not winning:
        def errors(u: int) -> tuple[float, int]:
            rest = empty & ~(1 << u)
            replies = [w for _, w in solver.place_moves(rest, u)]
            return (sum(not w for w in replies) / max(1, len(replies)), -len(replies))

        pick = max((u for u, _ in moves), key=errors)
        pool = [u for u, _ in moves]
    else:
        pick, pool = winning[0], winning
    try:
        plies = {u: solver.place_plies(empty & ~(1 << u), u, nodes) + 1 for u in pool}
    except solver.Unsolved:
        return Verdict(bool(winning)), Place(CELLS[pick])
    if winning:
        pick = min(winning, key=lambda u: plies[u])
        return Verdict(True, plies[pick]), Place(CELLS[pick])
    return Verdict(False, max(plies.values())), Place(CELLS[pick])


def solve(rules: Rules, state: Any, budget: Budget) -> Verdict | None:
    """The exact value for the seat to move, or None when it does not fit in budget."""
    found = solve_state(rules, state, budget)
    return None if found is None else found[0]


def perfect(rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice:
    """Never lets a won position go: the proved winning action; in a lost position (or
    one it cannot prove in budget) Blockade's most error-prone placement, or Blockade
    Run's best move by ``hard``'s search."""
    found = solve_state(rules, state, budget)
    if found is None:
        return hard(rules, state, rng, budget)
    verdict, action = found
    if verdict.win or not _is_run(state):
        return Choice(action, budget.used, SOLVED, WIN if verdict.win else -WIN, verdict)
    fallback = paranoid(rules, state, state.turn, BlockadeEvaluator(rules), budget)
    return Choice(fallback.action, budget.used, fallback.depth, -WIN, verdict)


# -- hints ----------------------------------------------------------------------------


def explain(rules: Rules, state: Any, action: Any) -> str:
    """Why ``action`` is a good idea, in words, for the seat to move."""
    me = state.turn
    other = 1 - me
    name = rules.info.colours[other].name
    who = rules.info.colours[me].name  # named, never "you": spectators read it too
    after = rules.apply(state, action)
    if not _is_run(state):
        if after.turn is None:
            return f"leaves {name} no place to go: {who} wins"
        n = rules.legal_actions(after)
        places = "place" if len(n) == 1 else "places"
        return f"leaves {name} {len(n)} {places} to go"
    if after.turn is None:
        return (
            f"reaches {who}'s goal row and wins the game"
            if action.block is None
            else (f"leaves {name} no step to take: {who} wins")
        )
    mine, theirs = run_distance(after, me), run_distance(after, other)
    where = _cell_name(CELLS[INDEX[action.block]])
    if theirs >= FAR:
        return f"blocks {where} and walls {name} off from its goal"
    return (
        f"steps to {_cell_name(action.to)}, {mine} from {who}'s goal, and blocks {where}, "
        f"leaving {name} {theirs} steps from goal"
    )


def _cell_name(cell: tuple[int, int]) -> str:
    return f"{'abcde'[cell[1]]}{cell[0]}"
