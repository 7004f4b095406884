"""The rules of the barrier games (bloqueio, bloqueio2, quoridor, quoridor4).

Why it is fast: positions are bitboards, legal pawn moves come from precomputed step
tables, and barrier legality avoids flood fills almost always. Walls and the outline of
the 9x9 square form a planar graph; a new barrier can only cut a region off if it
closes a cycle, i.e. two of its three points already lie in the same wall component
(kept as point masks, merged on ``apply``; see walls.py). Only then, and
only for seats whose cached shortest path the barrier crosses, a shift-and-mask flood
fill decides. See docs/engine.md.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..common import Result, check_leave
from ..protocol import EventLog, KindInfo, SeatInfo
from ..words import gettext_noop
from . import notation, outcome, render
from .actions import (
    PASS,
    Action,
    Barrier,
    Event,
    Leave,
    Legality,
    Move,
    Pass,
    parse_barrier_action,
)
from .geometry import AnchorInfo, Geometry
from .state import PlacedBarrier, State
from .state_json import state_from_json
from .walls import WallLogic, fmt_cell, merge_walls

_LEGAL = Legality(True)


class BarrierRules(EventLog, WallLogic):
    """Rules object of one barrier-game kind; stateless, so one shared instance is fine."""

    family = "barrier"
    action_types = (Move, Barrier, Pass)

    def __init__(
        self, kind: str, geometry: Geometry, barriers_each: int, title: str, summary: str
    ) -> None:
        self.kind = kind
        self.geometry = geometry
        self.seats = len(geometry.seats)
        self.barriers_each = barriers_each
        self.max_plies = 100 * self.seats
        self.info = KindInfo(
            kind=kind,
            family=self.family,
            title=title,
            summary=summary,
            seats=self.seats,
            rows=geometry.grid,
            cols=geometry.grid,
            colours=tuple(SeatInfo(s.name, s.colour, s.name[:1]) for s in geometry.seats),
            move_limit=self.max_plies,
            measure_name=gettext_noop("steps to goal"),
            measure_higher_is_better=False,
            # four seats wait three turns for each of their own
            clock=(240, 2) if self.seats == 4 else (180, 2),
        )

    def __repr__(self) -> str:
        return f"<Rules {self.kind}: {self.seats} seats>"

    # -- states -------------------------------------------------------------------------

    def initial(self) -> State:
        """The starting position: seat 0 to move."""
        return self.build(
            turn=0,
            pawns=tuple(spec.start for spec in self.geometry.seats),
            barriers=(),
            barriers_left=(self.barriers_each,) * self.seats,
            in_game=(True,) * self.seats,
            ply=0,
            left_order=(),
        )

    def state_from_json(self, obj: object) -> State:
        """Build a validated state from JSON; raises ``InvalidState`` with the reason."""
        return state_from_json(self, obj)

    def build(
        self,
        *,
        turn: int | None,
        pawns: tuple[tuple[int, int] | None, ...],
        barriers: tuple[PlacedBarrier, ...],
        barriers_left: tuple[int, ...],
        in_game: tuple[bool, ...],
        ply: int,
        left_order: tuple[int, ...],
    ) -> State:
        """A state with its bitboards derived from ``barriers`` (which must be valid)."""
        g = self.geometry
        hw = vw = down = right = 0
        walls = (g.outline,)
        for b in barriers:
            k = g.anchor_of(b.at)
            assert k is not None
            info = g.h_info[k] if b.orientation == "H" else g.v_info[k]
            walls = merge_walls(walls, info)
            if info.horizontal:
                hw |= 1 << k
                down |= info.cells
            else:
                vw |= 1 << k
                right |= info.cells
        return State(
            self.kind,
            turn,
            pawns,
            barriers,
            barriers_left,
            in_game,
            ply,
            left_order,
            hw,
            vw,
            down,
            right,
            walls,
        )

    # -- parsing ------------------------------------------------------------------------

    def parse_action(self, obj: object) -> Action:
        """Untrusted JSON to an action of this kind; raises ``InvalidAction``."""
        g = self.geometry
        return parse_barrier_action(obj, g.grid, g.anchor_lo, g.anchor_hi)

    # -- queries ------------------------------------------------------------------------

    def _moves(self, state: State, seat: int) -> list[int]:
        """Target cells of ``seat``'s pawn (cached for the seat to move)."""
        if seat == state.turn:
            cached = state.cache.get("moves")
            if cached is not None:
                return cached
        pawn = state.pawns[seat]
        g = self.geometry
        moves = (
            []
            if pawn is None
            else g.pawn_moves(
                g.index[pawn], self._occupied(state), state.down, state.right, g.enterable[seat]
            )
        )
        if seat == state.turn:
            state.cache["moves"] = moves
        return moves

    def _has_action(self, state: State, seat: int) -> bool:
        if self._moves(state, seat):
            return True
        return state.barriers_left[seat] > 0 and self._any_barrier(state)

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal action of the seat to move: moves (row-major), then barriers."""
        cached = state.cache.get("legal")
        if cached is None:
            if state.turn is None:
                cached = ()
            else:
                seat = state.turn
                moves = self.geometry.moves
                out: list[Action] = [moves[i] for i in sorted(self._moves(state, seat))]
                if state.barriers_left[seat] > 0:
                    out.extend(self._legal_barriers(state))
                cached = tuple(out) if out else (PASS,)
            state.cache["legal"] = cached
        return list(cached)

    def must_pass(self, state: State) -> bool:
        """True iff the game runs and the seat to move can only pass."""
        if state.turn is None:
            return False
        return not self._has_action(state, state.turn)

    def _check(self, state: State, action: Action, seat: int | None) -> tuple[Legality, Any]:
        turn = state.turn
        if turn is None:
            return Legality(False, "game is over"), None
        if seat is not None and seat != turn:
            return Legality(False, "not your turn"), None
        g = self.geometry
        if isinstance(action, Move):
            target = g.index.get(action.to)
            if target is not None and target in self._moves(state, turn):
                return _LEGAL, target
            return Legality(False, self._move_refusal(state, turn, action)), None
        if isinstance(action, Barrier):
            k = g.anchor_of(action.at)
            if k is None or action.orientation not in ("H", "V"):
                return Legality(
                    False, f"barrier anchor {fmt_cell(action.at)} is out of range"
                ), None
            if state.barriers_left[turn] <= 0:
                return Legality(False, "no barriers left"), None
            info = g.h_info[k] if action.orientation == "H" else g.v_info[k]
            clash = self._clash(state, info)
            if clash:
                return Legality(False, clash), None
            cut = self._cuts(state, info)
            if cut is not None:
                return Legality(False, f"no path for seat {cut}"), None
            return _LEGAL, info
        if self._has_action(state, turn):
            return Legality(False, "pass is legal only when nothing else is"), None
        return _LEGAL, None

    def _move_refusal(self, state: State, seat: int, action: Move) -> str:
        g = self.geometry
        i = g.index.get(action.to)
        where = fmt_cell(action.to)
        if i is None:
            return f"cell {where} is off the board"
        if not (g.enterable[seat] >> i) & 1:
            return f"cell {where} is not enterable"
        if (self._occupied(state) >> i) & 1:
            return f"cell {where} is occupied"
        return f"cell {where} is not reachable"

    # -- transitions --------------------------------------------------------------------

    def _play(self, state: State, action: Action, plan: Any) -> State:
        turn = state.turn
        assert turn is not None
        if isinstance(action, Move):
            pawns = list(state.pawns)
            pawns[turn] = action.to
            won = bool((self.geometry.goal[turn] >> plan) & 1)
            new = self._after(state, turn, won, False, tuple(pawns), state.in_game, None)
            if not won:
                self._give_hint(new, self._path_hint(state, turn, plan, None))
            return new
        if isinstance(action, Barrier):
            new = self._after(state, turn, False, False, state.pawns, state.in_game, plan)
            self._give_hint(new, self._path_hint(state, turn, None, plan))
            return new
        return self._after(state, turn, False, False, state.pawns, state.in_game, None)

    @staticmethod
    def _give_hint(new: State, hint: list[tuple[int, int, int, int] | None] | None) -> None:
        if hint is not None and "paths" not in new.cache:
            new.cache["hint"] = hint

    def leave(self, state: State, seat: int, why: str = "resign") -> State:
        """``seat`` resigns, times out or is removed (docs/rules.md#leaving)."""
        seat = check_leave(state, self.seats, seat, why)
        pawns = list(state.pawns)
        pawns[seat] = None
        in_game = list(state.in_game)
        in_game[seat] = False
        return self._after(state, seat, False, seat != state.turn, tuple(pawns), tuple(in_game))

    def _after(
        self,
        state: State,
        mover: int,
        won: bool,
        keep_turn: bool,
        pawns: tuple[tuple[int, int] | None, ...],
        in_game: tuple[bool, ...],
        info: AnchorInfo | None = None,
    ) -> State:
        """The state after ``mover``'s event: ``pawns`` and ``in_game`` as given, the
        barrier of ``info`` placed (if any), ``mover`` in ``left_order`` if it just left;
        and whose turn it is, or that the game is over."""
        ply = state.ply + 1
        turn: int | None
        if won or ply >= self.max_plies or sum(in_game) <= 1:
            turn = None
        elif keep_turn:
            turn = state.turn
        else:
            turn = mover
            while True:
                turn = (turn + 1) % self.seats
                if in_game[turn]:
                    break
        left_order = state.left_order if in_game[mover] else (*state.left_order, mover)
        if info is None:
            new = State(
                self.kind,
                turn,
                pawns,
                state.barriers,
                state.barriers_left,
                in_game,
                ply,
                left_order,
                state.hw,
                state.vw,
                state.down,
                state.right,
                state.walls,
            )
        else:
            left = list(state.barriers_left)
            left[mover] -= 1
            bit = 1 << info.index
            h = info.horizontal
            new = State(
                self.kind,
                turn,
                pawns,
                (*state.barriers, PlacedBarrier(info.action.at, info.action.orientation, mover)),
                tuple(left),
                in_game,
                ply,
                left_order,
                state.hw | bit if h else state.hw,
                state.vw if h else state.vw | bit,
                state.down | info.cells if h else state.down,
                state.right if h else state.right | info.cells,
                merge_walls(state.walls, info),
            )
        if turn is not None and not self._has_action(new, turn):
            others = [s for s in range(self.seats) if in_game[s] and s != turn]
            if not any(self._has_action(new, s) for s in others):
                new = dataclasses.replace(new, turn=None)  # stalemate: nobody can act
        return new

    # -- outcome ------------------------------------------------------------------------

    def distance(self, state: State, seat: int) -> int | None:
        """Shortest-path length of ``seat`` to its goal, pawns ignored (None: left/no path)."""
        found = self.shortest_path(state, seat)
        return None if found is None else found[0]

    def shortest_path(self, state: State, seat: int) -> tuple[int, list[tuple[int, int]]] | None:
        """Length and one shortest path (cells from the pawn into the goal), pawns ignored."""
        return outcome.shortest_path(self, state, seat)

    def measure(self, state: State, seat: int) -> int | None:
        """Steps to goal (``distance``): fewer is better; None once the seat left."""
        return self.distance(state, seat)

    def result(self, state: State) -> Result | None:
        """None while the game runs; else winner, competition ranking and reason."""
        return outcome.result(self, state)

    # -- text -----------------------------------------------------------------------------

    def format_action(self, action: Event) -> str:
        """Compact notation of an action or leave event (see notation.py)."""
        return notation.format_event(action)

    def parse_notation(self, text: str) -> Event:
        """Inverse of ``format_action``; raises ``InvalidAction``."""
        event = notation.parse_event(text, self.seats)
        if isinstance(event, Leave):
            return event
        return self.parse_action(event.to_json())  # range checks of this kind

    def render(self, state: State) -> str:
        """ASCII picture of the board: goal zones, pawns and barriers."""
        return render.render(self, state)
