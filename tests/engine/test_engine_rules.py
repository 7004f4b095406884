"""Behaviour of the public API beyond the vectors: errors, leaving, limits, text forms."""

from __future__ import annotations

import copy
import itertools

import pytest

from games import engine
from games.engine.barrier import Barrier, Move
from tests.engine.helpers import run_cli

BLOQUEIO = engine.get("bloqueio")


def test_kinds_are_registered_and_unknown_kind_is_refused() -> None:
    first = ("bloqueio", "bloqueio2", "quoridor", "quoridor4", "blockade", "blockade_run")
    assert engine.KINDS[:6] == first  # later families are appended after these
    assert [engine.get(k).seats for k in first] == [4, 2, 2, 4, 2, 2]
    assert [engine.get(k).max_plies for k in first] == [400, 200, 200, 400, 200, 200]
    with pytest.raises(engine.UnknownKind):
        engine.get("chess")
    assert issubclass(engine.UnknownKind, engine.EngineError)
    assert issubclass(engine.EngineError, ValueError)


def test_initial_state_json_matches_contract() -> None:
    assert BLOQUEIO.initial().to_json() == {
        "turn": 0,
        "pawns": [[1, 5], [5, 9], [9, 5], [5, 1]],
        "barriers": [],
        "barriers_left": [6, 6, 6, 6],
        "in_game": [True, True, True, True],
        "ply": 0,
        "left_order": [],
    }


def test_states_are_immutable_values() -> None:
    a = BLOQUEIO.initial()
    b = BLOQUEIO.apply(a, Move((2, 5)))
    assert a.ply == 0 and a.pawns[0] == (1, 5)
    assert b == BLOQUEIO.state_from_json(b.to_json())
    assert hash(b) == hash(BLOQUEIO.state_from_json(b.to_json()))
    with pytest.raises(AttributeError):
        a.turn = 3  # type: ignore[misc]


def test_illegal_action_carries_a_reason() -> None:
    state = BLOQUEIO.initial()
    with pytest.raises(engine.IllegalAction) as info:
        BLOQUEIO.apply(state, Move((0, 5)))
    assert info.value.reason == "cell [0,5] is not enterable"
    state = BLOQUEIO.apply(state, Barrier((3, 4), "H"))
    verdict = BLOQUEIO.is_legal(state, Barrier((3, 4), "V"))
    assert not verdict and verdict.reason == "barrier crosses H at [3,4]"
    assert BLOQUEIO.is_legal(state, Barrier((3, 5), "H")).reason == ("barrier overlaps H at [3,4]")
    assert BLOQUEIO.is_legal(state, Move((5, 8)), seat=2).reason == "not your turn"
    assert BLOQUEIO.is_legal(state, engine.PASS).reason


def test_no_path_reason_names_the_seat() -> None:
    rules = engine.get("quoridor4")
    state = rules.state_from_json(
        {
            "turn": 1,
            "pawns": [[7, 0], [0, 4], [4, 0], [4, 8]],
            "barriers": [{"at": [6, 0], "orientation": "H", "seat": 2}],
            "barriers_left": [5, 5, 4, 5],
            "in_game": [True] * 4,
            "ply": 41,
            "left_order": [],
        }
    )
    assert rules.is_legal(state, Barrier((7, 0), "V")).reason == "no path for seat 0"


def test_parse_action_is_strict() -> None:
    ok = BLOQUEIO.parse_action({"type": "barrier", "at": [3, 4], "orientation": "H"})
    assert ok == Barrier((3, 4), "H")
    assert ok.to_json() == {"type": "barrier", "at": [3, 4], "orientation": "H"}
    assert BLOQUEIO.parse_action({"type": "pass"}) is engine.PASS
    for junk in [
        None,
        [],
        "move",
        {"type": "move", "to": [2, 5], "extra": 1},
        {"type": "move", "to": [True, 5]},
        {"type": "move", "to": [2.0, 5]},
        {"type": "move", "to": [11, 5]},
        {"type": "barrier", "at": [0, 4], "orientation": "H"},
        {"type": "barrier", "at": [3, 4], "orientation": "h"},
        {"type": "resign"},
        {"type": "timeout"},
        {"type": "removed", "seat": 1},
        {"type": "move"},
        {"type": "move", "to": [2**200, 1]},
        {1: 2},
    ]:
        with pytest.raises(engine.InvalidAction):
            BLOQUEIO.parse_action(junk)


