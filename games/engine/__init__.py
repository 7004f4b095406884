"""Bloqueio Online's rules engine: pure Python, no Django, no dependencies.

>>> from games import engine
>>> rules = engine.get("bloqueio")
>>> state = rules.apply(rules.initial(), rules.parse_action({"type": "move", "to": [2, 5]}))
>>> state.turn, state.ply
(1, 1)
"""

from __future__ import annotations

from .actions import Action, Barrier, Event, Move
from .common import LEAVE_REASONS, PASS, Leave, Legality, Pass, Result
from .errors import EngineError, IllegalAction, InvalidAction, InvalidState, UnknownKind
from .protocol import GameState, KindInfo, Rules, SeatInfo
from .registry import KINDS, get
from .state import PlacedBarrier, State

__all__ = [
    "KINDS",
    "LEAVE_REASONS",
    "PASS",
    "Action",
    "Barrier",
    "EngineError",
    "Event",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "InvalidState",
    "KindInfo",
    "Leave",
    "Legality",
    "Move",
    "Pass",
    "PlacedBarrier",
    "Result",
    "Rules",
    "SeatInfo",
    "State",
    "UnknownKind",
    "get",
]
