"""The blockade family on a 5x5 grid: ``blockade`` and ``blockade_run`` (docs/rules.md).

Two seats; a seat with no legal action on its turn loses (``blocked``), so nobody ever
passes. ``RULES`` maps each kind to its shared, stateless rules object; ``FAMILY`` is
the family's one registration (its rules, bot, boards and rules pages).
"""

from __future__ import annotations

from ..family import Family
from .actions import Place, Run
from .base import BlockadeFamilyRules
from .place import BlockadeRules
from .run import BlockadeRunRules
from .state import LastMove, PlaceState, RunState

RULES: dict[str, BlockadeFamilyRules] = {
    "blockade": BlockadeRules(),
    "blockade_run": BlockadeRunRules(),
}

# Its bot, boards and rules pages where every family keeps them (family.Family).
FAMILY = Family("blockade", RULES)

__all__ = [
    "FAMILY",
    "RULES",
    "BlockadeFamilyRules",
    "BlockadeRules",
    "BlockadeRunRules",
    "LastMove",
    "Place",
    "PlaceState",
    "Run",
    "RunState",
]
