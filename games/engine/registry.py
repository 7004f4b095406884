"""The registered game kinds and their rules objects (built once at import)."""

from __future__ import annotations

from .barrier import Geometry, SeatSpec
from .errors import UnknownKind
from .protocol import Rules
from .rules import BarrierRules

_RED = SeatSpec((1, 5), 0, 10, "R", "#ef4444")
_BLUE = SeatSpec((5, 9), 1, 0, "B", "#3b82f6")
_GREEN = SeatSpec((9, 5), 0, 0, "G", "#22c55e")
_YELLOW = SeatSpec((5, 1), 1, 10, "Y", "#f59e0b")

_Q = (
    SeatSpec((8, 4), 0, 0, "0", ""),
    SeatSpec((0, 4), 0, 8, "1", ""),
    SeatSpec((4, 0), 1, 8, "2", ""),
    SeatSpec((4, 8), 1, 0, "3", ""),
)

_RULES: dict[str, BarrierRules] = {
    "bloqueio": BarrierRules("bloqueio", Geometry(11, 1, (_RED, _BLUE, _GREEN, _YELLOW)), 6),
    "bloqueio2": BarrierRules("bloqueio2", Geometry(11, 1, (_RED, _GREEN)), 12),
    "quoridor": BarrierRules("quoridor", Geometry(9, 0, _Q[:2]), 10),
    "quoridor4": BarrierRules("quoridor4", Geometry(9, 0, _Q), 5),
}

KINDS: tuple[str, ...] = tuple(_RULES)


def get(kind: str) -> Rules:
    """The rules of ``kind``; raises ``UnknownKind``."""
    try:
        return _RULES[kind]
    except (KeyError, TypeError):
        raise UnknownKind(f"unknown game kind {kind!r}") from None
