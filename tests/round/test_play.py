"""`play`, one action at a time: turns, plies, parsing, forced passes, leaving, results,
aborts, and each refusal with its code and parameters (no database)."""

from __future__ import annotations

import pytest

from games import engine
from games import round as rnd
from games.round import refusals
from tests.round.helpers import RACE, T0, TIMED, WIN, at, at_position, moved, script, vector

MOVE = {"type": "move", "to": [2, 5]}  # seat 0's first step, every barrier kind


def test_a_started_round_is_running_with_nobody_left():
    game = rnd.start("bloqueio", None, T0)
    assert game.status is rnd.Status.ACTIVE
    assert game.ply == 0 and game.state.turn == 0
    assert game.seats == (rnd.SeatStatus.PLAYING,) * 4
    assert game.started_at == T0 and game.finished_at is None and game.result is None
    assert game.clock is None and game.deadline is None


def test_an_accepted_action_is_one_event_at_the_next_ply():
    game = rnd.start("bloqueio", None, T0)
    done = moved(game, 0, MOVE, at(5))
    assert [(e.ply, e.seat, e.action, e.at) for e in done.events] == [(1, 0, MOVE, at(5))]
    assert done.events[0].as_json() == {"ply": 1, "seat": 0, "action": MOVE,
                                        "at": "2026-01-01T12:00:05Z"}
    assert done.round_after.ply == 1 and done.round_after.state.turn == 1
    assert done.result is None and done.refused is None and done.ranking is None
    assert game.ply == 0  # the round before is a value: unchanged


def test_the_event_holds_the_action_as_the_rules_write_it():
    game = rnd.start("blokus_duo", None, T0)
    rules = engine.get("blokus_duo")
    action = rules.legal_actions(game.state)[0].to_json()
    shuffled = {**action, "cells": list(reversed(action["cells"]))}
    done = moved(game, 0, shuffled, T0)
    assert done.events[0].action == action  # cells sorted row-major


def test_a_stale_ply_is_refused_with_both_plies():
    game = script(rnd.start("bloqueio", None, T0), [MOVE])
    with pytest.raises(refusals.StalePly) as refused:
        rnd.play(game, 1, rnd.Act({"type": "move", "to": [5, 8]}, ply=0), T0)
    assert refused.value.code == "stale_ply"
    assert refused.value.params == {"ply": 1, "sent": 0}


@pytest.mark.parametrize("seat", [1, 2, 3, None])
def test_only_the_seat_to_move_acts(seat):
    with pytest.raises(refusals.NotYourTurn) as refused:
        moved(rnd.start("bloqueio", None, T0), seat, MOVE, T0)
    assert (refused.value.code, refused.value.params) == ("not_your_turn", {"seat": 0})


@pytest.mark.parametrize("action", [
    {"type": "move", "to": [4, 5]},  # two steps
    {"type": "move", "to": [2, 5], "extra": 1},
    {"type": "teleport"},
    "move",
    None,
    {"type": "move", "to": [True, 5]},
])
def test_an_action_the_rules_refuse_is_illegal_with_their_reason(action):
    with pytest.raises(refusals.IllegalAction) as refused:
        moved(rnd.start("bloqueio", None, T0), 0, action, T0)
    assert refused.value.code == "illegal_action"
    assert refused.value.params["reason"]


def test_a_pass_is_never_sent():
    with pytest.raises(refusals.PassNotSent) as refused:
        moved(rnd.start("bloqueio", None, T0), 0, {"type": "pass"}, T0)
    assert refused.value.code == "illegal_action" and refused.value.params == {}


def test_the_passes_an_action_forces_come_with_it():
    case = vector("bloqueio", "bloqueio/hand/pass-needed-after-move")
    game = at_position("bloqueio", case["start"])
    done = moved(game, 3, case["actions"][0], at(7))
    assert [(e.ply, e.seat, e.action, e.at) for e in done.events] == [
        (44, 3, {"type": "move", "to": [9, 1]}, at(7)), (45, 0, {"type": "pass"}, at(7))]
    assert done.round_after.ply == 45 and done.round_after.state.turn == 1


def test_the_winning_move_ends_the_round_with_the_engines_result():
    game = script(rnd.start("bloqueio2", TIMED, T0), RACE, step=1)
    done = moved(game, 0, WIN, at(17), last_beat=at(17))
    after = done.round_after
    assert after.status is rnd.Status.FINISHED and after.finished_at == at(17)
    assert done.result == after.result == engine.get("bloqueio2").result(after.state)
    assert done.result.winner == 0 and done.result.reason == "goal"
    assert done.ranking == (1, 2)  # the ratings' input
    assert after.deadline is None


def test_a_round_played_to_the_end_by_legal_actions_ends_once():
    rules = engine.get("blockade")
    game = rnd.start("blockade", None, T0)
    results = []
    while game.status is rnd.Status.ACTIVE:
        done = moved(game, game.state.turn, rules.legal_actions(game.state)[-1].to_json(), T0)
        results.append(done.result)
        game = done.round_after
    assert [r for r in results if r is not None] == [game.result]
    assert results[-1] == rules.result(game.state)


@pytest.mark.parametrize("status", ["finished", "aborted"])
def test_a_round_that_ended_refuses_everything_but_says_how_it_ended(status):
    game = script(rnd.start("bloqueio2", None, T0), RACE)
    if status == "finished":
        game = moved(game, 0, WIN, T0).round_after
    else:
        game = rnd.play(game, None, rnd.Abort(), T0).round_after
    for seat, action in [(0, rnd.Act(WIN, game.ply)), (1, rnd.Leave("resign")),
                         (None, rnd.Flag()), (None, rnd.Resume(T0))]:
        with pytest.raises(refusals.GameOver) as refused:
            rnd.play(game, seat, action, T0)
        assert (refused.value.code, refused.value.params) == ("game_over", {"status": status})
    with pytest.raises(refusals.AlreadyOver) as refused:
        rnd.play(game, None, rnd.Abort(), T0)
    assert refused.value.code == "game_over" and refused.value.params == {"status": status}


