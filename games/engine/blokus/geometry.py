"""Board geometry as Python-int bitboards, and every placement precomputed as masks.

Square ``(r, c)`` is bit ``r * stride + c`` with ``stride = size + 1``: the extra guard
column is never on the board, so a shift by one column or one diagonal step lands
there instead of wrapping into the next row, and one ``& board`` cleans it up.

A placement is one piece in one fixed orientation at one position. Its ``pid`` orders
placements by piece (canonical order), then by squares row-major, so sorting pids
sorts legal lists. ``by_cell[i][p]`` lists ``(mask, pid)`` of every placement of piece
``p`` that covers square ``i``: generation only looks at placements that cover one of
the colour's attachment squares (Pentobi's idea; our own code).
"""

from __future__ import annotations

from functools import cached_property

from ..common import Cell
from .actions import Place
from .pieces import NAMES, ORIENTATIONS


class Tables:
    """The placement tables of one board size (built on first use, then shared)."""

    __slots__ = (
        "anchor_of",
        "by_cell",
        "corners",
        "halos",
        "lookup",
        "masks",
        "orient_of",
        "piece_of",
        "places",
    )

    def __init__(self, geo: Geometry) -> None:
        size = geo.size
        cell = [[(r, c) for c in range(size)] for r in range(size)]  # shared tuples
        self.places: list[Place] = []
        self.masks: list[int] = []
        self.halos: list[int] = []
        self.corners: list[int] = []
        self.piece_of: list[int] = []
        self.orient_of: list[int] = []
        self.anchor_of: list[Cell] = []
        self.lookup: dict[Place, int] = {}
        self.by_cell: list[list[list[tuple[int, int]]]] = [
            [[] for _ in NAMES] for _ in range(geo.stride * size)
        ]
        for p, name in enumerate(NAMES):
            found: list[tuple[tuple[Cell, ...], int, Cell]] = []
            for o, shape in enumerate(ORIENTATIONS[p]):
                h = 1 + max(r for r, _ in shape)
                w = 1 + max(c for _, c in shape)
                for r0 in range(size - h + 1):
                    for c0 in range(size - w + 1):
                        cells = tuple(cell[r0 + r][c0 + c] for r, c in shape)
                        found.append((cells, o, (r0, c0)))
            found.sort()
            for cells, o, anchor in found:
                pid = len(self.places)
                mask = geo.mask(cells)
                halo = mask | geo.edges(mask)
                place = Place(name, cells)
                self.places.append(place)
                self.masks.append(mask)
                self.halos.append(halo)
                self.corners.append(geo.diagonals(mask) & ~halo)
                self.piece_of.append(p)
                self.orient_of.append(o)
                self.anchor_of.append(anchor)
                self.lookup[place] = pid
                for r, c in cells:
                    self.by_cell[r * geo.stride + c][p].append((mask, pid))


class Geometry:
    """A square board of ``size`` and each colour's start square (first piece covers it)."""

    def __init__(self, size: int, starts: tuple[Cell, ...]) -> None:
        self.size = size
        self.stride = size + 1
        self.starts = starts
        self.board = sum(1 << self.bit(r, c) for r in range(size) for c in range(size))
        self.start_bits = tuple(1 << self.bit(r, c) for r, c in starts)

    def bit(self, r: int, c: int) -> int:
        return r * self.stride + c

    def mask(self, cells: tuple[Cell, ...] | list[Cell]) -> int:
        s = self.stride
        m = 0
        for r, c in cells:
            m |= 1 << (r * s + c)
        return m

    def edges(self, m: int) -> int:
        """Squares sharing an edge with a square of ``m`` (``m`` itself may be included)."""
        s = self.stride
        return ((m << 1) | (m >> 1) | (m << s) | (m >> s)) & self.board

    def diagonals(self, m: int) -> int:
        """Squares touching a square of ``m`` corner to corner."""
        s = self.stride
        return ((m << (s + 1)) | (m >> (s + 1)) | (m << (s - 1)) | (m >> (s - 1))) & self.board

    def squares(self, m: int) -> list[Cell]:
        """The squares of a mask, row-major."""
        s = self.stride
        out = []
        while m:
            low = m & -m
            i = low.bit_length() - 1
            out.append(divmod(i, s))
            m ^= low
        return out

    @cached_property
    def tables(self) -> Tables:
        return Tables(self)

    def _frontier(self, own: int, occupied: int, start: int) -> tuple[int, int]:
        """``(forbidden, attach)`` of a colour: the squares a placement must avoid (every
        occupied one and the edge neighbours of its own) and those it may cover to attach
        (its free diagonal neighbours; before its first piece, its free start square)."""
        if own:
            bad = occupied | self.edges(own)
            return bad, self.diagonals(own) & ~bad
        return occupied, start & ~occupied

    def generate(self, hand: int, own: int, occupied: int, start: int) -> list[int]:
        """Sorted pids of every legal placement for a colour (``own`` its squares).

        A placement must avoid ``bad`` and cover an attachment square (``_frontier``).
        Attachment squares are visited one by one and each is added to ``bad``
        afterwards, so a placement covering several of them is found exactly once.
        """
        bad, attach = self._frontier(own, occupied, start)
        if not attach or not hand:
            return []
        pieces = [p for p in range(len(NAMES)) if (hand >> p) & 1]
        by_cell = self.tables.by_cell
        out: list[int] = []
        while attach:
            low = attach & -attach
            row = by_cell[low.bit_length() - 1]
            for p in pieces:
                out += [pid for m, pid in row[p] if not m & bad]
            bad |= low
            attach ^= low
        out.sort()
        return out

    def any_placement(self, hand: int, own: int, occupied: int, start: int) -> bool:
        """Whether ``generate`` would find anything (stops at the first hit)."""
        bad, attach = self._frontier(own, occupied, start)
        if not attach or not hand:
            return False
        pieces = [p for p in range(len(NAMES)) if (hand >> p) & 1]
        by_cell = self.tables.by_cell
        while attach:
            low = attach & -attach
            row = by_cell[low.bit_length() - 1]
            for p in pieces:
                for m, _ in row[p]:
                    if not m & bad:
                        return True
            attach ^= low
        return False
