"""Immutable Blokus positions: per-colour bitboards and hand bitmasks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..common import TurnState, state_json
from .geometry import Geometry
from .pieces import hand_names


@dataclass(frozen=True, slots=True)
class State(TurnState):
    """One position. Never mutated: ``Rules.apply`` returns a new one.

    ``occ[c]`` is colour c's squares as a bitboard and ``hand[c]`` its pieces in hand
    as a bitmask over the canonical order; the JSON ``board`` and ``hands`` are derived
    from them. ``geo`` and ``cache`` (lazily computed answers: legal pids, the board)
    take no part in equality or hashing.
    """

    kind: str
    turn: int | None
    colour: int | None
    occ: tuple[int, ...]
    hand: tuple[int, ...]
    out: tuple[bool, ...]
    last_piece: tuple[str | None, ...]
    in_game: tuple[bool, ...]
    ply: int
    left_order: tuple[int, ...]
    geo: Geometry = field(compare=False, repr=False)
    cache: dict[str, Any] = field(
        init=False, default_factory=dict, compare=False, repr=False, hash=False
    )

    @property
    def occupied(self) -> int:
        m = 0
        for o in self.occ:
            m |= o
        return m

    @property
    def board(self) -> tuple[tuple[int | None, ...], ...]:
        """``board[r][c]``: the colour on that square, or None."""
        cached = self.cache.get("board")
        if cached is None:
            geo = self.geo
            rows: list[list[int | None]] = [[None] * geo.size for _ in range(geo.size)]
            for colour, m in enumerate(self.occ):
                for r, c in geo.squares(m):
                    rows[r][c] = colour
            cached = tuple(tuple(row) for row in rows)
            self.cache["board"] = cached
        return cached

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]:
        """Piece names still in hand, per colour, in canonical order."""
        return tuple(hand_names(h) for h in self.hand)

    def to_json(self) -> dict[str, Any]:
        """The API's state JSON (docs/api.md), plus ``ply`` and ``left_order`` as in the vectors."""
        return state_json(
            self,
            colour=self.colour,
            board=[list(row) for row in self.board],
            hands=[list(h) for h in self.hands],
            out=list(self.out),
            last_piece=list(self.last_piece),
        )
