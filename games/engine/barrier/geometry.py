"""Board geometry of the barrier games as bitboards, built once per kind at import.

Cells are bit ``r * stride + c`` of a Python int, with one padding column so that
shifting by 1 never wraps a row. Barriers live on the 9x9 playable square (the inner
cells of Bloqueio, the whole Quoridor board); they never touch its outline, which is
what makes the wall-graph shortcut in ``rules.py`` valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from .actions import Barrier, Cell, Move

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
PERPENDICULAR = ((LEFT, RIGHT), (LEFT, RIGHT), (UP, DOWN), (UP, DOWN))
DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat's start cell and goal side: ``axis`` 0 = a row, 1 = a column, at ``line``."""

    start: Cell
    axis: int
    line: int
    symbol: str  # the pawn's mark in ASCII pictures
    colour: str  # hex
    name: str = ""  # the colour's name, shown to people


@dataclass(frozen=True, slots=True)
class AnchorInfo:
    """Everything about one barrier placement, precomputed."""

    index: int  # anchor bit (stride n+1, like the wall-graph points)
    horizontal: bool
    cells: int  # the 2 cells whose down (H) or right (V) edge it blocks
    points: int  # its three wall-graph points (end, middle, end) as a mask
    action: Barrier


class Geometry:
    """Masks and tables of one board: grid size, playable square, goals, anchors."""

    def __init__(self, grid: int, offset: int, seats: tuple[SeatSpec, ...]) -> None:
        self.grid = grid
        self.offset = offset  # where the 9x9 playable square starts
        self.side = n = 9
        self.stride = s = grid + 1
        self.seats = seats
        self.anchor_lo, self.anchor_hi = offset, offset + n - 2
        self.index = {(r, c): r * s + c for r in range(grid) for c in range(grid)}
        self.cell = {i: rc for rc, i in self.index.items()}
        self.square = sum(
            1 << self.index[r, c]
            for r in range(offset, offset + n)
            for c in range(offset, offset + n)
        )
        # Only Bloqueio has goal zones outside the square; entering one wins.
        self.extra_step = 1 if grid > n else 0
        self.goal: list[int] = []  # cells whose entry wins
        self.target: list[int] = []  # square cells from which the goal is (at most) one step
        self.enterable: list[int] = []
        for spec in seats:
            line_cells = [
                (spec.line, k) if spec.axis == 0 else (k, spec.line)
                for k in range(offset, offset + n)
            ]
            goal = sum(1 << self.index[rc] for rc in line_cells)
            self.goal.append(goal)
            if self.extra_step:
                inner = spec.line + (1 if spec.line == 0 else -1)
                near = [
                    (inner, k) if spec.axis == 0 else (k, inner) for k in range(offset, offset + n)
                ]
                self.target.append(sum(1 << self.index[rc] for rc in near))
                self.enterable.append(self.square | goal)
            else:
                self.target.append(goal)
                self.enterable.append(self.square)
        # steps[i][d] = (neighbour, edge-is-down-mask?, edge bit) or None
        self.steps: list[tuple[tuple[int, bool, int] | None, ...]] = []
        for i in range(grid * s):
            r, c = divmod(i, s)
            row: list[tuple[int, bool, int] | None] = []
            for d, (dr, dc) in enumerate(DELTAS):
                rr, cc = r + dr, c + dc
                if c >= grid or not (0 <= rr < grid and 0 <= cc < grid):
                    row.append(None)
                    continue
                j = rr * s + cc
                if d in (UP, DOWN):
                    row.append((j, True, min(i, j)))
                else:
                    row.append((j, False, min(i, j)))
            self.steps.append(tuple(row))
        # Wall-graph points are the (n+1) x (n+1) lattice corners of the square, bit
        # i * (n+1) + j. Anchors use the same stride (bit ar * (n+1) + ac), so "which
        # anchors have a point in this set" is a plain shift of the set.
        p = self.pstride = n + 1
        self.outline = sum(
            1 << (i * p + j) for i in range(p) for j in range(p) if i in (0, n) or j in (0, n)
        )
        a = n - 1
        self.h_info: dict[int, AnchorInfo] = {}
        self.v_info: dict[int, AnchorInfo] = {}
        for ar in range(a):
            for ac in range(a):
                k = ar * p + ac
                r, c = ar + offset, ac + offset
                h_cells = (1 << self.index[r, c]) | (1 << self.index[r, c + 1])
                v_cells = (1 << self.index[r, c]) | (1 << self.index[r + 1, c])
                h_pts = 0b111 << (k + p)
                v_pts = (1 << (k + 1)) | (1 << (k + p + 1)) | (1 << (k + 2 * p + 1))
                self.h_info[k] = AnchorInfo(k, True, h_cells, h_pts, Barrier((r, c), "H"))
                self.v_info[k] = AnchorInfo(k, False, v_cells, v_pts, Barrier((r, c), "V"))
        self.anchor_keys = tuple(sorted(self.h_info))
        self.h_list = tuple(self.h_info[k] for k in self.anchor_keys)
        self.v_list = tuple(self.v_info[k] for k in self.anchor_keys)
        self.all_anchors = sum(1 << k for k in self.anchor_keys)
        self.moves = {i: Move(rc) for i, rc in self.cell.items()}

    def anchor_of(self, at: Cell) -> int | None:
        """Anchor bit of a barrier's ``at`` cell, or None when out of range."""
        r, c = at[0] - self.offset, at[1] - self.offset
        if 0 <= r < self.side - 1 and 0 <= c < self.side - 1:
            return r * self.pstride + c
        return None

    def open_masks(self, down: int, right: int) -> tuple[int, int, int, int]:
        """Cells of the square with an open edge down, up, right, left inside the square."""
        sq, s = self.square, self.stride
        od = sq & (sq >> s) & ~down
        orr = sq & (sq >> 1) & ~right
        return od, od << s, orr, orr << 1

    def conflicts(self, hw: int, vw: int) -> tuple[int, int]:
        """Anchors where an H / a V barrier would overlap or cross an existing one."""
        p, full = self.pstride, self.all_anchors
        return (hw | (hw << 1) | (hw >> 1) | vw) & full, (vw | (vw << p) | (vw >> p) | hw) & full

    def closing(self, walls: tuple[int, ...]) -> tuple[int, int]:
        """Anchors where an H / a V barrier would close a cycle in the wall graph.

        That is, where two of its three points already lie in one wall component;
        everywhere else a new barrier cannot cut any region off.
        """
        p = self.pstride
        ch = cv = 0
        for comp in walls:
            a0, am, a1 = comp >> p, comp >> (p + 1), comp >> (p + 2)
            ch |= (a0 & am) | (a0 & a1) | (am & a1)
            a0, a1 = comp >> 1, comp >> (2 * p + 1)
            cv |= (a0 & am) | (a0 & a1) | (am & a1)
        return ch & self.all_anchors, cv & self.all_anchors

    def pawn_moves(self, at: int, occupied: int, down: int, right: int, enter: int) -> list[int]:
        """Cells the pawn on ``at`` can reach this turn (steps, straight and diagonal jumps)."""
        out: list[int] = []
        steps = self.steps
        for d, step in enumerate(steps[at]):
            if step is None:
                continue
            q, is_down, bit = step
            if ((down if is_down else right) >> bit) & 1:
                continue
            if not (occupied >> q) & 1:
                if (enter >> q) & 1:
                    out.append(q)
                continue
            beyond = steps[q][d]
            if beyond is not None:
                j, is_down, bit = beyond
                if (
                    not ((down if is_down else right) >> bit) & 1
                    and not (occupied >> j) & 1
                    and (enter >> j) & 1
                ):
                    out.append(j)
                    continue
            for d2 in PERPENDICULAR[d]:
                side = steps[q][d2]
                if side is None:
                    continue
                k, is_down, bit = side
                if (
                    not ((down if is_down else right) >> bit) & 1
                    and not (occupied >> k) & 1
                    and (enter >> k) & 1
                    and k not in out
                ):
                    out.append(k)
        return out


