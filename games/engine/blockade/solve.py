"""Exact values of blockade positions: who wins with best play, and how.

Blockade is vertex geography on the 5x5 grid graph: the seat to move extends a path
from the opponent's last mark. Matching theory decides it (the seat to move at ``v``
wins exactly when ``v`` is in every maximum matching of the empty cells plus ``v``;
the grid is bipartite, so an augmenting-path matching settles it in microseconds), and
a memoised search gives the plies to the end (the winner hurries, the loser delays).
With 13 cells of one colour and 12 of the other, X wins by placing first on any of the
13 (``(r + c)`` even); a mark on the other 12 loses.

Blockade Run is solved by a memoised proof search (``run_wins``) over positions
reduced to what matters: cells neither pawn can ever reach are "spare" blocks, kept
as a count; a mirror image shares its value. The first player wins from the start
(2.4 million positions searched). ``run_book.bin`` (``write_book``: ``python -m
games.engine.blockade.solve``) holds the 54,210 positions of that proof that would cost
the solver more than ``BOOK_MIN_NODES`` to prove again: with it any position of the
proof (the first player's winning line against every defence) is proved in a few
thousand positions. Others are proved when the budget allows (see docs/bots.md).
"""

from __future__ import annotations

import sys
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .board import FULL, NEIGHBOURS, bits
from .run import GOALS

