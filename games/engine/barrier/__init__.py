"""The barrier-race family: bloqueio, bloqueio2, quoridor, quoridor4 (docs/rules.md).

Pawns race to a goal side while barriers, which may never seal anyone's path, slow
them down. ``RULES`` maps each kind to its shared, stateless rules object; ``FAMILY``
is the family's one registration (its rules, bot, boards and rules pages).
"""

from __future__ import annotations

from ..family import Family
from .actions import Action, Barrier, Event, Move
from .kinds import RULES
from .rules import BarrierRules
from .state import PlacedBarrier, State

# Its bot, boards and rules pages where every family keeps them (family.Family).
FAMILY = Family("barrier", RULES)

__all__ = [
    "FAMILY",
    "RULES",
    "Action",
    "Barrier",
    "BarrierRules",
    "Event",
    "Move",
    "PlacedBarrier",
    "State",
]
