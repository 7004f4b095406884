"""Action values of the blockade kinds and their strict JSON parsers (docs/rules.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..common import PASS, Cell, Leave, Pass, parse_cell, parse_object
from .board import SIZE


@dataclass(frozen=True, slots=True)
class Place:
    """Blockade: put the mover's symbol on ``at``."""

    at: Cell

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "at": [self.at[0], self.at[1]]}


@dataclass(frozen=True, slots=True)
class Run:
    """Blockade Run: step the pawn to ``to``, then block ``block`` (None: no block)."""

    to: Cell
    block: Cell | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "run", "to": [self.to[0], self.to[1]]}
        if self.block is not None:
            out["block"] = [self.block[0], self.block[1]]
        return out


PlaceAction = Place | Pass
RunAction = Run | Pass
PlaceEvent = Place | Pass | Leave
RunEvent = Run | Pass | Leave

_PLACE_KEYS = {"place": {"type", "at"}, "pass": {"type"}}
_RUN_KEYS = {"run": {"type", "to"}, "pass": {"type"}}
_RUN_BLOCK_KEYS = {"run": {"type", "to", "block"}, "pass": {"type"}}


def parse_place(obj: object) -> PlaceAction:
    """``{"type": "place", "at": [r, c]}`` (or a pass); raises ``InvalidAction``."""
    kind, obj = parse_object(obj, _PLACE_KEYS)
    if kind == "pass":
        return PASS
    return Place(parse_cell(obj["at"], "'at'", 0, SIZE - 1))


def parse_run(obj: object) -> RunAction:
    """``{"type": "run", "to": [r, c], "block"?: [r, c]}`` (or a pass); ``InvalidAction``."""
    keys = _RUN_BLOCK_KEYS if isinstance(obj, dict) and "block" in obj else _RUN_KEYS
    kind, obj = parse_object(obj, keys)
    if kind == "pass":
        return PASS
    to = parse_cell(obj["to"], "'to'", 0, SIZE - 1)
    if "block" not in obj:
        return Run(to)
    return Run(to, parse_cell(obj["block"], "'block'", 0, SIZE - 1))
