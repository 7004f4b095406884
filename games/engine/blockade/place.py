"""Blockade (``blockade``, docs/rules.md#blockade): place next to the opponent's last mark.

The first placement may be any cell; every later one must be an empty cell orthogonally
adjacent to the opponent's most recent placement. A seat with no placement loses.
"""

from __future__ import annotations

import re

from ..common import LEGAL, Leave, Legality, Pass
from ..errors import InvalidAction, brief
from ..notation import CELL, cell_from_name, format_cell, format_shared
from ..palettes import STANDARD
from ..protocol import SeatInfo
from ..words import gettext_noop
from .actions import Place, PlaceAction, parse_place
from .base import BlockadeFamilyRules
from .board import CELLS, FULL, INDEX, NEIGHBOURS, SIZE, bits, where
from .picture import grid_picture
from .state import LastMove, PlaceState
from .state_json import place_state_from_json

_PLACES = tuple(Place(cell) for cell in CELLS)
_TOKEN = re.compile(CELL)


class BlockadeRules(BlockadeFamilyRules[PlaceState, Place]):
    """Rules object of ``blockade``."""

    kind = "blockade"
    action_types = (Place, Pass)
    info = BlockadeFamilyRules.kind_info(
        kind,
        "Blockade",
        gettext_noop("Place your mark next to your opponent's last one; whoever cannot, loses."),
        (SeatInfo("X", STANDARD["blue"], "X"), SeatInfo("O", STANDARD["yellow"], "O")),
        gettext_noop("placements available"),
    )

    def initial(self) -> PlaceState:
        """The empty board, X (seat 0) to move."""
        return PlaceState(0, (0, 0), None, (True, True), 0, ())

    def state_from_json(self, obj: object) -> PlaceState:
        """Build a validated state from JSON; raises ``InvalidState`` with the reason."""
        return place_state_from_json(self, obj)

    def parse_action(self, obj: object) -> PlaceAction:
        """Untrusted JSON to a ``Place`` (or a pass, which is never legal)."""
        return parse_place(obj)

    def targets(self, state: PlaceState) -> int:
        """Mask of the cells the seat to move (or that would be) may place on."""
        empty = FULL & ~(state.marks[0] | state.marks[1])
        if state.last is None:
            return empty
        return NEIGHBOURS[INDEX[state.last.at]] & empty

    def can_act(self, state: PlaceState, seat: int) -> bool:
        return seat == self.mover(state) and self.targets(state) != 0

    def legal_actions(self, state: PlaceState) -> list[PlaceAction]:
        """Every legal placement, row-major; ``[]`` once the game is over."""
        if state.turn is None:
            return []
        return [_PLACES[i] for i in bits(self.targets(state))]

    def _legality(self, state: PlaceState, action: Place, turn: int) -> Legality:
        i = INDEX[action.at]
        if (self.targets(state) >> i) & 1:
            return LEGAL
        if ((state.marks[0] | state.marks[1]) >> i) & 1:
            return Legality(False, f"cell {where(action.at)} is occupied")
        assert state.last is not None
        return Legality(
            False,
            f"cell {where(action.at)} is not next to the opponent's last placement "
            f"{where(state.last.at)}",
        )

    def _act(self, state: PlaceState, action: Place, turn: int) -> PlaceState:
        marks = list(state.marks)
        marks[turn] |= 1 << INDEX[action.at]
        return PlaceState(
            None,
            tuple(marks),
            LastMove(turn, action.at),
            state.in_game,
            state.ply + 1,
            state.left_order,
        )

    def measure(self, state: PlaceState, seat: int) -> int | None:
        """Mobility: placements the seat to move has (0 once blocked); None for the other
        seat (its options depend on a placement not yet made) and for a seat that left."""
        if not state.in_game[seat] or seat != self.mover(state):
            return None
        return self.targets(state).bit_count()

    def format_action(self, event: PlaceAction | Leave) -> str:
        """``c2`` for a placement on [2, 2]; ``pass``; ``resign:1``."""
        if isinstance(event, Place):
            return format_cell(event.at)
        return format_shared(event)

    def _parse_token(self, token: str) -> Place:
        if _TOKEN.fullmatch(token) is None:
            raise InvalidAction(f"bad notation {brief(token)}")
        return Place(cell_from_name(token))

    def render(self, state: PlaceState) -> str:
        """The grid: ``X``/``O`` marks, the last one in brackets, ``*`` where the seat to
        move may place."""
        symbols = [c.initial for c in self.info.colours]
        options = self.targets(state) if state.turn is not None else 0
        cells: dict[int, str] = {}
        for i in range(SIZE * SIZE):
            owner = state.owner(i)
            cells[i] = symbols[owner] if owner is not None else "*" if (options >> i) & 1 else "."
        last = None if state.last is None else INDEX[state.last.at]
        return "\n".join([grid_picture(cells, last), *self.status(state)])
