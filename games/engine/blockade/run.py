"""Blockade Run (``blockade_run``, docs/rules.md#blockade-run): step, then block a cell.

Seat 0 starts on [0,2] and wins on reaching row 4; seat 1 starts on [4,2] and wins on
reaching row 0. A run steps to an orthogonally adjacent cell that is neither blocked nor
the opponent's, then blocks an empty cell (the one just left is allowed). The block is
left out exactly when the step wins or no empty cell remains. No step: the seat loses.
"""

from __future__ import annotations

import re

from ..common import LEGAL, Cell, Leave, Legality, Pass
from ..errors import InvalidAction, brief
from ..notation import CELL, cell_from_name, format_cell, format_shared
from ..palettes import STANDARD
from ..protocol import SeatInfo
from ..words import gettext_noop
from .actions import Run, RunAction, parse_run
from .base import BlockadeFamilyRules
from .board import CELLS, FULL, INDEX, NEIGHBOURS, SIZE, bits, row_mask, where
from .picture import grid_picture
from .state import LastMove, RunState
from .state_json import run_state_from_json

STARTS: tuple[Cell, Cell] = ((0, 2), (4, 2))
GOALS = (row_mask(SIZE - 1), row_mask(0))  # per seat: the cells whose entry wins
_STEPS = tuple(Run(cell) for cell in CELLS)  # a step without a block
_RUNS = tuple(tuple(Run(to, block) for block in CELLS) for to in CELLS)
_TOKEN = re.compile(f"({CELL})(?:\\^({CELL}))?")


class BlockadeRunRules(BlockadeFamilyRules[RunState, Run]):
    """Rules object of ``blockade_run``."""

    kind = "blockade_run"
    action_types = (Run, Pass)
    info = BlockadeFamilyRules.kind_info(
        kind,
        "Blockade Run",
        gettext_noop("Race to the far row of a 5x5 board, blocking one cell after every step."),
        (SeatInfo("Red", STANDARD["red"], "R"), SeatInfo("Green", STANDARD["green"], "G")),
        gettext_noop("steps available"),
    )

    def initial(self) -> RunState:
        """Both pawns on their start cells, no blocks, seat 0 to move."""
        return RunState(0, STARTS, (), None, (True, True), 0, (), 0)

    def state_from_json(self, obj: object) -> RunState:
        """Build a validated state from JSON; raises ``InvalidState`` with the reason."""
        return run_state_from_json(self, obj)

    def parse_action(self, obj: object) -> RunAction:
        """Untrusted JSON to a ``Run`` (or a pass, which is never legal)."""
        return parse_run(obj)

    @staticmethod
    def _pawn_mask(state: RunState, seat: int) -> int:
        pawn = state.pawns[seat]
        return 0 if pawn is None else 1 << INDEX[pawn]

    def steps(self, state: RunState, seat: int) -> int:
        """Mask of the cells ``seat``'s pawn could step to (0 once it left)."""
        pawn = state.pawns[seat]
        if pawn is None:
            return 0
        return NEIGHBOURS[INDEX[pawn]] & ~state.blocked & ~self._pawn_mask(state, 1 - seat)

    def can_act(self, state: RunState, seat: int) -> bool:
        return self.steps(state, seat) != 0

    def goal_seats(self, state: RunState) -> list[int]:
        """The seats whose pawn stands in their goal row (at most one in a real game)."""
        return [s for s in range(self.seats) if self._pawn_mask(state, s) & GOALS[s]]

    def goal_winner(self, state: RunState) -> int | None:
        seats = self.goal_seats(state)
        return seats[0] if seats else None

    def legal_actions(self, state: RunState) -> list[RunAction]:
        """Every legal run: by step cell, then by block cell (row-major); ``[]`` once over."""
        turn = state.turn
        if turn is None:
            return []
        opponent = self._pawn_mask(state, 1 - turn)
        free = FULL & ~state.blocked & ~opponent
        out: list[RunAction] = []
        for t in bits(self.steps(state, turn)):
            empty = free & ~(1 << t)
            if (GOALS[turn] >> t) & 1 or not empty:
                out.append(_STEPS[t])
            else:
                row = _RUNS[t]
                out.extend(row[b] for b in bits(empty))
        return out

    def _legality(self, state: RunState, action: Run, turn: int) -> Legality:
        pawn = state.pawns[turn]
        assert pawn is not None
        t = INDEX[action.to]
        if not (NEIGHBOURS[INDEX[pawn]] >> t) & 1:
            return Legality(False, f"cell {where(action.to)} is not a step from {where(pawn)}")
        if (state.blocked >> t) & 1:
            return Legality(False, f"cell {where(action.to)} is blocked")
        opponent = self._pawn_mask(state, 1 - turn)
        if (opponent >> t) & 1:
            return Legality(False, f"cell {where(action.to)} is the opponent's")
        empty = FULL & ~state.blocked & ~opponent & ~(1 << t)
        if (GOALS[turn] >> t) & 1:
            if action.block is not None:
                return Legality(False, "a winning step places no block")
            return LEGAL
        if action.block is None:
            return LEGAL if not empty else Legality(False, "a run must block an empty cell")
        b = INDEX[action.block]
        if (state.blocked >> b) & 1:
            return Legality(False, f"cell {where(action.block)} is already blocked")
        if not (empty >> b) & 1:
            return Legality(False, f"cell {where(action.block)} is under a pawn")
        return LEGAL

    def _act(self, state: RunState, action: Run, turn: int) -> RunState:
        pawns = list(state.pawns)
        pawns[turn] = action.to
        blocks, blocked = state.blocks, state.blocked
        if action.block is not None:
            blocks = (*blocks, action.block)
            blocked |= 1 << INDEX[action.block]
        return RunState(
            None,
            tuple(pawns),
            blocks,
            LastMove(turn, action.to),
            state.in_game,
            state.ply + 1,
            state.left_order,
            blocked,
        )

    def _vacate(self, state: RunState, seat: int) -> dict[str, object]:
        return {"pawns": tuple(None if s == seat else p for s, p in enumerate(state.pawns))}

    def measure(self, state: RunState, seat: int) -> int | None:
        """Mobility: how many cells the seat's pawn could step to now; None once it left."""
        if not state.in_game[seat]:
            return None
        return self.steps(state, seat).bit_count()

    def format_action(self, event: RunAction | Leave) -> str:
        """``c1^d3``: step to [1, 2], block [3, 3]; ``c4``: a step without a block."""
        if isinstance(event, Run):
            text = format_cell(event.to)
            return text if event.block is None else f"{text}^{format_cell(event.block)}"
        return format_shared(event)

    def _parse_token(self, token: str) -> Run:
        m = _TOKEN.fullmatch(token)
        if m is None:
            raise InvalidAction(f"bad notation {brief(token)}")
        block = m.group(2)
        return Run(cell_from_name(m.group(1)), None if block is None else cell_from_name(block))

    def render(self, state: RunState) -> str:
        """The grid: pawns ``R``/``G`` (the last to run in brackets), blocks ``#``."""
        symbols = [c.initial for c in self.info.colours]
        cells = {i: "#" if (state.blocked >> i) & 1 else "." for i in range(SIZE * SIZE)}
        for seat, pawn in enumerate(state.pawns):
            if pawn is not None:
                cells[INDEX[pawn]] = symbols[seat]
        last = None if state.last is None else INDEX[state.last.at]
        goals = "goals: R -> row 4, G -> row 0"
        return "\n".join([grid_picture(cells, last), goals, *self.status(state)])
