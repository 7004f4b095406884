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

from .core import CLOCK_SHARE, Budget, Choice, FamilyBot, only_action

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
# How strong each level is, in a sentence the lobby shows, from the ladder's figures
# (bench/bot_ladder.py; docs/bots.md has the table they come from).
ABOUT: dict[str, str] = {
    "easy": (
        "A beginner: it often moves or places at random, and medium beats it in about nine"
        " games out of ten."
    ),
    "medium": (
        "Plays the best move it sees one move ahead, and at a four-seat table plans the race two "
        "moves ahead: it beats a simple greedy player in nine two-player games out of ten and "
        "about one four-seat race in two against three of them."
    ),
    "hard": (
        "Thinks up to a second a move: it beats medium in most two-player games and a simple "
        "greedy player in nearly all of them, and wins six to eight four-seat races in ten "
        "against three greedy players and about six in ten against three medium."
    ),
}
DEFAULT_BUDGET_S = 1.0  # hard's default thinking time per move, at most

__all__ = ["ABOUT", "LEVELS", "Choice", "FamilyBot", "choose", "explain", "think"]


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
        nodes = max(1, round(family.nodes_per_second(rules) * seconds))
    # the search stops at CLOCK_SHARE of the time, counted from the call, so the whole
    # move (candidate generation and answer included) stays under ``budget_s``
    left = seconds * CLOCK_SHARE - (time.perf_counter() - started)
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
