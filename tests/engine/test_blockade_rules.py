"""Blockade and Blockade Run by hand: rulings of docs/rules.md, reasons, text."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games.engine.blockade import LastMove, Place, Run
from tests.engine.helpers import run_cli

BLOCKADE = engine.get("blockade")
RUN = engine.get("blockade_run")


def test_blockade_placements_follow_the_opponent() -> None:
    state = BLOCKADE.apply(BLOCKADE.initial(), Place((0, 0)))
    assert state.turn == 1 and state.last == LastMove(0, (0, 0))
    assert BLOCKADE.legal_actions(state) == [Place((0, 1)), Place((1, 0))]
    assert BLOCKADE.is_legal(state, Place((0, 0))).reason == "cell [0,0] is occupied"
    assert BLOCKADE.is_legal(state, Place((2, 2))).reason == (
        "cell [2,2] is not next to the opponent's last placement [0,0]"
    )
    assert BLOCKADE.is_legal(state, Place((0, 1)), seat=0).reason == "not your turn"
    assert BLOCKADE.is_legal(state, engine.PASS).reason.startswith("pass is never legal")
    assert BLOCKADE.measure(state, 1) == 2 and BLOCKADE.measure(state, 0) is None


def test_blockade_seat_without_placement_loses() -> None:
    state = BLOCKADE.replay(BLOCKADE.parse_game("b0 b1 a1 a0"))
    assert state.turn is None and BLOCKADE.legal_actions(state) == []
    assert not BLOCKADE.must_pass(state)
    assert BLOCKADE.result(state) == engine.Result(1, (2, 1), "blocked")
    assert BLOCKADE.measure(state, 0) == 0
    with pytest.raises(engine.IllegalAction, match="game is over"):
        BLOCKADE.apply(state, Place((2, 2)))
    with pytest.raises(engine.IllegalAction, match="game is over"):
        BLOCKADE.leave(state, 0)


def test_blockade_leaving_ends_the_game() -> None:
    state = BLOCKADE.apply(BLOCKADE.initial(), Place((2, 2)))
    out = BLOCKADE.leave(state, 0, "removed")  # out of turn
    assert out.turn is None and out.ply == 2 and out.left_order == (0,)
    assert BLOCKADE.result(out) == engine.Result(1, (2, 1), "last_standing")
    with pytest.raises(engine.IllegalAction):
        BLOCKADE.leave(state, 2)
    with pytest.raises(engine.IllegalAction):
        BLOCKADE.leave(state, 0, "bored")


def test_run_steps_and_blocks() -> None:
    state = RUN.apply(RUN.initial(), {"type": "run", "to": [1, 2], "block": [0, 2]})
    assert state.pawns == ((1, 2), (4, 2)) and state.blocks == ((0, 2),)
    assert RUN.measure(state, 0) == 3 and RUN.measure(state, 1) == 3
    cases: list[tuple[Run, str]] = [
        (Run((2, 2), (0, 0)), "cell [2,2] is not a step from [4,2]"),
        (Run((3, 2)), "a run must block an empty cell"),
        (Run((3, 2), (0, 2)), "cell [0,2] is already blocked"),
        (Run((3, 2), (3, 2)), "cell [3,2] is under a pawn"),
        (Run((3, 2), (1, 2)), "cell [1,2] is under a pawn"),
    ]
    for action, reason in cases:
        assert RUN.is_legal(state, action).reason == reason
    assert RUN.is_legal(state, Run((3, 2), (4, 2)))  # the cell just left may be blocked


def test_run_winning_step_places_no_block() -> None:
    line = "b0^e0 d4^a0 b1^c2 d3^d0 b2^d1 e3^c0 b3^c1 e2^e4"
    state = RUN.replay(RUN.parse_game(line))
    assert RUN.is_legal(state, Run((4, 1), (2, 0))).reason == "a winning step places no block"
    end = RUN.apply(state, Run((4, 1)))
    assert end.turn is None and RUN.result(end) == engine.Result(0, (1, 2), "goal")
    assert RUN.format_game([*RUN.parse_game(line), Run((4, 1))]) == line + " b4"


def test_run_onto_blocked_or_opponent_is_refused() -> None:
    state = RUN.replay(RUN.parse_game("c1^a0 c3^e4 c2^e0"))
    assert RUN.is_legal(state, Run((2, 2), (0, 1))).reason == "cell [2,2] is the opponent's"
    state = RUN.replay(RUN.parse_game("c1^c2"))
    assert RUN.is_legal(state, Run((2, 2), (0, 0))).reason == "cell [2,2] is not a step from [4,2]"
    state = RUN.replay(RUN.parse_game("c1^d0 c3^c2"))
    assert RUN.is_legal(state, Run((2, 2), (0, 0))).reason == "cell [2,2] is blocked"


def test_run_seat_walled_in_loses() -> None:
    state = RUN.replay(RUN.parse_game("c1^e3 d4^a0 b1^e0 e4^d0 b2^d4"))
    assert state.turn is None and RUN.legal_actions(state) == []
    assert RUN.result(state) == engine.Result(0, (1, 2), "blocked")
    assert RUN.measure(state, 1) == 0


@pytest.mark.parametrize(
    ("rules", "token", "action"),
    [
        (BLOCKADE, "c2", Place((2, 2))),
        (BLOCKADE, "a0", Place((0, 0))),
        (RUN, "c1^d3", Run((1, 2), (3, 3))),
        (RUN, "b4", Run((4, 1))),
        (RUN, "pass", engine.PASS),
        (BLOCKADE, "timeout:1", engine.Leave(1, "timeout")),
    ],
)
def test_notation(rules: Any, token: str, action: Any) -> None:
    assert rules.parse_notation(token) == action
    assert rules.format_action(action) == token


@pytest.mark.parametrize(
    "bad", ["", "f2", "a5", "c01", "C2", "c1^", "c1^c1^c1", "c1-c2", "resign:2"]
)
def test_bad_notation_is_invalid(bad: str) -> None:
    for rules in (BLOCKADE, RUN):
        with pytest.raises(engine.InvalidAction):
            rules.parse_notation(bad)
    with pytest.raises(engine.InvalidAction):
        BLOCKADE.parse_notation("c1^d3")


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "place", "at": [True, 0]},
        {"type": "place", "at": [0, 5]},
        {"type": "place", "at": [0, 0], "x": 1},
        {"type": "place", "at": [0.0, 0]},
        {"type": "place"},
        {"type": "run", "to": [1, 2]},
        "place",
    ],
)
def test_blockade_actions_are_parsed_strictly(obj: object) -> None:
    with pytest.raises(engine.InvalidAction):
        BLOCKADE.parse_action(obj)


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "run", "to": [1, 2], "block": None},
        {"type": "run", "to": [1, 2], "block": [0, -1]},
        {"type": "run", "to": [1, False]},
        {"type": "run", "block": [1, 2]},
        {"type": "run", "to": [1, 2], "block": [0, 0], "seat": 0},
        {"type": "place", "at": [1, 2]},
    ],
)
def test_run_actions_are_parsed_strictly(obj: object) -> None:
    with pytest.raises(engine.InvalidAction):
        RUN.parse_action(obj)


def _board(*cells: tuple[int, int, int]) -> list[list[int | None]]:
    board: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    for r, c, seat in cells:
        board[r][c] = seat
    return board


@pytest.mark.parametrize(
    ("patch", "reason"),
    [
        ({"board": _board((0, 0, 1))}, "alternate"),
        ({"board": _board((0, 0, 0)), "ply": 1, "last": None}, "last is null exactly"),
        ({"board": _board((0, 0, 0)), "ply": 1, "last": {"seat": 0, "at": [0, 1]}}, "mark"),
        ({"board": _board((0, 0, 0)), "ply": 2, "last": {"seat": 0, "at": [0, 0]}}, "ply"),
        ({"board": _board((0, 0, 0)), "ply": 1, "last": {"seat": 0, "at": [0, 0]}}, "turn"),
        ({"board": [[None] * 5] * 4}, "5 items"),
        ({"board": _board((0, 0, True))}, "integer"),
        ({"turn": 1}, "turn must be 0"),
        ({"colour": 0}, "unknown state key"),
    ],
)
def test_blockade_states_are_read_strictly(patch: dict[str, Any], reason: str) -> None:
    obj = BLOCKADE.initial().to_json() | patch
    with pytest.raises(engine.InvalidState, match=reason):
        BLOCKADE.state_from_json(obj)


@pytest.mark.parametrize(
    ("patch", "reason"),
    [
        ({"pawns": [[0, 2], [0, 2]]}, "two pawns"),
        ({"pawns": [None, [4, 2]]}, "pawn exactly when"),
        ({"blocks": [[0, 2]]}, "pawn stands on the blocked"),
        ({"blocks": [[1, 1]], "ply": 1}, "last is null exactly"),
        ({"blocks": [[1, 1], [1, 1]], "ply": 2}, "twice"),
        ({"pawns": [[1, 2], [4, 2]]}, "start cell"),
        ({"pawns": [[4, 2], [0, 2]]}, "both pawns"),
        ({"last": {"seat": 0, "at": [1, 2]}}, "last is null exactly"),
        ({"ply": 3}, "ply must count"),
        ({"turn": None}, "turn must be 0"),
    ],
)
def test_run_states_are_read_strictly(patch: dict[str, Any], reason: str) -> None:
    obj = RUN.initial().to_json() | patch
    with pytest.raises(engine.InvalidState, match=reason):
        RUN.state_from_json(obj)


def test_render_pictures() -> None:
    text = BLOCKADE.render(BLOCKADE.replay(BLOCKADE.parse_game("c2 c1 b1")))
    assert " 1   * [X] O" in text and "to move: seat 1 (O)" in text
    text = RUN.render(RUN.replay(RUN.parse_game("c1^d3 resign:0")))
    assert "game over (last_standing): winner seat 1 (G); ranking [2, 1]" in text
    assert " 3   .  .  .  #  ." in text


def test_cli_shows_blockade_games() -> None:
    done = run_cli("show", "blockade_run", "c1^d3 c3^a0")
    assert done.returncode == 0 and "to move: seat 0 (R)" in done.stdout
    done = run_cli("show", "blockade", "b0 b1 a1 a0")
    assert done.returncode == 0 and "game over (blocked): winner seat 1 (O)" in done.stdout
    done = run_cli("show", "blockade", "c2 e4")
    assert done.returncode == 2 and "event 2 (e4): cell [4,4] is not next" in done.stderr
