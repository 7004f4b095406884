"""The ASCII grid both blockade kinds draw (``render``)."""

from __future__ import annotations

from .board import SIZE


def grid_picture(cells: dict[int, str], highlight: int | None) -> str:
    """Column letters on top, row numbers on the left (the notation's names); the
    ``highlight`` cell (the last move) in brackets."""
    lines = [("    " + "".join(f" {chr(ord('a') + c)} " for c in range(SIZE))).rstrip()]
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            i = r * SIZE + c
            row.append(f"[{cells[i]}]" if i == highlight else f" {cells[i]} ")
        lines.append(f"{r:>2}  " + "".join(row).rstrip())
    return "\n".join(lines)
