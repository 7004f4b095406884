"""Immutable game states and results of the barrier games."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..common import Result, TurnState, cells_json, state_json
from .actions import Cell, Orientation

__all__ = ["PlacedBarrier", "Result", "State"]


@dataclass(frozen=True, slots=True)
class PlacedBarrier:
    """A barrier on the board and the seat that placed it (it stays if that seat leaves)."""

    at: Cell
    orientation: Orientation
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"at": [self.at[0], self.at[1]], "orientation": self.orientation, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class State(TurnState):
    """One position. Never mutated: ``Rules.apply`` returns a new one.

    The public fields are exactly the JSON state. The ``hw`` .. ``walls`` fields are
    bitboards derived from ``barriers`` (carried along so ``apply`` stays incremental)
    and ``cache`` holds lazily computed answers (legal actions, paths); none of them
    take part in equality or hashing.
    """

    kind: str
    turn: int | None
    pawns: tuple[Cell | None, ...]
    barriers: tuple[PlacedBarrier, ...]
    barriers_left: tuple[int, ...]
    in_game: tuple[bool, ...]
    ply: int
    left_order: tuple[int, ...]
    hw: int = field(default=0, compare=False, repr=False)  # H anchors in use
    vw: int = field(default=0, compare=False, repr=False)  # V anchors in use
    down: int = field(default=0, compare=False, repr=False)  # cells with a blocked down edge
    right: int = field(default=0, compare=False, repr=False)  # cells with a blocked right edge
    walls: tuple[int, ...] = field(default=(), compare=False, repr=False)  # wall components
    cache: dict[str, Any] = field(
        init=False, default_factory=dict, compare=False, repr=False, hash=False
    )

    def to_json(self) -> dict[str, Any]:
        """The API's state JSON (docs/api.md), plus ``ply`` and ``left_order`` as in the vectors."""
        return state_json(
            self,
            pawns=cells_json(self.pawns),
            barriers=[b.to_json() for b in self.barriers],
            barriers_left=list(self.barriers_left),
        )
