"""A toy game family, registered only by the test that plays it (tests/games/test_toy_family.py).

Line race: two pawns start at square 0 of a line of ``GOAL + 1`` squares; a seat steps
its own pawn 1 or 2 squares on its turn (never past the goal) and the first to reach the
goal wins. Everything a family gives the platform is here, as docs/architecture.md
("How to add a game family") lists it: the rules (the ``Rules`` protocol), the bot
(``bot.py``), the server board (``board.py``) and the one registration, ``FAMILY``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from games.engine import Family, InvalidAction, InvalidState, Leave, Pass
from games.engine.common import (
    Legality,
    Result,
    check_leave,
    parse_int,
    parse_object,
    state_int,
    state_keys,
    state_list,
    state_seats,
)
from games.engine.notation import format_leave, leave_from_token, token_of
from games.engine.protocol import EventLog, KindInfo, SeatInfo

KIND = "toy_race"
GOAL = 5


@dataclass(frozen=True, slots=True)
class Step:
    """Step the mover's pawn ``by`` squares (1 or 2)."""

    by: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "step", "by": self.by}


@dataclass(frozen=True, slots=True)
class State:
    pawns: tuple[int, int] = (0, 0)
    turn: int | None = 0
    ply: int = 0
    in_game: tuple[bool, ...] = (True, True)
    left_order: tuple[int, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.turn is None

    def to_json(self) -> dict[str, Any]:
        return {"pawns": list(self.pawns), "turn": self.turn, "ply": self.ply,
                "in_game": list(self.in_game), "left_order": list(self.left_order)}


class RaceRules(EventLog):
    """The toy kind's rules; stateless, one shared instance. `EventLog` gives events,
    `is_legal`, `apply` and replays over `_check` and `_play`."""

    action_types = (Step, Pass)
    kind = KIND
    family = "toy"
    seats = 2
    max_plies = 40
    info = KindInfo(
        kind=KIND, family="toy", title="Toy race", summary="Two pawns race along a line.",
        seats=2, rows=1, cols=GOAL + 1,
        colours=(SeatInfo("red", "#dc2626", "R"), SeatInfo("blue", "#2563eb", "B")),
        measure_name="steps to goal", clock=(60, 1),
    )

    def initial(self) -> State:
        return State()

    def state_from_json(self, obj: object) -> State:
        data = state_keys(obj, ("pawns", "turn", "ply", "in_game", "left_order"))
        pawns = tuple(state_int(p, "pawn", 0, GOAL) for p in state_list(data["pawns"], "pawns", 2))
        turn = None if data["turn"] is None else state_int(data["turn"], "turn", 0, 1)
        in_game, left = state_seats(data["in_game"], data["left_order"], 2)
        if turn is not None and not in_game[turn]:
            raise InvalidState("the seat to move left the game")
        return State((pawns[0], pawns[1]), turn, state_int(data["ply"], "ply", 0, 10**6),
                     in_game, left)

    def parse_action(self, obj: object) -> Step | Pass:
        kind, data = parse_object(obj, {"step": {"type", "by"}, "pass": {"type"}})
        if kind == "pass":
            return Pass()
        by = parse_int(data["by"], "by")
        if by not in (1, 2):
            raise InvalidAction("a step is 1 or 2 squares")
        return Step(by)

    def legal_actions(self, state: State) -> list[Step]:
        if state.turn is None:
            return []
        left = GOAL - state.pawns[state.turn]
        return [Step(by) for by in (1, 2) if by <= left]

    def _check(self, state: State, action: Step | Pass, seat: int | None
               ) -> tuple[Legality, None]:
        if state.turn is None:
            return Legality(False, "game is over"), None
        if seat is not None and seat != state.turn:
            return Legality(False, "not your turn"), None
        if action not in self.legal_actions(state):
            return Legality(False, "that step goes past the goal"), None
        return Legality(True), None

    def must_pass(self, state: State) -> bool:
        return False

    def result(self, state: State) -> Result | None:
        if state.turn is not None:
            return None
        if GOAL in state.pawns:
            winner, reason = state.pawns.index(GOAL), "goal"
        elif sum(state.in_game) == 1:
            winner, reason = state.in_game.index(True), "last_standing"
        else:
            return Result(None, (1, 1), "move_limit")
        return Result(winner, tuple(1 if s == winner else 2 for s in range(2)), reason)

    def _play(self, state: State, step: Step | Pass, plan: None) -> State:
        assert state.turn is not None and isinstance(step, Step)  # a pass is never legal
        pawns = list(state.pawns)
        pawns[state.turn] += step.by
        over = pawns[state.turn] == GOAL or state.ply + 1 >= self.max_plies
        return dataclasses.replace(state, pawns=(pawns[0], pawns[1]), ply=state.ply + 1,
                                   turn=None if over else 1 - state.turn)

    def leave(self, state: State, seat: int, why: str = "resign") -> State:
        seat = check_leave(state, self.seats, seat, why)
        in_game = tuple(s != seat and v for s, v in enumerate(state.in_game))
        return dataclasses.replace(state, turn=None, ply=state.ply + 1, in_game=in_game,
                                   left_order=(*state.left_order, seat))

    def format_action(self, event: Any) -> str:
        if isinstance(event, Leave):
            return format_leave(event)
        return "pass" if isinstance(event, Pass) else f"+{event.by}"

    def parse_notation(self, text: str) -> Step | Pass | Leave:
        token = token_of(text)
        leave = leave_from_token(token, self.seats)
        if leave is not None:
            return leave
        if token in ("+1", "+2"):
            return Step(int(token[1]))
        return self.parse_action({"type": token})

    def render(self, state: State) -> str:
        return "\n".join("".join("o" if p == i else "." for i in range(GOAL + 1))
                         for p in state.pawns)

    def measure(self, state: State, seat: int) -> int | None:
        return GOAL - state.pawns[seat] if state.in_game[seat] else None


RULES = {KIND: RaceRules()}

FAMILY = Family(
    name="toy",
    rules=RULES,
    bot="tests.games.toy_family.bot",
    board="tests.games.toy_family.board",
    script="toy",  # static/js/boards/toy.js: a real family ships its page module too
)
