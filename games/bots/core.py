"""The protocol-level half of the bots: budgets, the family interface and search.

Nothing here knows a game family: a family's bot module (``FamilyBot``, next to its
engine) builds an ``Evaluator`` (ordered candidate actions and a static score) and the
search below works on any ``Rules``.
Search is budgeted by NODES, not by time, so a given seed and node budget always give
the same move; the wall clock is only a safety cap (see docs/bots.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.engine import PASS, Rules

WIN = 1_000_000.0  # a won position; the ply count is subtracted so faster wins score higher


class OutOfBudget(Exception):
    """Raised inside a search when its node budget (or time cap) runs out."""


CLOCK_SHARE = 0.9  # of ``budget_s`` a search may use: the rest covers the work around it


class Budget:
    """Counts nodes against a hard limit, and stops at a wall-clock deadline (a safety
    cap: a node costs tens of microseconds or more, a clock read well under one)."""

    __slots__ = ("deadline", "limit", "used")

    def __init__(self, nodes: int, seconds: float | None) -> None:
        self.limit = nodes
        self.used = 0
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def spend(self, n: int = 1) -> None:
        """Account for ``n`` nodes; raise ``OutOfBudget`` if that would pass the limit."""
        if self.used + n > self.limit:
            raise OutOfBudget
        self.used += n
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfBudget

    @property
    def left(self) -> int:
        return self.limit - self.used


@dataclass(frozen=True, slots=True)
class Verdict:
    """The exact value of a position for the seat to move, where a kind is solved."""

    win: bool
    plies: int | None = None  # to the end with best play; None: not computed in budget

    def to_json(self) -> dict[str, Any]:
        return {"value": "win" if self.win else "loss", "exact": True, "plies": self.plies}


@dataclass(frozen=True, slots=True)
class Choice:
    """What a bot decided, and what it cost (for tests, benches and hints); ``verdict``:
    the position's exact value when the bot proved it (``perfect``)."""

    action: Any
    nodes: int = 0
    depth: int = 0
    score: float = 0.0
    verdict: Verdict | None = None


class Evaluator(Protocol):
    """What the generic search needs from a family."""

    def candidates(self, state: Any, me: int, root: bool) -> list[Any]:
        """Legal actions worth searching for the seat to move, best guesses first."""
        ...

    def evaluate(self, state: Any, me: int) -> float:
        """Static score of a running position for seat ``me`` (higher is better)."""
        ...


