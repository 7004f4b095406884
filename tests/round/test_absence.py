"""Absence forfeits (a round decided so at its start, as an organiser's table is): a seat
whose first move never comes loses on time like any flag, the others play on, and the
round is never aborted for it, live or turn-based. No database."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import engine
from games import round as rnd
from games.round.clock import restored
from tests.round.helpers import T0, TIMED, TURN_BASED, at, day, moved

WINDOW = rnd.PRIVATE_FIRST_MOVE_SECONDS


def any_move(game: rnd.Round) -> dict:
    return engine.get(game.kind).legal_actions(game.state)[0].to_json()


def flag(game: rnd.Round, when) -> rnd.Progress:
    return rnd.play(game, None, rnd.Flag(), when, last_beat=when)


def test_an_absent_seat_in_a_duel_loses_on_time_and_the_opponent_wins():
    game = rnd.start("bloqueio2", TIMED, T0, absence_forfeits=True)
    assert game.clock.absence_forfeits
    # A chosen table's window, not an open table's 30 s.
    assert game.deadline == at(WINDOW)
    assert flag(game, at(rnd.FIRST_MOVE_SECONDS + 1)).round_after is game
    done = flag(game, at(WINDOW))
    assert [(e.seat, e.action) for e in done.events] == [(0, {"type": "timeout"})]
    assert done.round_after.status is rnd.Status.FINISHED
    assert done.result == engine.Result(1, (2, 1), "last_standing")
    assert done.ranking == (2, 1)  # a result that counts, unlike an abort's
    assert done.round_after.seats[0] is rnd.SeatStatus.FLAGGED
    assert done.round_after.clock.moved == (False, False)  # absent: never moved


def test_without_it_the_same_absence_aborts_as_before():
    game = rnd.start("bloqueio2", TIMED, T0)
    done = flag(game, at(rnd.FIRST_MOVE_SECONDS))
    assert done.round_after.status is rnd.Status.ABORTED and done.ranking is None


def test_in_a_four_seat_round_the_absent_seats_flag_in_turn_and_the_others_play_on():
    game = rnd.start("bloqueio", TIMED, T0, absence_forfeits=True)
    done = flag(game, at(WINDOW))  # seat 0 never came
    game = done.round_after
    assert [(e.seat, e.action) for e in done.events] == [(0, {"type": "timeout"})]
    assert game.status is rnd.Status.ACTIVE and game.state.in_game == (False, True, True,
                                                                       True)
    # Seat 1's own first-move window runs from its turn.
    assert game.state.turn == 1 and game.deadline == at(2 * WINDOW)
    game = moved(game, 1, any_move(game), at(WINDOW + 5)).round_after
    game = moved(game, 2, any_move(game), at(WINDOW + 9)).round_after
    done = flag(game, at(WINDOW + 9 + WINDOW))  # seat 3 never came either
    game = done.round_after
    assert [(e.seat, e.action) for e in done.events] == [(3, {"type": "timeout"})]
    assert game.status is rnd.Status.ACTIVE
    assert game.seats == (rnd.SeatStatus.FLAGGED, rnd.SeatStatus.PLAYING,
                          rnd.SeatStatus.PLAYING, rnd.SeatStatus.FLAGGED)
    assert game.clock.moved == (False, True, True, False)
    # Seat 1 has moved: from now on its ordinary clock runs.
    assert game.state.turn == 1
    assert game.deadline == at(2 * WINDOW + 9) + timedelta(milliseconds=TIMED["initial"]
                                                           * 1000)
    done = rnd.play(game, 2, rnd.Leave("resign"), at(2 * WINDOW + 20))
    # docs/rules.md: leavers rank after the seats still in, the latest to leave first.
    assert done.result == engine.Result(1, (4, 1, 2, 3), "last_standing")


def test_a_missed_turn_based_first_move_flags_even_when_nobody_has_moved():
    game = rnd.start("quoridor4", TURN_BASED, T0, absence_forfeits=True)
    assert game.deadline == day(2)  # the per-move deadline, as every turn's
    assert flag(game, day(1)).round_after is game
    done = flag(game, day(2))
    assert [(e.seat, e.action) for e in done.events] == [(0, {"type": "timeout"})]
    assert done.round_after.status is rnd.Status.ACTIVE
    assert done.round_after.deadline == day(4)  # seat 1's days, afresh


@pytest.mark.parametrize("kind", engine.KINDS)
def test_a_table_where_nobody_comes_ends_with_the_last_seat_never_aborted(kind):
    """Every kind: each absent seat flags in turn; the last seat asked to move is the
    last standing and wins (it was never asked: its absence cost nobody anything)."""
    game = rnd.start(kind, TIMED, T0, absence_forfeits=True)
    seats = len(game.seats)
    when = T0
    for n in range(seats - 1):
        when = when + timedelta(seconds=WINDOW)
        done = flag(game, when)
        assert [e.action for e in done.events][:1] == [{"type": "timeout"}]
        game = done.round_after
        assert game.status is (rnd.Status.FINISHED if n == seats - 2 else rnd.Status.ACTIVE)
    assert done.result is not None and done.result.reason != "aborted"
    assert sum(s is rnd.SeatStatus.FLAGGED for s in game.seats) == seats - 1


def test_the_option_survives_the_stored_clock_and_the_replay():
    start = rnd.start("bloqueio", TIMED, T0, absence_forfeits=True)
    done = flag(start, at(WINDOW))
    after = done.round_after
    back = restored(TIMED, after.clock.to_json(), after.clock.turn_started_at,
                    absence_forfeits=True)
    assert back == after.clock and not back.missed_first_move_aborts(1)
    assert rnd.replay(start, done.events) == after
