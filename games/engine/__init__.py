"""Bloqueio Online's rules engine: pure Python, no Django, no dependencies.

The top level is the shared core (the ``Rules`` protocol, results, errors, notation
helpers, the registry of families); each family of kinds lives in its own subpackage (``barrier/``,
``blockade/``, ...) and is reached only through ``get(kind)`` and the protocol.

>>> from games import engine
>>> rules = engine.get("bloqueio")
>>> state = rules.apply(rules.initial(), rules.parse_action({"type": "move", "to": [2, 5]}))
>>> state.turn, state.ply
(1, 1)
"""

from __future__ import annotations

from .common import LEAVE_REASONS, PASS, Leave, Legality, Pass, Result
from .errors import EngineError, IllegalAction, InvalidAction, InvalidState, UnknownKind
from .family import Family
from .protocol import GameState, KindInfo, Rules, SeatInfo
from .registry import family, family_of, get, kinds, register, unregister

__all__ = [
    "KINDS",
    "LEAVE_REASONS",
    "PASS",
    "EngineError",
    "Family",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "InvalidState",
    "KindInfo",
    "Leave",
    "Legality",
    "Pass",
    "Result",
    "Rules",
    "SeatInfo",
    "UnknownKind",
    "family",
    "family_of",
    "get",
    "kinds",
    "register",
    "unregister",
]


def __getattr__(name: str) -> tuple[str, ...]:
    if name == "KINDS":  # every kind registered now (registry.kinds), read on each access
        return kinds()
    raise AttributeError(name)