class FamilyBot(Protocol):
    """What a family's bot module provides (named by its ``Family.bot``; docs/bots.md).

    The family's own module may read the family's internals; ``games.bots`` reaches it
    only through this interface, and picks the level, the seed's generator and the
    budget itself.
    """

    def easy(self, rules: Rules, state: Any, rng: random.Random) -> Any: ...

    def medium(self, rules: Rules, state: Any, rng: random.Random) -> Any: ...

    def hard(self, rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice: ...

    def nodes_per_second(self, rules: Rules) -> int: ...

    def explain(self, rules: Rules, state: Any, action: Any) -> str: ...


class SolvingBot(FamilyBot, Protocol):
    """A family bot that also plays ``perfect`` in the kinds it has solved."""

    def solves(self, rules: Rules) -> bool: ...

    def proofs_per_second(self, rules: Rules) -> int: ...

    def perfect(self, rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice: ...

    def solve(self, rules: Rules, state: Any, budget: Budget) -> Verdict | None: ...


def terminal_score(rules: Rules, state: Any, me: int) -> float:
    """Score of a finished game for ``me``: wins high (sooner is better), losses low."""
    result = rules.result(state)
    if result is None or result.winner is None:
        rank = 1 if result is None else result.ranking[me]
        return 0.0 if rank == 1 else -WIN / 2
    if result.winner == me:
        return WIN - state.ply
    return -WIN + state.ply


def paranoid(
    rules: Rules,
    state: Any,
    me: int,
    ev: Evaluator,
    budget: Budget,
    *,
    max_depth: int = 64,
) -> Choice:
    """Iterative-deepening paranoid alpha-beta: ``me`` maximises, every other seat
    minimises ``me``'s score (plain minimax with two seats). Each depth reuses the
    previous one's best move first; the answer is the best move of the deepest
    completed depth, so a budget that runs out mid-depth never returns a half result.
    """
    root = ev.candidates(state, me, True)
    if len(root) == 1:
        return Choice(root[0], budget.used, 0, 0.0)
    best, best_score, done = root[0], -float("inf"), 0
    order = list(root)
    for depth in range(1, max_depth + 1):
        try:
            scores = _root_search(rules, state, me, ev, budget, order, depth)
        except OutOfBudget:
            break
        # stable sort keeps the candidates' own order among equals: determinism
        ranked = sorted(range(len(order)), key=lambda i: -scores[i])
        order = [order[i] for i in ranked]
        best, best_score, done = order[0], scores[ranked[0]], depth
        if abs(best_score) >= WIN / 2:
            break  # a forced result: looking deeper cannot change it
    return Choice(best, budget.used, done, best_score)


def _root_search(
    rules: Rules,
    state: Any,
    me: int,
    ev: Evaluator,
    budget: Budget,
    order: Sequence[Any],
    depth: int,
) -> list[float]:
    alpha = -float("inf")
    scores: list[float] = []
    for action in order:
        budget.spend()
        child = rules.apply(state, action)
        value = _ab(rules, child, me, ev, budget, depth - 1, alpha, float("inf"))
        scores.append(value)
        alpha = max(alpha, value)
    return scores


def _ab(
    rules: Rules,
    state: Any,
    me: int,
    ev: Evaluator,
    budget: Budget,
    depth: int,
    alpha: float,
    beta: float,
) -> float:
    if state.turn is None:
        return terminal_score(rules, state, me)
    if depth <= 0:
        return ev.evaluate(state, me)
    maximise = state.turn == me
    value = -float("inf") if maximise else float("inf")
    for action in ev.candidates(state, me, False):
        budget.spend()
        child = rules.apply(state, action)
        score = _ab(rules, child, me, ev, budget, depth - 1, alpha, beta)
        if maximise:
            value = max(value, score)
            alpha = max(alpha, value)
        else:
            value = min(value, score)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def greedy(
    rules: Rules,
    state: Any,
    actions: Sequence[Any],
    score: Callable[[Any], float],
    rng: random.Random,
) -> Any:
    """The action whose resulting position ``score`` rates highest; ties by ``rng``."""
    best: list[Any] = []
    top = -float("inf")
    for action in actions:
        value = score(rules.apply(state, action))
        if value > top + 1e-9:
            top, best = value, [action]
        elif value >= top - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def only_action(rules: Rules, state: Any) -> Any | None:
    """The action to play without thinking: PASS when it is all there is, or the only
    legal action; None when there is a choice to make."""
    legal = rules.legal_actions(state)
    if not legal:
        raise ValueError("the game is over: there is no action to choose")
    if len(legal) == 1:
        return legal[0]
    return PASS if PASS in legal else None


def lookahead(
    rules: Rules,
    state: Any,
    me: int,
    candidates: Sequence[Any],
    reply: Callable[[Any], Any] | Sequence[Callable[[Any], Any]],
    evaluate: Callable[[Any], float],
    budget: Budget,
    *,
    rounds: int = 1,
) -> Choice:
    """Try each candidate (best guesses first), let every seat play ``reply`` (a fast
    deterministic policy, ours included) for ``rounds`` rounds, and keep the candidate
    whose position ``evaluate`` rates best for ``me``. For many seats this models the
    opponents as they are instead of as a coalition against ``me`` (paranoid search).
    Given several reply policies (opponent models), a candidate is worth the worst of
    its playouts: a move that only works if the others play one way is not chosen.
    A node is one move played; a candidate whose lookahead does not fit in the budget
    is dropped, and the first candidate is the answer when none fits.
    """
    models = [reply] if callable(reply) else list(reply)
    turn_key = getattr(state, "colour", None)
    best, best_value, looked = candidates[0], -float("inf"), 0
    for action in candidates:
        try:
            budget.spend()
            start = rules.apply(state, action)
            value = float("inf")
            for model in models:
                child = start
                for done in range(rounds):
                    if done and child.turn is not None:  # our own move opens the next round
                        budget.spend()
                        child = rules.apply(child, model(child))
                    child = _round(rules, child, me, turn_key, model, budget)
                found = terminal_score(rules, child, me) if child.turn is None else evaluate(child)
                value = min(value, found)
        except OutOfBudget:
            break
        looked += 1
        if value > best_value:
            best, best_value = action, value
    return Choice(best, budget.used, rounds if looked else 0, best_value)


def _round(
    rules: Rules,
    state: Any,
    me: int,
    turn_key: Any,
    reply: Callable[[Any], Any],
    budget: Budget,
) -> Any:
    """Play ``reply`` until ``me`` (or, in colour games, the same colour) is up again."""
    while state.turn is not None:
        key = getattr(state, "colour", None)
        if state.turn == me and key == turn_key:
            break
        budget.spend()
        state = rules.apply(state, reply(state))
    return state
