"""Clocks inside the round: free first moves, Fischer charging, flags, first-move
aborts, and time nobody watched given back (no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from games import engine
from games import round as rnd
from games.round import refusals
from games.round.clock import Clock, charged, forgiven, witnessed
from tests.round.helpers import T0, TIMED, at, moved, opened


def any_move(game: rnd.Round) -> dict:
    return engine.get(game.kind).legal_actions(game.state)[0].to_json()


def test_a_timed_round_starts_every_clock_full_with_the_first_move_deadline():
    game = rnd.start("bloqueio2", TIMED, T0)
    assert game.clock == Clock((60_000, 60_000), (False, False), 2_000, T0)
    assert game.deadline == T0 + timedelta(seconds=rnd.FIRST_MOVE_SECONDS)
    assert game.clock.to_json() == {"remaining_ms": [60_000, 60_000], "moved": [False, False]}


def test_the_first_move_is_free():
    game = moved(rnd.start("bloqueio2", TIMED, T0), 0, {"type": "move", "to": [2, 5]}, at(25))
    clock = game.round_after.clock
    assert clock.remaining_ms == (60_000, 60_000) and clock.moved == (True, False)
    assert clock.turn_started_at == at(25)
    assert game.round_after.deadline == at(25 + rnd.FIRST_MOVE_SECONDS)  # seat 1's first


def test_a_move_is_charged_its_time_plus_the_increment():
    game = opened()  # both first moves made, seat 0's turn since 2 s
    done = moved(game, 0, any_move(game), at(12))
    assert done.round_after.clock.remaining_ms == (60_000 - 10_000 + 2_000, 60_000)
    assert done.round_after.deadline == at(12 + 60)


def test_leaving_on_ones_turn_is_charged_without_increment():
    game = opened()
    game = moved(game, 0, any_move(game), at(12)).round_after  # seat 1 to move since 12 s
    game = moved(game, 1, any_move(game), at(22)).round_after  # seat 0's turn since 22 s
    done = rnd.play(game, 0, rnd.Leave("resign"), at(27))
    assert done.round_after.clock.remaining_ms == (52_000 - 5_000, 52_000)


def test_leaving_out_of_turn_leaves_the_running_turn_alone():
    game = opened("quoridor4")  # seat 0's turn since 4 s
    done = rnd.play(game, 2, rnd.Leave("resign"), at(30))
    assert done.round_after.clock == game.clock
    assert done.round_after.deadline == game.deadline


def test_forced_passes_are_never_charged():
    clock = Clock((10_000, 10_000, 10_000), (True, True, True), 1_000, T0)
    after = charged(clock, 0, 2, [(0, {"type": "move"}), (1, {"type": "pass"})], at(3))
    assert after.remaining_ms == (8_000, 10_000, 10_000) and after.turn_started_at == at(3)


def test_a_timeout_leaves_the_seat_nothing():
    clock = Clock((10_000, 10_000), (True, True), 1_000, T0)
    assert charged(clock, 0, None, [(0, {"type": "timeout"})], at(11)).remaining_ms == (0,
                                                                                      10_000)


def test_a_flag_falls_when_its_deadline_passed_while_the_worker_watched():
    game = opened()  # seat 0 flags at 2 + 60 s
    late = at(62)
    assert game.deadline == late and game.overdue(late) and not game.overdue(at(61.9))
    done = rnd.play(game, None, rnd.Flag(), late, last_beat=late)
    after = done.round_after
    assert [(e.seat, e.action, e.at) for e in done.events] == [(0, {"type": "timeout"}, late)]
    assert after.seats[0] is rnd.SeatStatus.FLAGGED
    assert after.clock.remaining_ms[0] == 0
    # docs/rules.md#leaving: a timeout is leaving; the last seat standing wins.
    assert done.result == engine.Result(1, (2, 1), "last_standing")
    assert after.status is rnd.Status.FINISHED and after.finished_at == late


def test_a_flag_in_a_four_seat_round_passes_the_turn_and_play_goes_on():
    game = opened("quoridor4")  # seat 0's turn since 4 s
    done = rnd.play(game, None, rnd.Flag(), at(64), last_beat=at(64))
    after = done.round_after
    assert after.status is rnd.Status.ACTIVE and done.result is None
    assert after.state.turn == 1 and after.state.in_game == (False, True, True, True)
    assert after.clock.turn_started_at == at(64)
    assert after.deadline == at(64 + 60)


def test_nothing_falls_before_the_deadline():
    game = opened()
    done = rnd.play(game, None, rnd.Flag(), at(61), last_beat=at(61))
    assert done.round_after is game and done.events == ()


def test_a_missing_first_move_aborts_the_round():
    game = rnd.start("bloqueio2", TIMED, T0)
    late = at(rnd.FIRST_MOVE_SECONDS)
    done = rnd.play(game, None, rnd.Flag(), late, last_beat=late)
    assert done.events == ()
    assert done.round_after.status is rnd.Status.ABORTED
    assert done.result.reason == "aborted" and done.ranking is None


def test_each_seat_gets_its_first_move_window_from_its_own_turn():
    game = rnd.start("quoridor4", TIMED, T0)
    game = moved(game, 0, any_move(game), at(29)).round_after
    game = moved(game, 1, any_move(game), at(58)).round_after
    assert game.deadline == at(58 + rnd.FIRST_MOVE_SECONDS)  # seat 2's window, whole


def test_a_private_table_waits_longer_and_aborts_only_while_nobody_moved():
    game = rnd.start("quoridor4", TIMED, T0, private=True)
    assert game.deadline == at(rnd.PRIVATE_FIRST_MOVE_SECONDS)
    still = rnd.play(game, None, rnd.Flag(), at(rnd.FIRST_MOVE_SECONDS + 1),
                     last_beat=at(rnd.FIRST_MOVE_SECONDS + 1))
    assert still.round_after.status is rnd.Status.ACTIVE  # 30 s is not the window here
    late = at(rnd.PRIVATE_FIRST_MOVE_SECONDS)
    assert rnd.play(game, None, rnd.Flag(), late, last_beat=late).round_after.status \
        is rnd.Status.ABORTED
    game = moved(game, 0, any_move(game), at(5)).round_after
    late = at(5 + rnd.PRIVATE_FIRST_MOVE_SECONDS)
    done = rnd.play(game, None, rnd.Flag(), late, last_beat=late)
    # seat 0 played: seat 1 missing its first move runs out of time, the others go on
    assert [(e.seat, e.action) for e in done.events] == [(1, {"type": "timeout"})]
    assert done.round_after.status is rnd.Status.ACTIVE
    assert done.round_after.seats[1] is rnd.SeatStatus.FLAGGED


def test_an_action_after_the_flag_fell_is_refused_and_the_flag_recorded():
    game = opened()
    done = moved(game, 0, any_move(game), at(70), last_beat=at(69))
    assert isinstance(done.refused, refusals.FlagFell)
    assert done.refused.params == {"seat": 0, "ply": 3}
    assert [e.action for e in done.events] == [{"type": "timeout"}]
    assert done.round_after.status is rnd.Status.FINISHED


def test_another_seat_leaving_after_the_flag_still_leaves():
    game = opened("quoridor4")
    done = rnd.play(game, 2, rnd.Leave("resign"), at(70), last_beat=at(70))
    assert [(e.seat, e.action) for e in done.events] == [
        (0, {"type": "timeout"}), (2, {"type": "resign"})]
    assert done.refused is None
    assert done.round_after.seats[0] is rnd.SeatStatus.FLAGGED
    assert done.round_after.seats[2] is rnd.SeatStatus.RESIGNED


@pytest.mark.parametrize("seat", [0, 1])
def test_leaving_after_the_flag_ended_a_two_seat_round_changes_nothing_more(seat):
    done = rnd.play(opened(), seat, rnd.Leave("resign"), at(70), last_beat=at(70))
    assert [(e.seat, e.action) for e in done.events] == [(0, {"type": "timeout"})]
    assert done.refused is None and done.result.winner == 1


def test_a_deadline_nobody_watched_gives_the_time_back_and_play_goes_on():
    game = opened()  # seat 0's turn since 2 s, 60 s on its clock
    beat = at(12)  # the worker died 10 s into the turn
    move = any_move(game)
    done = moved(game, 0, move, at(500), last_beat=beat)
    assert done.refused is None and [e.action for e in done.events] == [move]
    # charged the 10 s watched, not the 498 s
    assert done.round_after.clock.remaining_ms[0] == 60_000 - 10_000 + 2_000


def test_with_no_beat_at_all_no_flag_ever_falls():
    game = opened()
    done = rnd.play(game, None, rnd.Flag(), at(1000), last_beat=None)
    assert done.events == () and done.round_after.status is rnd.Status.ACTIVE
    # the whole turn was never watched: it starts again now
    assert done.round_after.clock.turn_started_at == at(1000)
    assert done.round_after.deadline == at(1060)


def test_resume_gives_the_running_turn_the_unwatched_time():
    game = opened()  # turn since 2 s
    done = rnd.play(game, None, rnd.Resume(since=at(22)), at(1000))
    assert done.events == ()
    # 20 s were used while the worker watched; the 40 s left run from now
    assert done.round_after.deadline == at(1000 + 40)
    untimed = rnd.start("bloqueio2", None, T0)
    assert rnd.play(untimed, None, rnd.Resume(at(1)), at(99)).round_after is untimed


def test_the_grace_decides_what_was_watched():
    deadline = at(60)
    assert witnessed(deadline, deadline - rnd.DOWNTIME_GRACE)
    assert not witnessed(deadline, deadline - rnd.DOWNTIME_GRACE - timedelta(microseconds=1))
    assert not witnessed(deadline, None)


def test_time_given_back_is_never_negative():
    clock = Clock((1_000,), (True,), 0, at(50))
    assert forgiven(clock, at(60), at(55)) == clock  # the beat is later than now
    assert forgiven(clock, at(10), at(70)).turn_started_at == at(70)


def test_no_clock_no_deadline():
    game = rnd.start("bloqueio2", None, T0)
    assert game.deadline is None and not game.overdue(at(10**6))
    assert replace(game, status=rnd.Status.FINISHED).deadline is None
