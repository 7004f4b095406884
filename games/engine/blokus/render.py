"""ASCII board pictures for terminals, logs and tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import BlokusRules
    from .state import State


def render(rules: BlokusRules, state: State) -> str:
    """Draw the board: each colour's initial on its squares, ``+`` on a start square
    still free, ``.`` elsewhere; column letters on top, row numbers on the left."""
    geo = rules.geo
    size = geo.size
    marks = [c.initial for c in rules.colours]
    board = state.board
    starts = set(geo.starts)
    lines = ["   " + " ".join(chr(ord("a") + c) for c in range(size))]
    for r in range(size):
        row = []
        for c in range(size):
            v = board[r][c]
            row.append(marks[v] if v is not None else "+" if (r, c) in starts else ".")
        lines.append(f"{r:>2} " + " ".join(row))
    if state.colour is None:
        lines.append("game over")
    else:
        who = rules.colours[state.colour].name
        lines.append(f"ply {state.ply}: {who} (seat {state.turn}) to move")
    return "\n".join(lines)
