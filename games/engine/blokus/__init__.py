"""Blokus (classic 4 colours, classic for 2 seats, Duo): a pure-Python rules engine.

``RULES`` maps each kind to its rules object (the ``Rules`` protocol of protocol.py);
``FAMILY`` is the one registration the registry lists. No Django here.

>>> from games.engine.blokus import RULES
>>> rules = RULES["blokus"]
>>> state = rules.apply(rules.initial(), {"type": "place", "piece": "I1", "cells": [[0, 0]]})
>>> state.turn, state.colour, len(rules.legal_actions(state))
(1, 1, 58)
"""

from __future__ import annotations

from ..family import Family
from ..palettes import STANDARD
from ..protocol import SeatInfo
from ..words import gettext_noop
from .actions import Place
from .geometry import Geometry
from .rules import BlokusRules
from .state import State

BLUE = SeatInfo("blue", STANDARD["blue"], "B")
YELLOW = SeatInfo("yellow", STANDARD["yellow"], "Y")
RED = SeatInfo("red", STANDARD["red"], "R")
GREEN = SeatInfo("green", STANDARD["green"], "G")
# Duo: the purple and orange of the original Blokus Duo box.
PURPLE = SeatInfo("purple", STANDARD["purple"], "P")
ORANGE = SeatInfo("orange", STANDARD["orange"], "O")

_CLASSIC = Geometry(20, ((0, 0), (0, 19), (19, 19), (19, 0)))
_DUO = Geometry(14, ((4, 4), (9, 9)))
_FOUR = (BLUE, YELLOW, RED, GREEN)

RULES: dict[str, BlokusRules] = {
    "blokus": BlokusRules(
        "blokus",
        "Blokus",
        gettext_noop(
            "Four colours fit their 21 pieces on a 20x20 board, each touching its own "
            "only corner to corner."
        ),
        _CLASSIC,
        _FOUR,
        (0, 1, 2, 3),
        "corner",
    ),
    "blokus2": BlokusRules(
        "blokus2",
        gettext_noop("Blokus (2 players)"),
        gettext_noop(
            "Classic Blokus for two: each player plays two colours (blue and red, yellow "
            "and green)."
        ),
        _CLASSIC,
        _FOUR,
        (0, 1, 0, 1),
        "corner",
    ),
    "blokus_duo": BlokusRules(
        "blokus_duo",
        "Blokus Duo",
        # The start squares as the notation names them (tests/engine/test_blokus_rules.py)
        gettext_noop(
            "Two colours on a 14x14 board, starting from e4 and j9; most squares placed wins."
        ),
        _DUO,
        (PURPLE, ORANGE),
        (0, 1),
        "start square",
    ),
}

# Its bot, boards and rules pages where every family keeps them (family.Family).
FAMILY = Family("blokus", RULES)

__all__ = ["FAMILY", "RULES", "BlokusRules", "Geometry", "Place", "State"]
