"""Immutable positions of the blockade kinds; public fields are exactly the JSON state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..common import Cell, TurnState, cells_json, state_json
from .board import SIZE


@dataclass(frozen=True, slots=True)
class LastMove:
    """Who acted last and where to (Blockade: the placement; Blockade Run: the step)."""

    seat: int
    at: Cell

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "at": [self.at[0], self.at[1]]}


@dataclass(frozen=True, slots=True)
class PlaceState(TurnState):
    """A Blockade position; ``marks[s]`` is the mask of seat s's symbols."""

    turn: int | None
    marks: tuple[int, ...]
    last: LastMove | None
    in_game: tuple[bool, ...]
    ply: int
    left_order: tuple[int, ...]

    @property
    def board(self) -> tuple[tuple[int | None, ...], ...]:
        """``board[r][c]``: the seat whose symbol is there, or None."""
        return tuple(tuple(self.owner(r * SIZE + c) for c in range(SIZE)) for r in range(SIZE))

    def owner(self, i: int) -> int | None:
        for seat, mask in enumerate(self.marks):
            if (mask >> i) & 1:
                return seat
        return None

    def to_json(self) -> dict[str, Any]:
        return state_json(
            self,
            board=[list(row) for row in self.board],
            last=None if self.last is None else self.last.to_json(),
        )


@dataclass(frozen=True, slots=True)
class RunState(TurnState):
    """A Blockade Run position; ``blocked`` is the mask of ``blocks`` (derived)."""

    turn: int | None
    pawns: tuple[Cell | None, ...]
    blocks: tuple[Cell, ...]  # in placement order
    last: LastMove | None
    in_game: tuple[bool, ...]
    ply: int
    left_order: tuple[int, ...]
    blocked: int = field(default=0, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return state_json(
            self,
            pawns=cells_json(self.pawns),
            blocks=cells_json(self.blocks),
            last=None if self.last is None else self.last.to_json(),
        )


__all__ = ["LastMove", "PlaceState", "RunState"]