def reaches(start: int, target: int, od: int, ou: int, orr: int, ol: int, stride: int) -> bool:
    """Flood fill from the ``start`` bits; True as soon as it touches ``target``."""
    reach = start
    if reach & target:
        return True
    while True:
        nxt = (
            reach
            | ((reach & od) << stride)
            | ((reach & ou) >> stride)
            | ((reach & orr) << 1)
            | ((reach & ol) >> 1)
        )
        if nxt & target:
            return True
        if nxt == reach:
            return False
        reach = nxt


def bfs_path(
    start: int, target: int, od: int, ou: int, orr: int, ol: int, stride: int
) -> list[int] | None:
    """One shortest path (bit indices) from ``start`` to ``target``, or None."""
    front = reach = 1 << start
    layers = [front]
    while not front & target:
        nxt = (
            ((front & od) << stride)
            | ((front & ou) >> stride)
            | ((front & orr) << 1)
            | ((front & ol) >> 1)
        )
        front = nxt & ~reach
        if not front:
            return None
        reach |= front
        layers.append(front)
    hit = front & target
    cur = (hit & -hit).bit_length() - 1
    path = [cur]
    for layer in reversed(layers[:-1]):
        b = 1 << cur
        back = (
            ((b & ou) >> stride) | ((b & od) << stride) | ((b & ol) >> 1) | ((b & orr) << 1)
        ) & layer
        cur = (back & -back).bit_length() - 1
        path.append(cur)
    path.reverse()
    return path


def crossings(path: list[int], stride: int) -> tuple[int, int]:
    """Masks of the cells whose down edge / right edge the path crosses."""
    down = right = 0
    for a, b in pairwise(path):
        lo = min(a, b)
        if abs(a - b) == stride:
            down |= 1 << lo
        else:
            right |= 1 << lo
    return down, right