BOOK = Path(__file__).with_name("run_book.bin")
BOOK_MIN_NODES = 2000  # a position goes in the book when proving it costs this many
PLACE_MEMO = 100_000  # Blockade plies memo entries kept (least recently used dropped)
EVEN = sum(1 << i for i in range(25) if (i // 5 + i % 5) % 2 == 0)  # the 13 of one colour


class Unsolved(Exception):
    """The node budget ran out before the position was proved."""


class Nodes:
    """A node count with a limit and an optional wall-clock deadline (``Unsolved``
    past either; the deadline is only a safety cap, as the bots' ``Budget``)."""

    __slots__ = ("deadline", "limit", "used")

    def __init__(self, limit: int, deadline: float | None = None) -> None:
        self.limit = limit
        self.used = 0
        self.deadline = deadline

    def spend(self) -> None:
        self.used += 1
        if self.used > self.limit or (
            self.deadline is not None and not self.used & 63
            and time.perf_counter() > self.deadline
        ):
            raise Unsolved


# -- Blockade: matching theory ---------------------------------------------------------


def _matching(cells: int) -> int:
    """Size of a maximum matching of the grid graph on ``cells`` (augmenting paths)."""
    partner: dict[int, int] = {}

    def augment(u: int, seen: list[int]) -> bool:
        for w in bits(NEIGHBOURS[u] & cells & ~seen[0]):
            seen[0] |= 1 << w
            if w not in partner or augment(partner[w], seen):
                partner[w] = u
                return True
        return False

    return sum(augment(u, [0]) for u in bits(cells & EVEN))


def place_wins(empty: int, at: int | None) -> bool:
    """Whether the seat to move wins, ``empty`` the empty cells and ``at`` the
    opponent's last mark (None: the first placement, anywhere)."""
    if at is None:
        return any(not place_wins(empty & ~(1 << v), v) for v in bits(empty))
    if not NEIGHBOURS[at] & empty:
        return False
    return _matching(empty | 1 << at) == _matching(empty) + 1


_plies_memo: OrderedDict[tuple[int, int], int] = OrderedDict()


def place_plies(empty: int, at: int, nodes: Nodes) -> int:
    """Plies to the end with best play from a placed position (the winner picks among
    its winning placements the fastest, the loser the slowest)."""
    key = (empty, at)
    found = _plies_memo.get(key)
    if found is not None:
        with suppress(KeyError):  # another thread may have dropped it meanwhile
            _plies_memo.move_to_end(key)
        return found
    nodes.spend()
    moves = NEIGHBOURS[at] & empty
    win = bool(moves) and place_wins(empty, at)
    best = 0
    for u in bits(moves):
        rest = empty & ~(1 << u)
        if win and place_wins(rest, u):
            continue  # a losing placement: the winner never plays it
        p = place_plies(rest, u, nodes) + 1
        best = p if best == 0 else min(best, p) if win else max(best, p)
    _plies_memo[key] = best
    if len(_plies_memo) > PLACE_MEMO:
        with suppress(KeyError):
            _plies_memo.popitem(last=False)
    return best


def place_moves(empty: int, at: int | None) -> Iterator[tuple[int, bool]]:
    """Each legal placement and whether it wins for the seat to move."""
    targets = empty if at is None else NEIGHBOURS[at] & empty
    for u in bits(targets):
        yield u, not place_wins(empty & ~(1 << u), u)


# -- Blockade Run: proof search -----------------------------------------------------------

_ROW_MIRROR = tuple(sum(((x >> c) & 1) << (4 - c) for c in range(5)) for x in range(32))
_CELL_MIRROR = tuple((i // 5) * 5 + 4 - i % 5 for i in range(25))


def _mirror(mask: int) -> int:
    return sum(_ROW_MIRROR[(mask >> s) & 31] << s for s in (0, 5, 10, 15, 20))


def _spread(front: int, free: int) -> int:
    """Every cell reachable from ``front`` through ``free`` cells, ``front`` included."""
    reach = front
    while front:
        nxt = 0
        for i in bits(front):
            nxt |= NEIGHBOURS[i]
        front = nxt & free & ~reach
        reach |= front
    return reach


def layers(front: int, free: int) -> list[int]:
    """Cells reachable from ``front`` through ``free`` cells, by distance: ``front``
    first, then each ring of cells one step further."""
    out, reach = [front], front
    while True:
        nxt = 0
        for i in bits(front):
            nxt |= NEIGHBOURS[i]
        front = nxt & free & ~reach
        if not front:
            return out
        reach |= front
        out.append(front)


@dataclass(frozen=True, slots=True)
class RunPosition:
    """A Blockade Run position reduced: the mover's and the opponent's cells, the empty
    cells either pawn could still reach (``live``) and how many others (``spare``)."""

    seat: int
    me: int
    other: int
    live: int
    spare: int

    @classmethod
    def make(cls, seat: int, me: int, other: int, empty: int) -> RunPosition:
        pawns = 1 << me | 1 << other
        live = _spread(pawns, empty | pawns) & empty
        return cls(seat, me, other, live, (empty & ~live).bit_count())

    @property
    def key(self) -> int:
        """The same number for a position and its mirror image."""
        a = self.live | self.me << 25 | self.other << 30 | self.seat << 35 | self.spare << 36
        m = (_mirror(self.live) | _CELL_MIRROR[self.me] << 25 | _CELL_MIRROR[self.other] << 30
             | self.seat << 35 | self.spare << 36)
        return min(a, m)

    def runs(self) -> Iterator[tuple[int, int | None]]:
        """Every (step, block) worth telling apart, winning steps first, then a step
        that leaves the opponent no step; block None: a spare cell, or no block."""
        steps = NEIGHBOURS[self.me] & self.live
        wins = steps & GOALS[self.seat]
        for t in bits(wins):
            yield t, None
        if wins:
            return
        later = []
        for t in bits(steps):
            empty = (self.live & ~(1 << t)) | 1 << self.me
            threat = NEIGHBOURS[self.other] & GOALS[1 - self.seat] & empty
            blocks = threat or empty
            theirs = NEIGHBOURS[self.other] & empty
            if not theirs & (theirs - 1) and theirs & blocks:
                yield t, theirs.bit_length() - 1  # its only step, blocked
                return
            later.append((t, empty, blocks, not threat and self.spare > 0))
        for t, empty, blocks, spare in later:
            near = 0
            for layer in layers(1 << self.other, empty)[1:4]:  # its way out first
                near |= layer & blocks
                yield from ((t, x) for x in bits(layer & blocks))
            if spare:
                yield t, None
            yield from ((t, x) for x in bits(blocks & ~near))

    def after(self, step: int, block: int | None) -> RunPosition:
        """The opponent's position after ``(step, block)`` (not a winning step)."""
        empty = (self.live & ~(1 << step)) | 1 << self.me
        spare = self.spare
        if block is None:
            spare -= 1
        else:
            empty &= ~(1 << block)
        pawns = 1 << step | 1 << self.other
        live = _spread(pawns, empty | pawns) & empty
        return RunPosition(1 - self.seat, self.other, step, live,
                           spare + (empty & ~live).bit_count())


def _pack(numbers: list[int]) -> bytes:
    """Ascending whole numbers as zlib-compressed varint gaps (76 KB for the book)."""
    out, prev = bytearray(), 0
    for n in numbers:
        gap, prev = n - prev, n
        while gap > 127:
            out.append(gap & 127 | 128)
            gap >>= 7
        out.append(gap)
    return zlib.compress(bytes(out), 9)


def _unpack(data: bytes) -> list[int]:
    out, n, shift, prev = [], 0, 0, 0
    for byte in zlib.decompress(data):
        n |= (byte & 127) << shift
        shift += 7
        if not byte & 128:
            prev += n
            out.append(prev)
            n = shift = 0
    return out


@cache
def _book() -> dict[int, bool]:
    """The shipped proofs of the costly positions (key -> the mover wins)."""
    if not BOOK.exists():
        return {}
    return {n >> 1: bool(n & 1) for n in _unpack(BOOK.read_bytes())}


def run_wins(pos: RunPosition, nodes: Nodes, memo: dict[int, bool]) -> bool:
    """Whether the seat to move wins ``pos`` with best play (``Unsolved`` past the
    node budget). ``memo`` is the caller's; the book is consulted first."""
    key = pos.key
    found = memo.get(key)
    if found is None:
        found = _book().get(key)
    if found is not None:
        return found
    nodes.spend()
    won = False
    for step, block in pos.runs():
        if GOALS[pos.seat] >> step & 1 or not run_wins(pos.after(step, block), nodes, memo):
            won = True
            break
    memo[key] = won
    return won


def run_best(pos: RunPosition, nodes: Nodes, memo: dict[int, bool]) -> tuple[bool, int, int | None]:
    """(the mover wins, a winning run's step and block if so, else the first run)."""
    first = None
    for step, block in pos.runs():
        if first is None:
            first = (step, block)
        if GOALS[pos.seat] >> step & 1 or not run_wins(pos.after(step, block), nodes, memo):
            return True, step, block
    if first is None:
        return False, -1, None
    return False, first[0], first[1]


def write_book(path: Path = BOOK, min_nodes: int = BOOK_MIN_NODES) -> tuple[bool, int, int]:
    """Prove the start of Blockade Run and keep every position whose proof would cost
    the live solver at least ``min_nodes`` (its children in the book cost nothing, the
    others what they cost in turn): (the first player wins, positions searched, kept)."""
    sys.setrecursionlimit(10_000)
    memo: dict[int, tuple[bool, int]] = {}  # key -> (the mover wins, live cost)
    costly: dict[int, bool] = {}

    def prove(pos: RunPosition) -> tuple[bool, int]:
        key = pos.key
        if key in memo:
            return memo[key]
        won, cost = False, 1
        for step, block in pos.runs():
            if GOALS[pos.seat] >> step & 1:
                won = True
                break
            theirs, spent = prove(pos.after(step, block))
            cost += spent
            if not theirs:
                won = True
                break
        if cost >= min_nodes:
            costly[key], cost = won, 0
        memo[key] = won, cost
        return won, cost

    start = RunPosition.make(0, 2, 22, FULL & ~(1 << 2 | 1 << 22))
    won = prove(start)[0]
    path.write_bytes(_pack(sorted(k << 1 | v for k, v in costly.items())))
    return won, len(memo), len(costly)


if __name__ == "__main__":  # python -m games.engine.blockade.solve: rebuild the book
    won, searched, kept = write_book()
    print(f"first player wins: {won}; {searched} positions searched, {kept} kept")