@pytest.mark.parametrize(
    "patch",
    [
        lambda s: s["pawns"].__setitem__(0, [0, 5]),  # another seat's goal zone
        lambda s: s["pawns"].__setitem__(0, [0, 0]),  # corner
        lambda s: s["pawns"].__setitem__(1, [1, 5]),  # two pawns on one cell
        lambda s: s["barriers"].extend(
            [
                {"at": [3, 3], "orientation": "H", "seat": 0},
                {"at": [3, 4], "orientation": "H", "seat": 1},
            ]
        ),  # overlap
        lambda s: s["barriers"].extend(
            [
                {"at": [3, 3], "orientation": "H", "seat": 0},
                {"at": [3, 3], "orientation": "V", "seat": 1},
            ]
        ),  # crossing
        lambda s: s["barriers"].append({"at": [3, 3], "orientation": "H", "seat": 0}),  # count
        lambda s: s["in_game"].__setitem__(0, 1),  # int as bool
        lambda s: s.__setitem__("ply", True),  # bool as int
        lambda s: s.__setitem__("turn", 4),
        lambda s: s.__setitem__("turn", None),  # not over, so turn cannot be null
        lambda s: s["pawns"].pop(),
        lambda s: s.__setitem__("left_order", [2]),
        lambda s: s.__setitem__("extra", 1),
        lambda s: s.pop("ply"),
        lambda s: s.__setitem__("ply", 401),
    ],
)
def test_state_from_json_refuses_malformed_or_impossible(patch) -> None:
    obj = copy.deepcopy(BLOQUEIO.initial().to_json())
    obj["ply"] = 8
    patch(obj)
    with pytest.raises(engine.InvalidState):
        BLOQUEIO.state_from_json(obj)


def test_walled_in_seat_is_an_invalid_state() -> None:
    obj = BLOQUEIO.initial().to_json()
    obj["pawns"][0] = [1, 1]
    obj["barriers"] = [{"at": [1, 1], "orientation": "V", "seat": 0}]
    obj["barriers_left"] = [5, 6, 6, 6]
    obj["ply"] = 3
    assert BLOQUEIO.state_from_json(obj)
    obj["barriers"].append({"at": [2, 1], "orientation": "H", "seat": 1})
    obj["barriers_left"] = [5, 5, 6, 6]
    with pytest.raises(engine.InvalidState, match="seat 0 has no path"):
        BLOQUEIO.state_from_json(obj)


def test_leave_out_of_turn_keeps_the_turn_and_on_turn_passes_it() -> None:
    state = BLOQUEIO.initial()
    out = BLOQUEIO.leave(state, 2, "timeout")
    assert out.turn == 0 and out.ply == 1 and out.pawns[2] is None
    assert out.left_order == (2,) and out.in_game == (True, True, False, True)
    on = BLOQUEIO.leave(out, 0, "resign")
    assert on.turn == 1
    after = BLOQUEIO.apply(on, Move((5, 8)))
    assert after.turn == 3  # seat 2 is skipped
    with pytest.raises(engine.IllegalAction):
        BLOQUEIO.leave(after, 2, "removed")
    with pytest.raises(engine.IllegalAction):
        BLOQUEIO.leave(after, 7, "resign")
    with pytest.raises(engine.IllegalAction):
        BLOQUEIO.leave(after, 1, "bored")
    last = BLOQUEIO.leave(after, 1, "removed")
    result = BLOQUEIO.result(last)
    assert last.turn is None and result is not None
    assert result.to_json() == {"winner": 3, "ranking": [3, 2, 4, 1], "reason": "last_standing"}
    with pytest.raises(engine.IllegalAction):
        BLOQUEIO.leave(last, 3, "resign")


