"""The toy family's bot (the ``games.bots.FamilyBot`` interface): step 2 when it can."""

from __future__ import annotations

import random
from typing import Any

from games.bots.core import Budget, Choice
from games.engine import Rules


def easy(rules: Rules, state: Any, rng: random.Random) -> Any:
    return rng.choice(rules.legal_actions(state))


def medium(rules: Rules, state: Any, rng: random.Random) -> Any:
    return max(rules.legal_actions(state), key=lambda step: step.by)


def hard(rules: Rules, state: Any, rng: random.Random, budget: Budget) -> Choice:
    budget.spend()
    return Choice(medium(rules, state, rng), nodes=1, depth=1)


def nodes_per_second(rules: Rules) -> int:
    return 1000


def explain(rules: Rules, state: Any, action: Any) -> str:
    return f"steps {action.by} toward the goal"
