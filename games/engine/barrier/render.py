"""ASCII board pictures for terminals, logs and tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..notation import status_lines

if TYPE_CHECKING:
    from .rules import BarrierRules
    from .state import State


def render(rules: BarrierRules, state: State) -> str:
    """Draw the grid with goal zones (lowercase), pawns (uppercase or digits), barriers.

    Barriers: ``===`` for H (it blocks the edge below its row), ``#`` for V (the edge to
    the right of its column). Bloqueio corners, enterable by nobody, show ``#``.
    """
    g = rules.geometry
    size = g.grid
    rows = [[" "] * (4 * size + 1) for _ in range(2 * size + 1)]
    for y in range(0, 2 * size + 1, 2):
        for x in range(4 * size + 1):
            rows[y][x] = "+" if x % 4 == 0 else "-"
    for y in range(1, 2 * size + 1, 2):
        for x in range(0, 4 * size + 1, 4):
            rows[y][x] = "|"
    zone = {}
    if g.extra_step:
        for spec in g.seats:
            for k in range(g.offset, g.offset + g.side):
                cell = (spec.line, k) if spec.axis == 0 else (k, spec.line)
                zone[cell] = spec.symbol.lower()
        last = size - 1
        for corner in ((0, 0), (0, last), (last, 0), (last, last)):
            zone[corner] = "#"
    for cell, mark in zone.items():
        rows[2 * cell[0] + 1][4 * cell[1] + 2] = mark
    for seat, pawn in enumerate(state.pawns):
        if pawn is not None:
            rows[2 * pawn[0] + 1][4 * pawn[1] + 2] = g.seats[seat].symbol
    for b in state.barriers:
        r, c = b.at
        if b.orientation == "H":
            y = 2 * r + 2
            for x in range(4 * c + 1, 4 * c + 8):
                rows[y][x] = "="
        else:
            x = 4 * c + 4
            for y in range(2 * r + 1, 2 * r + 4):
                rows[y][x] = "#"
    header = "     " + "".join(f" {chr(ord('a') + c)}  " for c in range(size)).rstrip()
    lines = [header]
    for y, row in enumerate(rows):
        label = f"{(y - 1) // 2:>3} " if y % 2 else "    "
        lines.append(label + "".join(row).rstrip())
    lines.append(_status(rules, state))
    return "\n".join(lines)


def _status(rules: BarrierRules, state: State) -> str:
    g = rules.geometry
    left = " ".join(f"{g.seats[s].symbol}:{state.barriers_left[s]}" for s in range(rules.seats))
    parts = [f"{rules.kind}  ply {state.ply}/{rules.max_plies}  barriers left: {left}"]
    if not g.extra_step:
        goals = ", ".join(
            f"{g.seats[s].symbol} -> {'row' if spec.axis == 0 else 'col'} {spec.line}"
            for s, spec in enumerate(g.seats)
        )
        parts.append(f"goals: {goals}")
    note = "  (must pass)" if rules.must_pass(state) else ""
    marks = [spec.symbol for spec in g.seats]
    parts += status_lines(rules, state, marks, state.turn or 0, note)  # 0: unused once over
    return "\n".join(parts)