def test_barriers_stay_when_their_seat_leaves() -> None:
    state = BLOQUEIO.apply(BLOQUEIO.initial(), Barrier((4, 4), "H"))
    state = BLOQUEIO.leave(state, 0, "resign")
    assert [b.seat for b in state.barriers] == [0]
    assert not BLOQUEIO.is_legal(state, Barrier((4, 4), "V"))


def test_move_limit_ends_the_game_by_distance() -> None:
    rules = engine.get("quoridor")
    obj = rules.initial().to_json()
    obj["ply"] = 199
    state = rules.state_from_json(obj)
    end = rules.apply(state, Move((7, 4)))
    assert end.turn is None and rules.legal_actions(end) == []
    result = rules.result(end)
    assert result == engine.Result(None, (1, 2), "move_limit")


def test_must_pass_and_pass_application() -> None:
    rules = engine.get("quoridor4")
    state = rules.state_from_json(
        {
            "turn": 0,
            "pawns": [[2, 4], [0, 4], [1, 4], [4, 8]],
            "barriers": [
                {"at": [1, 3], "orientation": "V", "seat": 0},
                {"at": [1, 4], "orientation": "V", "seat": 0},
                {"at": [2, 4], "orientation": "H", "seat": 0},
                {"at": [6, 0], "orientation": "H", "seat": 0},
                {"at": [6, 6], "orientation": "H", "seat": 0},
            ],
            "barriers_left": [0, 5, 5, 5],
            "in_game": [True] * 4,
            "ply": 40,
            "left_order": [],
        }
    )
    assert rules.must_pass(state)
    assert rules.legal_actions(state) == [engine.PASS]
    assert rules.is_legal(state, engine.PASS)
    passed = rules.apply(state, {"type": "pass"})
    assert passed.turn == 1 and passed.ply == 41 and not rules.must_pass(passed)
    assert not rules.must_pass(rules.initial())


def test_shortest_path() -> None:
    state = BLOQUEIO.initial()
    length, path = BLOQUEIO.shortest_path(state, 0)
    assert length == 9 and path[0] == (1, 5) and path[-1][0] == 10 and len(path) == 10
    state = BLOQUEIO.apply(state, Barrier((1, 4), "H"))
    length, path = BLOQUEIO.shortest_path(state, 0)
    assert length == 10
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.pairwise(path))
    state = BLOQUEIO.leave(state, 1, "resign")
    assert BLOQUEIO.shortest_path(state, 1) is None
    q = engine.get("quoridor")
    assert q.shortest_path(q.initial(), 1) == (8, [(r, 4) for r in range(9)])


def test_notation_grammar_and_round_trip() -> None:
    rules = BLOQUEIO
    assert rules.format_action(Move((2, 5))) == "f2"
    assert rules.format_action(Barrier((3, 3), "H")) == "d3h"
    assert rules.format_action(Move((10, 5))) == "f10"
    assert rules.format_action(engine.PASS) == "pass"
    assert rules.format_action(engine.Leave(2, "timeout")) == "timeout:2"
    assert rules.parse_notation("d3v") == Barrier((3, 3), "V")
    for bad in ["", "z1", "f", "f01", "a0h", "resign:9", "d3x", "F2", 7, "f2 f3"]:
        with pytest.raises(engine.InvalidAction):
            rules.parse_notation(bad)  # type: ignore[arg-type]
    events = rules.parse_game("f2 i5 resign:2 c5 d3h")
    assert rules.format_game(events) == "f2 i5 resign:2 c5 d3h"
    state = rules.replay(events)
    assert state.ply == 5 and state.in_game[2] is False


def test_render_shows_zones_pawns_and_barriers() -> None:
    state = BLOQUEIO.replay(BLOQUEIO.parse_game("f2 i5 f8 c5 e4h e5v"))
    text = BLOQUEIO.render(state)
    assert "=======" in text and "#" in text
    assert " R " in text and " G " in text and " r " in text and " y " in text
    assert "to move: seat 2 (G)" in text
    q = engine.get("quoridor4")
    assert "goals:" in q.render(q.initial())


