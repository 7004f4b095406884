"""Cross-check the fast engine against a naive, obviously-correct reading of docs/rules.md.

The naive version works on coordinates, BFS per seat per candidate barrier: slow, but
written straight from the rule text, so any shortcut bug in the engine shows up here.
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from games import engine
from games.engine.barrier import Barrier, Move

Cell = tuple[int, int]
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def blocked_edges(barriers: list[tuple[Cell, str]]) -> set[frozenset[Cell]]:
    edges: set[frozenset[Cell]] = set()
    for (r, c), o in barriers:
        if o == "H":
            edges |= {frozenset({(r, c), (r + 1, c)}), frozenset({(r, c + 1), (r + 1, c + 1)})}
        else:
            edges |= {frozenset({(r, c), (r, c + 1)}), frozenset({(r + 1, c), (r + 1, c + 1)})}
    return edges


class Naive:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.bloqueio = kind.startswith("bloqueio")
        self.size = 11 if self.bloqueio else 9
        self.lo, self.hi = (1, 9) if self.bloqueio else (0, 8)
        rules = engine.get(kind)
        self.goals = [
            {(s.line, k) if s.axis == 0 else (k, s.line) for k in range(self.lo, self.hi + 1)}
            for s in rules.geometry.seats
        ]

    def inner(self, cell: Cell) -> bool:
        return self.lo <= cell[0] <= self.hi and self.lo <= cell[1] <= self.hi

    def enterable(self, seat: int, cell: Cell) -> bool:
        return self.inner(cell) or cell in self.goals[seat]

    def has_path(self, seat: int, start: Cell, edges: set[frozenset[Cell]]) -> bool:
        seen, todo = {start}, deque([start])
        while todo:
            cur = todo.popleft()
            if cur in self.goals[seat]:
                return True
            for dr, dc in DIRS:
                nxt = (cur[0] + dr, cur[1] + dc)
                fresh = nxt not in seen and self.enterable(seat, nxt)
                if fresh and frozenset({cur, nxt}) not in edges:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    def moves(self, state: dict, seat: int) -> set[Cell]:
        edges = blocked_edges([(tuple(b["at"]), b["orientation"]) for b in state["barriers"]])
        pawns = {tuple(p) for p in state["pawns"] if p is not None}
        me = tuple(state["pawns"][seat])

        def open_(a: Cell, b: Cell) -> bool:
            return frozenset({a, b}) not in edges

        def ok(cell: Cell) -> bool:
            on_grid = 0 <= cell[0] < self.size and 0 <= cell[1] < self.size
            return on_grid and cell not in pawns and self.enterable(seat, cell)

        out: set[Cell] = set()
        for dr, dc in DIRS:
            q = (me[0] + dr, me[1] + dc)
            if not open_(me, q) or not (0 <= q[0] < self.size and 0 <= q[1] < self.size):
                continue
            if q not in pawns:
                if ok(q):
                    out.add(q)
                continue
            j = (q[0] + dr, q[1] + dc)
            if open_(q, j) and ok(j):
                out.add(j)
                continue
            for pr, pc in ((dc, dr), (-dc, -dr)):
                k = (q[0] + pr, q[1] + pc)
                if open_(q, k) and ok(k):
                    out.add(k)
        return out

    def barriers(self, state: dict, seat: int) -> set[tuple[Cell, str]]:
        if state["barriers_left"][seat] == 0:
            return set()
        placed = {(tuple(b["at"]), b["orientation"]) for b in state["barriers"]}
        out = set()
        a_lo, a_hi = (1, 8) if self.bloqueio else (0, 7)
        for r in range(a_lo, a_hi + 1):
            for c in range(a_lo, a_hi + 1):
                for o in "HV":
                    if o == "H":
                        clash = {((r, c - 1), "H"), ((r, c), "H"), ((r, c + 1), "H"), ((r, c), "V")}
                    else:
                        clash = {((r - 1, c), "V"), ((r, c), "V"), ((r + 1, c), "V"), ((r, c), "H")}
                    if clash & placed:
                        continue
                    edges = blocked_edges([*placed, ((r, c), o)])
                    if all(
                        self.has_path(s, tuple(p), edges)
                        for s, p in enumerate(state["pawns"])
                        if p is not None
                    ):
                        out.add(((r, c), o))
        return out


@pytest.mark.parametrize("kind", ["bloqueio", "bloqueio2", "quoridor", "quoridor4"])
def test_engine_matches_naive_rules_on_random_games(kind: str) -> None:
    rules = engine.get(kind)
    naive = Naive(kind)
    rng = random.Random(kind)
    checked = 0
    for _game in range(6):
        state = rules.initial()
        while state.turn is not None and state.ply < 150:
            if state.ply % 3 == 0 or rules.must_pass(state):
                js = state.to_json()
                seat = state.turn
                want_moves = naive.moves(js, seat)
                want_barriers = naive.barriers(js, seat)
                legal = rules.legal_actions(state)
                got_moves = {a.to for a in legal if isinstance(a, Move)}
                got_barriers = {(a.at, a.orientation) for a in legal if isinstance(a, Barrier)}
                assert got_moves == want_moves
                assert got_barriers == want_barriers
                assert (legal == [engine.PASS]) == (not want_moves and not want_barriers)
                checked += 1
            # prefer barriers early so positions get crowded with walls
            legal = rules.legal_actions(state)
            walls = [a for a in legal if isinstance(a, Barrier)]
            pick = rng.choice(walls) if walls and rng.random() < 0.5 else rng.choice(legal)
            state = rules.apply(state, pick)
    assert checked > 100
