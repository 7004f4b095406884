"""Bloqueio Online's rules engine: pure Python, no Django, no dependencies.

>>> from games import engine
>>> rules = engine.get("bloqueio")
>>> state = rules.apply(rules.initial(), rules.parse_action({"type": "move", "to": [2, 5]}))
>>> state.turn, state.ply
(1, 1)
"""

from __future__ import annotations

from .actions import PASS, Action, Barrier, Event, Leave, Legality, Move, Pass
from .errors import EngineError, IllegalAction, InvalidAction, InvalidState, UnknownKind
from .registry import KINDS, Rules, get
from .state import PlacedBarrier, Result, State

__all__ = [
    "KINDS",
    "PASS",
    "Action",
    "Barrier",
    "EngineError",
    "Event",
    "IllegalAction",
    "InvalidAction",
    "InvalidState",
    "Leave",
    "Legality",
    "Move",
    "Pass",
    "PlacedBarrier",
    "Result",
    "Rules",
    "State",
    "UnknownKind",
    "get",
]