def test_cli_show_initial_and_after_a_game() -> None:
    done = run_cli("show", "bloqueio")
    assert done.returncode == 0 and "to move: seat 0 (R)" in done.stdout
    done = run_cli("show", "quoridor", "e7 e1 d2h resign:1")
    assert done.returncode == 0
    assert "game over (last_standing): winner seat 0" in done.stdout


def test_cli_reports_illegal_events() -> None:
    done = run_cli("show", "bloqueio", "f2 f3")
    assert done.returncode == 2 and "event 2" in done.stderr
    done = run_cli("show", "checkers")
    assert done.returncode == 2 and "unknown game kind" in done.stderr


# A real Quoridor4 game of 44 plies: seat 0 walks up to e2 (row 2) while seat 2 reaches
# e1 and seat 1 waits on e0, then walls itself in (barriers left and right of e1-e2,
# below e2) with its last barrier. Every event legal, checked as it is replayed.
JAMMED = ("e7 a7h a3 h4 e6 c7h a2 i4 e5 g7h a1 h4 e4 f0 b1 i4 e3 e0 c1 h4 e2 f0 d1 i4 "
          "a6h e0 e1 h4 g6h f0 a5h i4 d1v e0 c5h h4 e1v f0 g5h i4 e2h e0 g4v h4")


def test_a_seat_that_cannot_act_passes_and_play_goes_on() -> None:
    """docs/rules.md#turns-passes-and-plies: the seat to move with no legal action gets a
    `pass`, and the game goes on while another seat can act."""
    rules = engine.get("quoridor4")
    state = rules.replay(rules.parse_game(JAMMED))
    assert (state.ply, state.turn, state.barriers_left[0]) == (44, 0, 0)
    assert state.pawns[:3] == ((2, 4), (0, 4), (1, 4))
    assert rules.legal_actions(state) == [engine.PASS] and rules.must_pass(state)
    for blocked in ((1, 4), (0, 4), (2, 3), (2, 5), (3, 4), (1, 3), (1, 5)):
        assert not rules.is_legal(state, Move(blocked)).ok, blocked
    after = rules.apply(state, engine.PASS)
    assert (after.ply, after.turn, rules.result(after)) == (45, 1, None)
    assert not rules.must_pass(after) and rules.legal_actions(after) != [engine.PASS]
    assert rules.state_from_json(after.to_json()) == after
    assert rules.format_game([*rules.parse_game(JAMMED), engine.PASS]).endswith(" h4 pass")


def test_stalemate_ends_the_game_when_nobody_can_act(monkeypatch: pytest.MonkeyPatch) -> None:
    """The end logic alone, with `_has_action` patched: no real position reaches it. A
    pawn that cannot move has only pawns or (Bloqueio) foreign zones across its open
    sides, so if no pawn can, every path to a goal runs through pawns alone: a cluster of
    one pawn per seat still playing would have to reach every such seat's goal with none
    of them standing in its own, which no board of the barrier kinds allows."""
    rules = engine.get("quoridor")
    monkeypatch.setattr(rules, "_has_action", lambda state, seat: False)
    end = rules.apply(rules.initial(), Move((7, 4)))
    assert end.turn is None and rules.legal_actions(end) == [] and not rules.must_pass(end)
    assert rules.result(end) == engine.Result(None, (1, 2), "stalemate")
    assert rules.state_from_json(end.to_json()) == end


def test_events_from_server_json() -> None:
    rules = engine.get("quoridor4")
    state = rules.replay([{"type": "move", "to": [7, 4]}, {"type": "timeout", "seat": 2}])
    assert state.left_order == (2,) and state.turn == 1
    assert rules.parse_event({"type": "removed", "seat": 3}) == engine.Leave(3, "removed")
    with pytest.raises(engine.InvalidAction):
        rules.parse_event({"type": "resign", "seat": 4})
    with pytest.raises(engine.IllegalAction, match="not your turn"):
        rules.apply(state, Move((1, 4)), seat=0)
    assert rules.apply(state, Move((1, 4)), seat=1).turn == 3
