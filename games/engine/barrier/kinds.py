"""The barrier kinds (docs/rules.md): seats, boards and barrier counts."""

from __future__ import annotations

from ..palettes import STANDARD
from ..words import gettext_noop
from .geometry import Geometry, SeatSpec
from .rules import BarrierRules

# Seat colours of docs/rules.md#bloqueio (their shades: palettes.json); Quoridor's seats use
# the same four in seat order.
_RED = SeatSpec((1, 5), 0, 10, "R", STANDARD["red"], "Red")
_BLUE = SeatSpec((5, 9), 1, 0, "B", STANDARD["blue"], "Blue")
_GREEN = SeatSpec((9, 5), 0, 0, "G", STANDARD["green"], "Green")
_YELLOW = SeatSpec((5, 1), 1, 10, "Y", STANDARD["yellow"], "Yellow")

_Q = (
    SeatSpec((8, 4), 0, 0, "0", STANDARD["red"], "Red"),
    SeatSpec((0, 4), 0, 8, "1", STANDARD["blue"], "Blue"),
    SeatSpec((4, 0), 1, 8, "2", STANDARD["green"], "Green"),
    SeatSpec((4, 8), 1, 0, "3", STANDARD["yellow"], "Yellow"),
)

RULES: dict[str, BarrierRules] = {
    "bloqueio": BarrierRules(
        "bloqueio",
        Geometry(11, 1, (_RED, _BLUE, _GREEN, _YELLOW)),
        6,
        "Bloqueio",
        gettext_noop("Four pawns race across a 9x9 board into their goal zones; 6 barriers each."),
    ),
    "bloqueio2": BarrierRules(
        "bloqueio2",
        Geometry(11, 1, (_RED, _GREEN)),
        12,
        gettext_noop("Bloqueio (2 players)"),
        gettext_noop("Two pawns race to the opposite goal zone; 12 barriers each."),
    ),
    "quoridor": BarrierRules(
        "quoridor",
        Geometry(9, 0, _Q[:2]),
        10,
        "Quoridor",
        gettext_noop("Reach the far row of a 9x9 board first; 10 walls each, never seal a path."),
    ),
    "quoridor4": BarrierRules(
        "quoridor4",
        Geometry(9, 0, _Q),
        5,
        gettext_noop("Quoridor (4 players)"),
        gettext_noop("Four pawns race to the opposite sides of a 9x9 board; 5 walls each."),
    ),
}
