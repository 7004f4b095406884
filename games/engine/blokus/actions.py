"""The Blokus action value and the strict parser for untrusted action JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..common import PASS, Cell, Leave, Pass, parse_cell, parse_object
from ..errors import InvalidAction, brief
from .pieces import INDEX, NAMES

MAX_CELLS = 5


@dataclass(frozen=True, slots=True)
class Place:
    """Put ``piece`` on ``cells`` (sorted row-major, as in events and legal lists)."""

    piece: str
    cells: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "piece": self.piece, "cells": [[r, c] for r, c in self.cells]}


Action = Place | Pass
Event = Place | Pass | Leave

_KEYS = {"place": {"type", "piece", "cells"}, "pass": {"type"}}


def parse_piece(value: object) -> str:
    """A piece name exactly as docs/rules.md#blokus spells it (no case folding, no spaces)."""
    if not isinstance(value, str):
        raise InvalidAction(f"'piece' must be a piece name, not {brief(value)}")
    if value not in INDEX:
        raise InvalidAction(f"unknown piece {brief(value)}: one of {' '.join(NAMES)}")
    return value


def parse_place_action(obj: object, size: int) -> Action:
    """Parse a Blokus action; the shape itself is checked by the rules (it is illegal,
    not malformed, to put a name on the wrong squares)."""
    kind, obj = parse_object(obj, _KEYS)
    if kind == "pass":
        return PASS
    piece = parse_piece(obj["piece"])
    raw = obj["cells"]
    if not isinstance(raw, list):
        raise InvalidAction(f"'cells' must be a list of [row, col], not {brief(raw)}")
    if not 1 <= len(raw) <= MAX_CELLS:
        raise InvalidAction(f"'cells' must list 1 to {MAX_CELLS} squares, not {len(raw)}")
    cells = [parse_cell(item, "cell", 0, size - 1) for item in raw]
    unique = sorted(set(cells))
    if len(unique) != len(cells):
        raise InvalidAction("'cells' lists a square twice")
    return Place(piece, tuple(unique))
