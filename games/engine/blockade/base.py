"""What both blockade kinds share: two seats, turn passing, leaving, results, text glue.

In these kinds a seat with no legal action on its turn loses (``blocked``), so ``pass``
is never legal and ``must_pass`` is always False. The kind-specific parts (legality,
applying an action, the picture, the notation of an action) are the subclass's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..common import Leave, Legality, Pass, Result, check_leave, standings
from ..notation import parse_token, status_lines
from ..protocol import EventLog, KindInfo, SeatInfo
from .board import SIZE
from .state import LastMove


class FamilyState(Protocol):
    """What the shared logic reads of a ``PlaceState`` or ``RunState``."""

    @property
    def turn(self) -> int | None: ...
    @property
    def last(self) -> LastMove | None: ...
    @property
    def in_game(self) -> tuple[bool, ...]: ...
    @property
    def ply(self) -> int: ...
    @property
    def left_order(self) -> tuple[int, ...]: ...


S = TypeVar("S", bound=FamilyState)  # the kind's state class
A = TypeVar("A")  # the kind's action class (not Pass)

NEVER_PASS = Legality(False, "pass is never legal here: a seat that cannot act loses")


class BlockadeFamilyRules(EventLog, Generic[S, A]):
    """Base of ``BlockadeRules`` and ``BlockadeRunRules``; stateless, one per kind."""

    family = "blockade"
    seats = 2
    max_plies = 100 * seats
    kind: ClassVar[str]
    info: ClassVar[KindInfo]

    def __repr__(self) -> str:
        return f"<Rules {self.kind}: {self.seats} seats>"

    @classmethod
    def kind_info(
        cls, kind: str, title: str, summary: str, colours: tuple[SeatInfo, ...], measure: str
    ) -> KindInfo:
        """A kind's ``info``: what both kinds share (two seats on the 5x5 board, the move
        limit, a short clock, a mobility measure) and its own words and colours."""
        return KindInfo(
            kind=kind,
            family=cls.family,
            title=title,
            summary=summary,
            seats=cls.seats,
            rows=SIZE,
            cols=SIZE,
            colours=colours,
            move_limit=cls.max_plies,
            clock=(60, 2),  # a dozen moves a seat at most
            measure_name=measure,
            measure_higher_is_better=True,
        )

    # -- hooks of the kind ------------------------------------------------------------

    def initial(self) -> S:
        raise NotImplementedError

    def parse_action(self, obj: object) -> A | Pass:
        raise NotImplementedError

    def can_act(self, state: S, seat: int) -> bool:
        """Whether ``seat`` would have a legal action if it were to move now."""
        raise NotImplementedError

    def goal_winner(self, state: S) -> int | None:
        """The seat whose pawn stands in its goal, if any."""
        return None

    def _legality(self, state: S, action: A, turn: int) -> Legality:
        """Whether ``turn``, the seat to move, may play ``action`` (not a pass) now."""
        raise NotImplementedError

    def _act(self, state: S, action: A, turn: int) -> S:
        """The state after a checked action by ``turn``; its own turn left None (``_settle``
        decides it)."""
        raise NotImplementedError

    def _vacate(self, state: S, seat: int) -> dict[str, Any]:
        """Fields that change when ``seat`` leaves (besides turn, in_game, ply, left_order)."""
        return {}

    def format_action(self, event: A | Pass | Leave) -> str:
        raise NotImplementedError

    def _parse_token(self, token: str) -> A:
        raise NotImplementedError

    # -- shared -----------------------------------------------------------------------

    def mover(self, state: S) -> int:
        """The seat to move, or that would be to move once the game is over."""
        if state.turn is not None:
            return state.turn
        return 0 if state.last is None else 1 - state.last.seat

    def must_pass(self, state: S) -> bool:
        """Always False: a seat that cannot act loses instead (docs/rules.md#blockade)."""
        return False

    def _check(self, state: S, action: A | Pass, seat: int | None) -> tuple[Legality, None]:
        turn = state.turn
        if turn is None:
            return Legality(False, "game is over"), None
        if seat is not None and seat != turn:
            return Legality(False, "not your turn"), None
        if isinstance(action, Pass):
            return NEVER_PASS, None
        return self._legality(state, action, turn), None

    def _play(self, state: S, action: A | Pass, plan: None) -> S:
        turn = state.turn
        assert turn is not None and not isinstance(action, Pass)
        return self._settle(self._act(state, action, turn), turn)

    def _settle(self, new: S, mover: int) -> S:
        """Hand the turn on, or end the game (goal, last standing, blocked, move limit)."""
        nxt = self._next_seat(new.in_game, mover)
        if (
            nxt is None
            or self.goal_winner(new) is not None
            or new.ply >= self.max_plies
            or not self.can_act(new, nxt)
        ):
            return dataclasses.replace(new, turn=None)
        return dataclasses.replace(new, turn=nxt)

    def _next_seat(self, in_game: tuple[bool, ...], after: int) -> int | None:
        if sum(in_game) <= 1:
            return None
        seat = after
        while True:
            seat = (seat + 1) % self.seats
            if in_game[seat]:
                return seat

    def leave(self, state: S, seat: int, why: str = "resign") -> S:
        """``seat`` resigns, times out or is removed; with two seats the game ends."""
        seat = check_leave(state, self.seats, seat, why)
        in_game = tuple(False if s == seat else v for s, v in enumerate(state.in_game))
        if sum(in_game) <= 1 or state.ply + 1 >= self.max_plies:
            turn = None
        elif seat != state.turn:
            turn = state.turn
        else:
            turn = self._next_seat(in_game, seat)
        return dataclasses.replace(
            state,
            turn=turn,
            in_game=in_game,
            ply=state.ply + 1,
            left_order=(*state.left_order, seat),
            **self._vacate(state, seat),
        )

    def result(self, state: S) -> Result | None:
        """None while the game runs; else winner, ranking and reason, in the order of
        docs/rules.md#how-a-game-ends."""
        if state.turn is not None:
            return None
        playing = [s for s in range(self.seats) if state.in_game[s]]
        winner = self.goal_winner(state)
        if winner is not None:
            reason = "goal"
        elif len(playing) == 1:
            winner, reason = playing[0], "last_standing"
        elif not self.can_act(state, self.mover(state)):
            winner, reason = 1 - self.mover(state), "blocked"
        else:
            reason = "move_limit"  # nobody won: every seat still in the game shares rank 1
        keys = {s: 0 if s == winner else 1 for s in playing}  # the winner, then a tie
        return Result(winner, standings(self.seats, keys, state.left_order), reason)

    # -- text -------------------------------------------------------------------------

    def parse_notation(self, text: str) -> A | Pass | Leave:
        """Inverse of ``format_action``; raises ``InvalidAction``."""
        return parse_token(text, self.seats, self._action_from_token)

    def _action_from_token(self, token: str) -> A | Pass:
        return self.parse_action(self._parse_token(token).to_json())  # the kind's range checks

    def status(self, state: S) -> list[str]:
        """The lines under a picture: ply, whose turn or how it ended."""
        marks = [c.initial for c in self.info.colours]
        lines = [f"{self.kind}  ply {state.ply}/{self.max_plies}"]
        return lines + status_lines(self, state, marks, self.mover(state))
