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

import random
from types import ModuleType
from typing import Any

from games.engine import Rules

from . import barrier, blockade, blokus
from .core import Budget, Choice, only_action

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_BUDGET_S = 1.0  # hard's default thinking time per move, at most

# The only place that maps a family to its evaluation module.
_FAMILIES: dict[str, ModuleType] = {"barrier": barrier, "blockade": blockade, "blokus": blokus}

__all__ = ["LEVELS", "Choice", "choose", "explain", "think"]


def _family(rules: Rules) -> ModuleType:
    try:
        return _FAMILIES[rules.info.family]
    except KeyError:
        raise ValueError(f"no bot for the {rules.info.family!r} family") from None


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
    family = _family(rules)
    forced = only_action(rules, state)
    if forced is not None:
        return Choice(forced)
    rng = random.Random(seed * 1_000_003 + state.ply)
    if level == "easy":
        return Choice(family.easy(rules, state, rng))
    if level == "medium":
        return Choice(family.medium(rules, state, rng))
    seconds = DEFAULT_BUDGET_S if budget_s is None else budget_s
    if nodes is None:
        nodes = max(1, round(family.nodes_per_second(rules) * seconds))
    return family.hard(rules, state, rng, Budget(nodes, seconds))


def choose(
    rules: Rules,
    state: Any,
    level: str,
    *,
    seed: int,
    budget_s: float | None = None,
    nodes: int | None = None,
) -> Any:
    """The action a bot of ``level`` plays for the seat to move (see ``think``)."""
    return think(rules, state, level, seed=seed, budget_s=budget_s, nodes=nodes).action


def explain(rules: Rules, state: Any, action: Any) -> str:
    """A one-line reason, in words, why ``action`` is a good move for the seat to move."""
    return _family(rules).explain(rules, state, action)