def test_a_waiting_round_can_only_be_aborted():
    game = rnd.waiting("quoridor")
    for seat, action in [(0, rnd.Act(MOVE, 0)), (0, rnd.Leave()), (None, rnd.Flag())]:
        with pytest.raises(refusals.NotStarted) as refused:
            rnd.play(game, seat, action, T0)
        assert refused.value.code == "not_started"
    done = rnd.play(game, None, rnd.Abort(), at(3))
    assert done.round_after.status is rnd.Status.ABORTED


def test_an_abort_ends_the_round_with_no_result_and_no_event():
    game = script(rnd.start("bloqueio", TIMED, T0), [MOVE])
    done = rnd.play(game, None, rnd.Abort(), at(9))
    after = done.round_after
    assert done.events == ()
    assert after.status is rnd.Status.ABORTED and after.finished_at == at(9)
    assert after.result == engine.Result(None, (1, 1, 1, 1), "aborted")
    assert done.result == after.result and done.ranking is None  # nobody placed
    assert after.state == game.state and after.clock == game.clock
    assert after.deadline is None


def test_resigning_out_of_turn_keeps_the_turn():
    game = rnd.start("bloqueio", None, T0)
    done = rnd.play(game, 2, rnd.Leave("resign"), at(4))
    assert [(e.seat, e.action) for e in done.events] == [(2, {"type": "resign"})]
    after = done.round_after
    assert after.state.turn == 0 and after.ply == 1
    assert after.seats[2] is rnd.SeatStatus.RESIGNED and after.seats[2].left
    assert after.state.in_game == (True, True, False, True)


def test_resigning_on_ones_turn_passes_it_on():
    game = rnd.play(rnd.start("bloqueio", None, T0), 1, rnd.Leave("resign"), T0).round_after
    done = rnd.play(game, 0, rnd.Leave("resign"), T0)
    assert done.round_after.state.turn == 2  # seat 1 left: skipped


@pytest.mark.parametrize(("why", "status"), [("resign", rnd.SeatStatus.RESIGNED),
                                             ("removed", rnd.SeatStatus.REMOVED),
                                             ("timeout", rnd.SeatStatus.FLAGGED)])
def test_each_way_of_leaving_is_its_event_and_its_seat_status(why, status):
    done = rnd.play(rnd.start("quoridor4", None, T0), 3, rnd.Leave(why), T0)
    assert [(e.seat, e.action) for e in done.events] == [(3, {"type": why})]
    assert done.round_after.seats == (rnd.SeatStatus.PLAYING,) * 3 + (status,)


def test_a_seat_leaves_once():
    game = rnd.play(rnd.start("bloqueio", None, T0), 1, rnd.Leave(), T0).round_after
    for why in ("resign", "removed"):
        with pytest.raises(refusals.AlreadyLeft) as refused:
            rnd.play(game, 1, rnd.Leave(why), T0)
        assert (refused.value.code, refused.value.params) == ("already_left", {"seat": 1})


def test_leaving_needs_a_reason_and_a_seat():
    game = rnd.start("bloqueio", None, T0)
    for seat, why in [(0, "bored"), (None, "resign"), (4, "resign")]:
        with pytest.raises(ValueError, match="no leaving"):
            rnd.play(game, seat, rnd.Leave(why), T0)


def test_the_last_seat_standing_wins_and_leavers_rank_latest_first():
    game = rnd.start("bloqueio", None, T0)
    for seat in (2, 0, 3):
        done = rnd.play(game, seat, rnd.Leave(), at(seat))
        game = done.round_after
    assert game.status is rnd.Status.FINISHED and game.finished_at == at(3)
    assert done.result.winner == 1 and done.result.reason == "last_standing"
    # 1 wins; then the latest to leave: 3, then 0, then 2 (docs/rules.md#ranking)
    assert done.ranking == (3, 1, 4, 2)


def test_two_seats_one_resigns_the_other_wins():
    done = rnd.play(rnd.start("blockade_run", TIMED, T0), 0, rnd.Leave("resign"), T0)
    assert done.result.winner == 1 and done.ranking == (2, 1)


def test_a_flag_stands_when_the_leave_after_it_is_refused():
    """Found by the property test: a due, watched flag comes first; a removal of a seat
    that had already left is then refused, and the flag is still the progress."""
    rules = engine.get("bloqueio")
    game = rnd.start("bloqueio", TIMED, T0)
    for _ in range(4):  # every seat makes its (free) first move
        step = next(a for a in rules.legal_actions(game.state) if a.to_json()["type"] == "move")
        game = rnd.play(game, game.state.turn, rnd.Act(step.to_json(), game.ply), T0).round_after
    game = rnd.play(game, 2, rnd.Leave("resign"), T0).round_after
    late = at(TIMED["initial"] + 1)
    done = rnd.play(game, 2, rnd.Leave("removed"), late, last_beat=late)
    assert [(e.seat, e.action) for e in done.events] == [(0, {"type": "timeout"})]
    assert isinstance(done.refused, refusals.AlreadyLeft)
    assert done.round_after.seats[0] is rnd.SeatStatus.FLAGGED
    assert done.round_after.seats[2] is rnd.SeatStatus.RESIGNED
