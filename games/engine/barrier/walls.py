"""Barrier legality: overlap/crossing masks, the wall-graph cycle test, the path filter.

Walls and the outline of the 9x9 square form a planar graph. A new barrier can only
cut a region off if it closes a cycle, i.e. two of its three points already lie in one
wall component (components are kept as point masks, merged on ``apply``). Only such
candidates are checked, and only for seats whose known path the barrier crosses, with a
shift-and-mask flood fill. See docs/engine.md.
"""

from __future__ import annotations

from itertools import pairwise

from ..errors import brief
from .actions import Barrier
from .geometry import AnchorInfo, Geometry, bfs_path, crossings, reaches
from .state import State

PathInfo = tuple[int, int, int, int]  # pawn bit, target mask, down-crossings, right-crossings


class WallLogic:
    """Barrier legality for a ``Geometry``; the base of ``BarrierRules``."""

    geometry: Geometry

    def _occupied(self, state: State) -> int:
        idx = self.geometry.index
        occ = 0
        for p in state.pawns:
            if p is not None:
                occ |= 1 << idx[p]
        return occ

    def _open(self, state: State) -> tuple[int, int, int, int]:
        masks = state.cache.get("open")
        if masks is None:
            masks = state.cache["open"] = self.geometry.open_masks(state.down, state.right)
        return masks

    def _paths(self, state: State) -> tuple[PathInfo | None, ...]:
        """Per seat: (pawn bit, target, down-crossings, right-crossings) of one path to
        its goal, or None for a seat that left. The crossing masks may cover more than
        one path (see ``_path_hint``), which keeps the filter in ``_cuts`` sound."""
        paths = state.cache.get("paths")
        if paths is None:
            g = self.geometry
            hint = state.cache.pop("hint", None)
            found: list[PathInfo | None] = []
            for seat, pawn in enumerate(state.pawns):
                known = None if hint is None or pawn is None else hint[seat]
                if known is None and pawn is not None:
                    i = g.index[pawn]
                    od, ou, orr, ol = self._open(state)
                    path = bfs_path(i, g.target[seat], od, ou, orr, ol, g.stride)
                    dc, rc = crossings(path, g.stride) if path else (0, 0)
                    known = (1 << i, g.target[seat], dc, rc)
                found.append(known)
            paths = state.cache["paths"] = tuple(found)
        return paths

    def _path_hint(
        self, state: State, seat: int, move_to: int | None, barrier: AnchorInfo | None
    ) -> list[PathInfo | None] | None:
        """The parent's paths carried over to the child, None where they must be redone.

        A pawn that moves extends its path by the edges it just used (all open); a
        barrier invalidates exactly the paths it crosses. Playouts thus rarely BFS.
        """
        paths = state.cache.get("paths")
        if paths is None:
            return None
        hint = list(paths)
        if move_to is not None:
            entry = hint[seat]
            if entry is not None:
                start, target, dc, rc = entry
                route = self._route(state, start.bit_length() - 1, move_to)
                hint[seat] = (
                    None if route is None else (1 << move_to, target, dc | route[0], rc | route[1])
                )
        elif barrier is not None:
            m = barrier.cells
            for s, entry in enumerate(hint):
                if entry is not None and m & (entry[2] if barrier.horizontal else entry[3]):
                    hint[s] = None
        else:
            hint[seat] = None
        return hint

    def _route(self, state: State, p: int, q: int) -> tuple[int, int] | None:
        """Open edges (down mask, right mask) of a 1- or 2-edge route from p to q."""
        s = self.geometry.stride
        d = q - p
        if d in (s, -s, 1, -1):
            mids: tuple[int, ...] = ()
        elif d in (2 * s, -2 * s, 2, -2):
            mids = (p + d // 2,)
        else:
            col = (q % s) - (p % s)
            mids = (p + col, q - col)
        for hops in ((p, q),) if not mids else tuple((p, m, q) for m in mids):
            dm = rm = 0
            for a, b in pairwise(hops):
                lo = min(a, b)
                if abs(a - b) == s:
                    if (state.down >> lo) & 1:
                        break
                    dm |= 1 << lo
                else:
                    if (state.right >> lo) & 1:
                        break
                    rm |= 1 << lo
            else:
                return dm, rm
        return None

    def _cuts(self, state: State, info: AnchorInfo) -> int | None:
        """The first seat left without a path if ``info`` were placed, else None."""
        pts = info.points
        for comp in state.walls:
            x = comp & pts
            if x & (x - 1):
                break
        else:
            return None  # closes no cycle: no region can be cut off
        od, ou, orr, ol = self._open(state)
        s = self.geometry.stride
        m = info.cells
        if info.horizontal:
            od &= ~m
            ou &= ~(m << s)
        else:
            orr &= ~m
            ol &= ~(m << 1)
        for entry in self._paths(state):
            if entry is None:
                continue
            start, target, dc, rc = entry
            if m & (dc if info.horizontal else rc) and not reaches(
                start, target, od, ou, orr, ol, s
            ):
                return self._seat_at(state, start)
        return None

    def _seat_at(self, state: State, bit: int) -> int:
        g = self.geometry
        for seat, pawn in enumerate(state.pawns):
            if pawn is not None and 1 << g.index[pawn] == bit:
                return seat
        raise AssertionError("no pawn on that cell")

    def _barrier_masks(self, state: State) -> tuple[int, int, int, int]:
        """Free anchors (H, V) and, among them, those closing a wall cycle (H, V)."""
        masks = state.cache.get("anchors")
        if masks is None:
            g = self.geometry
            bh, bv = g.conflicts(state.hw, state.vw)
            ch, cv = g.closing(state.walls)
            full = g.all_anchors
            masks = state.cache["anchors"] = (full & ~bh, full & ~bv, ch & ~bh, cv & ~bv)
        return masks

    def _legal_barriers(self, state: State) -> list[Barrier]:
        # Barriers that close no wall cycle are legal at once; the few that do are
        # checked against the seats' paths in _cuts. Order: all H, then all V, by anchor.
        g = self.geometry
        free_h, free_v, close_h, close_v = self._barrier_masks(state)
        for close, infos in ((close_h, g.h_info), (close_v, g.v_info)):
            while close:
                low = close & -close
                close ^= low
                info = infos[low.bit_length() - 1]
                if self._cuts(state, info) is not None:
                    if info.horizontal:
                        free_h ^= low
                    else:
                        free_v ^= low
        out = [info.action for info in g.h_list if (free_h >> info.index) & 1]
        out += [info.action for info in g.v_list if (free_v >> info.index) & 1]
        return out

    def _any_barrier(self, state: State) -> bool:
        g = self.geometry
        free_h, free_v, close_h, close_v = self._barrier_masks(state)
        if free_h & ~close_h or free_v & ~close_v:
            return True
        for close, infos in ((close_h, g.h_info), (close_v, g.v_info)):
            while close:
                low = close & -close
                close ^= low
                if self._cuts(state, infos[low.bit_length() - 1]) is None:
                    return True
        return False

    def _clash(self, state: State, info: AnchorInfo) -> str | None:
        g = self.geometry
        k, p = info.index, g.pstride
        r, c = info.action.at
        if info.horizontal:
            same, other, label = state.hw, state.vw, "H"
            near = ((k, (r, c)), (k - 1, (r, c - 1)), (k + 1, (r, c + 1)))
        else:
            same, other, label = state.vw, state.hw, "V"
            near = ((k, (r, c)), (k - p, (r - 1, c)), (k + p, (r + 1, c)))
        for kk, at in near:
            if kk >= 0 and (same >> kk) & 1:
                return f"barrier overlaps {label} at {fmt_cell(at)}"
        if (other >> k) & 1:
            return f"barrier crosses {'V' if info.horizontal else 'H'} at {fmt_cell((r, c))}"
        return None


def merge_walls(walls: tuple[int, ...], info: AnchorInfo) -> tuple[int, ...]:
    """Wall components after adding ``info``: its points join every component they touch."""
    joined = info.points
    rest = []
    for comp in walls:
        if comp & joined:
            joined |= comp
        else:
            rest.append(comp)
    return (joined, *rest)


def fmt_cell(cell: tuple[int, int]) -> str:
    return f"[{brief(cell[0])},{brief(cell[1])}]"
