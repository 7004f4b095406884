"""Strict reading of blockade-kind state JSON: malformed or unreachable is ``InvalidState``.

Besides shapes and ranges it checks what the JSON can show of a real game: seat 0 moves
first and seats alternate, ``ply`` counts exactly the placements (runs) and leaves,
``last`` is the latest of them, ``turn`` is null exactly when the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import Cell, state_cell, state_frame, state_int, state_list
from ..errors import InvalidState, brief
from .board import INDEX, SIZE
from .state import LastMove, PlaceState, RunState

if TYPE_CHECKING:
    from .place import BlockadeRules
    from .run import BlockadeRunRules

PLACE_KEYS = ("turn", "board", "last", "in_game", "ply", "left_order")
RUN_KEYS = ("turn", "pawns", "blocks", "last", "in_game", "ply", "left_order")


def _cell(value: object, what: str) -> Cell:
    return state_cell(value, what, SIZE, SIZE)


def _last(value: object) -> LastMove | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"seat", "at"}:
        raise InvalidState(f"last is null or {{seat, at}}, not {brief(value)}")
    return LastMove(state_int(value["seat"], "last seat", 0, 1), _cell(value["at"], "last at"))


def _check_turn(turn: int | None, over: bool, mover: int) -> None:
    if over and turn is not None:
        raise InvalidState("the game is over, so turn must be null")
    if not over and turn != mover:
        raise InvalidState(f"turn must be {mover}, the seat whose turn it is")


def place_state_from_json(rules: BlockadeRules, obj: object) -> PlaceState:
    """A Blockade state: ``board`` of 5 rows of 5 cells, each null, 0 or 1."""
    obj, turn, in_game, ply, left_order = state_frame(obj, PLACE_KEYS, 2, rules.max_plies)
    marks = [0, 0]
    for r, row in enumerate(state_list(obj["board"], "board", SIZE)):
        for c, v in enumerate(state_list(row, f"board row {r}", SIZE)):
            if v is not None:
                marks[state_int(v, f"board cell [{r},{c}]", 0, 1)] |= 1 << (r * SIZE + c)
    n0, n1 = marks[0].bit_count(), marks[1].bit_count()
    if n0 - n1 not in (0, 1):
        raise InvalidState(f"seat 0 placed {n0} and seat 1 {n1}: they alternate, 0 first")
    if ply != n0 + n1 + len(left_order):
        raise InvalidState("ply must count exactly the placements and the seats that left")
    last = _last(obj["last"])
    if (last is None) != (n0 + n1 == 0):
        raise InvalidState("last is null exactly when the board is empty")
    if last is not None:
        if last.seat != (0 if n0 > n1 else 1):
            raise InvalidState(f"the last placement was seat {1 - last.seat}'s, not {last.seat}'s")
        if not (marks[last.seat] >> INDEX[last.at]) & 1:
            raise InvalidState(f"last placement {list(last.at)} is not seat {last.seat}'s mark")
    state = PlaceState(turn, (marks[0], marks[1]), last, in_game, ply, left_order)
    over = sum(in_game) <= 1 or ply >= rules.max_plies or not rules.targets(state)
    _check_turn(turn, over, 0 if n0 == n1 else 1)
    return state


def run_state_from_json(rules: BlockadeRunRules, obj: object) -> RunState:
    """A Blockade Run state: ``pawns`` (null once left), ``blocks`` in placement order."""
    obj, turn, in_game, ply, left_order = state_frame(obj, RUN_KEYS, 2, rules.max_plies)
    pawns: list[Cell | None] = []
    for seat, raw in enumerate(state_list(obj["pawns"], "pawns", 2)):
        if (raw is None) == in_game[seat]:
            raise InvalidState(f"seat {seat} has a pawn exactly when it is in the game")
        pawns.append(None if raw is None else _cell(raw, f"pawn of seat {seat}"))
    if pawns[0] is not None and pawns[0] == pawns[1]:
        raise InvalidState(f"two pawns on {list(pawns[0])}")
    blocks: list[Cell] = []
    blocked = 0
    for raw in state_list(obj["blocks"], "blocks"):
        cell = _cell(raw, "block")
        bit = 1 << INDEX[cell]
        if blocked & bit:
            raise InvalidState(f"cell {list(cell)} is blocked twice")
        if cell in pawns:
            raise InvalidState(f"a pawn stands on the blocked cell {list(cell)}")
        blocked |= bit
        blocks.append(cell)
    last = _last(obj["last"])
    state = RunState(turn, tuple(pawns), tuple(blocks), last, in_game, ply, left_order, blocked)
    winners = rules.goal_seats(state)
    if len(winners) > 1:
        raise InvalidState("both pawns stand in their goals")
    winner = winners[0] if winners else None
    runs = ply - len(left_order)
    if runs != len(blocks) + (winner is not None):
        raise InvalidState("ply must count exactly the runs (one block each) and the leaves")
    if (last is None) != (runs == 0):
        raise InvalidState("last is null exactly when nobody has run yet")
    if last is not None:
        if last.seat != (runs - 1) % 2:
            raise InvalidState(f"the last run was seat {(runs - 1) % 2}'s, not {last.seat}'s")
        pawn = pawns[last.seat]
        if pawn is not None and pawn != last.at:
            raise InvalidState(f"last run {list(last.at)} is not where seat {last.seat} stands")
        if (blocked >> INDEX[last.at]) & 1:
            raise InvalidState(f"last run {list(last.at)} is a blocked cell")
    if winner is not None and (last is None or last.seat != winner):
        raise InvalidState(f"seat {winner} stands in its goal but did not run last")
    for seat, pawn in enumerate(pawns):
        runs_of_seat = (runs + 1 - seat) // 2
        if pawn is not None and runs_of_seat == 0 and pawn != rules.initial().pawns[seat]:
            raise InvalidState(f"seat {seat} has not run yet but is not on its start cell")
    mover = runs % 2
    over = (
        winner is not None
        or sum(in_game) <= 1
        or ply >= rules.max_plies
        or not rules.can_act(state, mover)
    )
    _check_turn(turn, over, mover)
    return state
