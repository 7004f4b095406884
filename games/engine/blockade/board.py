"""The 5x5 board of the blockade kinds as bitmasks: cell ``(r, c)`` is bit ``5 * r + c``.

Tables are built once at import; ascending bit order is row-major order, so iterating a
mask's bits lists cells the way legal lists want them.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..common import Cell

SIZE = 5
CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(CELLS)}
FULL = (1 << len(CELLS)) - 1


def _neighbours(i: int) -> int:
    r, c = CELLS[i]
    mask = 0
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            mask |= 1 << INDEX[rr, cc]
    return mask


NEIGHBOURS: tuple[int, ...] = tuple(_neighbours(i) for i in range(len(CELLS)))


def row_mask(r: int) -> int:
    """The cells of row ``r``."""
    return ((1 << SIZE) - 1) << (SIZE * r)


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest (row-major first) first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit(cell: Cell) -> int:
    return 1 << INDEX[cell]


def where(cell: Cell) -> str:
    """A cell in error messages, in the JSON form ``[r,c]``."""
    return f"[{cell[0]},{cell[1]}]"
