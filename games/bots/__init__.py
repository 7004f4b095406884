"""Computer opponents for every game kind: pure Python, no Django.

One entry point for the server, the tests and outside scripts::

    >>> from games import engine, bots
    >>> rules = engine.get("quoridor")
    >>> action = bots.choose(rules, rules.initial(), "medium", seed=1)
    >>> rules.is_legal(rules.initial(), action).ok
    True

``choose`` never returns an illegal action and returns ``engine.PASS`` when that is
the only legal one. The same state, level, seed and node budget always give the same
action (see docs/bots.md for how ``budget_s`` becomes a node budget).
"""

from __future__ import annotations

import importlib
import random
import time
from functools import cache
from typing import Any, TypedDict, Unpack, cast

from games import engine
from games.engine import PASS, Rules

from .core import CLOCK_SHARE, Budget, Choice, FamilyBot, SolvingBot, Verdict, only_action

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "perfect")
SOLVED_ONLY = "perfect"  # offered only for the kinds whose family bot solves them
THINKING = ("hard", SOLVED_ONLY)  # the levels that think for their budget (``budget_s``)
# How strong each level is, in a sentence the lobby shows, from the ladder's figures
# (bench/bot_ladder.py; docs/bots.md has the table they come from).
ABOUT: dict[str, str] = {
    "easy": (
        "A beginner: it often moves or places at random, and medium beats it in about nine"
        " games out of ten."
    ),
    "medium": (
        "Plays the best move it sees one move ahead, and at a four-seat table plans the race two "
        "moves ahead: it beats a simple greedy player in about nine two-player games out of ten "
        "in Bloqueio, Quoridor and Blockade Run, seven in ten in Blokus Duo and Blockade, and "
        "about one four-seat race in two against three of them."
    ),
    "hard": (
        "Thinks up to a second a move: it beats medium in most two-player games and a simple "
        "greedy player in nearly all of them (not in Blockade, where the first player wins "
        "with best play: there it wins half its games against medium and two in three against "
        "the greedy player); at a four-seat table, against three greedy players who all block "
        "the leader, it won 15 of 24 games in Bloqueio and 19 of 24 in four-player Quoridor."
    ),
    "perfect": (
        "Blockade and Blockade Run only: it proves who wins with best play and never lets a "
        "proved win go; the first player wins both."
    ),
}
DEFAULT_BUDGET_S = 1.0  # hard's default thinking time per move, at most

__all__ = ["ABOUT", "LEVELS", "THINKING", "Choice", "FamilyBot", "Verdict", "choose",
           "explain", "levels", "solve", "strongest", "think"]


@cache
def _bot(module: str) -> FamilyBot:
    return cast(FamilyBot, importlib.import_module(module))


def _family(rules: Rules) -> FamilyBot:
    """The bot module the family of ``rules`` registered (``engine.Family.bot``)."""
    module: str | None
    try:
        module = engine.family(rules.info.family).bot
    except KeyError:
        module = None
    if not module:
        raise ValueError(f"no bot for the {rules.info.family!r} family")
    return _bot(module)


def _solver(rules: Rules) -> SolvingBot | None:
    """The family bot, if it has solved ``rules``' kind."""
    family = _family(rules)
    solves = getattr(family, "solves", None)
    return cast(SolvingBot, family) if solves is not None and solves(rules) else None


def levels(rules: Rules) -> tuple[str, ...]:
    """The levels offered for ``rules``' kind: ``perfect`` only where it is solved."""
    try:
        solved = _solver(rules) is not None
    except ValueError:  # a family without a bot
        return ()
    return LEVELS if solved else tuple(x for x in LEVELS if x != SOLVED_ONLY)


def strongest(rules: Rules, level: str) -> str:
    """``perfect`` where ``rules``' kind is solved, else ``level``: what the analysis and
    the hints ask, so that their move agrees with the exact value they show."""
    return SOLVED_ONLY if SOLVED_ONLY in levels(rules) else level


def solve(rules: Rules, state: Any, *, budget_s: float = DEFAULT_BUDGET_S) -> Verdict | None:
    """The exact value of ``state`` for the seat to move where the kind is solved and
    the proof fits in ``budget_s``; None otherwise (or when the game is over)."""
    solver = _solver(rules)
    if solver is None or state.turn is None:
        return None
    nodes = max(1, round(solver.proofs_per_second(rules) * budget_s))
    return solver.solve(rules, state, Budget(nodes, budget_s * CLOCK_SHARE))


def think(
    rules: Rules,
    state: Any,
    level: str,
    *,
    seed: int,
    budget_s: float | None = None,
    nodes: int | None = None,
) -> Choice:
    """Pick an action for the seat to move and report what the search cost.

    ``hard`` searches ``nodes`` positions (default: the family's calibrated rate times
    ``budget_s``, itself 1 s by default), so its answer depends only on the seed and
    the node budget; ``budget_s`` is also a wall-clock cap that stops a search early on
    a slow machine (the only case where the answer can vary).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")
    started = time.perf_counter()
    family = _family(rules)
    solver = _solver(rules) if level == SOLVED_ONLY else None
    if level == SOLVED_ONLY and solver is None:
        raise ValueError(f"no perfect level for {rules.info.kind!r}: it is not solved")
    rng = random.Random(seed * 1_000_003 + state.ply)
    if level == "easy":  # easy samples a legal action: listing them all would cost more
        if state.turn is None:
            raise ValueError("the game is over: there is no action to choose")
        if rules.must_pass(state):
            return Choice(PASS)
        return Choice(family.easy(rules, state, rng))
    forced = only_action(rules, state)
    if forced is not None:
        return Choice(forced)
    if level == "medium":
        return Choice(family.medium(rules, state, rng))
    seconds = DEFAULT_BUDGET_S if budget_s is None else budget_s
    if nodes is None:
        rate = family.nodes_per_second(rules) if solver is None else solver.proofs_per_second(rules)
        nodes = max(1, round(rate * seconds))
    # the search stops at CLOCK_SHARE of the time, counted from the call, so the whole
    # move (candidate generation and answer included) stays under ``budget_s``
    left = seconds * CLOCK_SHARE - (time.perf_counter() - started)
    if solver is not None:
        return solver.perfect(rules, state, rng, Budget(nodes, max(0.0, left)))
    return family.hard(rules, state, rng, Budget(nodes, max(0.0, left)))


class Search(TypedDict, total=False):
    """How far ``hard`` searches: ``think``'s ``budget_s`` and ``nodes``."""

    budget_s: float | None
    nodes: int | None


def choose(rules: Rules, state: Any, level: str, *, seed: int, **search: Unpack[Search]) -> Any:
    """The action a bot of ``level`` plays for the seat to move (see ``think``)."""
    return think(rules, state, level, seed=seed, **search).action


def explain(rules: Rules, state: Any, action: Any) -> str:
    """A one-line reason, in words, why ``action`` is a good move for the seat to move."""
    return _family(rules).explain(rules, state, action)
