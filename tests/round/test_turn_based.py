"""Turn-based clocks inside the round (`{"days": N}`): each turn gets N days afresh,
time never accumulates, a missed deadline is a flag (docs/rules.md#leaving) unless nobody
at the table has moved yet, and days nobody watched are given back. No database; the
time is injected, several days of it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import engine
from games import round as rnd
from games.round.clock import Clock, restored
from tests.round.helpers import DAY, T0, TIMED, TURN_BASED, day, moved

TWO_DAYS_MS = 2 * 24 * 3600 * 1000


def any_move(game: rnd.Round) -> dict:
    return engine.get(game.kind).legal_actions(game.state)[0].to_json()


def step(game: rnd.Round, when) -> rnd.Round:
    """The seat to move plays its first legal action at `when` (the worker watching)."""
    return moved(game, game.state.turn, any_move(game), when, last_beat=when).round_after


@pytest.mark.parametrize(("control", "expected"), [
    ({"days": 3}, True), ({"initial": 60, "increment": 2}, False), (None, False)])
def test_turn_based_names_the_days_per_move_controls(control, expected):
    assert rnd.turn_based(control) is expected


def test_a_turn_based_round_gives_the_first_seat_its_days():
    game = rnd.start("quoridor4", TURN_BASED, T0)
    assert game.clock == Clock((TWO_DAYS_MS,) * 4, (False,) * 4, 0, T0, TWO_DAYS_MS)
    assert game.deadline == day(2)
    assert game.clock.to_json() == {"remaining_ms": [TWO_DAYS_MS] * 4,
                                    "moved": [False] * 4}


def test_the_stored_clock_comes_back_as_it_was():
    game = step(step(rnd.start("quoridor4", TURN_BASED, T0), day(1)), day(1.5))
    clock = game.clock
    assert restored(TURN_BASED, clock.to_json(), clock.turn_started_at) == clock
    live = rnd.start("bloqueio2", TIMED, T0).clock
    assert restored(TIMED, live.to_json(), T0) == live


def test_every_turn_gets_its_days_afresh_and_time_never_accumulates():
    game = rnd.start("bloqueio2", TURN_BASED, T0)
    game = step(game, T0 + timedelta(hours=1))  # seat 0 answers in an hour
    assert game.deadline == T0 + timedelta(hours=1) + 2 * DAY  # seat 1's two days
    game = step(game, day(2))  # seat 1 uses almost all of them
    assert game.deadline == day(4)  # seat 0 gets two days, not two days plus the saving
    game = step(game, day(3.99))
    assert game.deadline == day(5.99)
    assert game.clock.remaining_ms == (TWO_DAYS_MS, TWO_DAYS_MS)
    assert game.clock.moved == (True, True) and game.clock.turn_started_at == day(3.99)


def test_over_several_days_a_missed_deadline_flags_and_the_others_play_on():
    game = rnd.start("quoridor4", TURN_BASED, T0)
    for n in range(4):  # one move a day round the table
        game = step(game, day(n + 1))
    game = step(game, day(5))
    assert game.state.turn == 1 and game.deadline == day(7)
    assert not game.overdue(day(6.99))
    nothing = rnd.play(game, None, rnd.Flag(), day(6.99), last_beat=day(6.99))
    assert nothing.round_after is game
    done = rnd.play(game, None, rnd.Flag(), day(7), last_beat=day(7))
    after = done.round_after
    assert [(e.seat, e.action) for e in done.events] == [(1, {"type": "timeout"})]
    assert after.status is rnd.Status.ACTIVE and done.result is None
    assert after.seats[1] is rnd.SeatStatus.FLAGGED
    assert after.state.in_game == (True, False, True, True) and after.state.turn == 2
    assert after.clock.remaining_ms[1] == 0
    assert after.deadline == day(9)  # seat 2's turn began with the flag
    # Two more missed turns: the last seat standing wins (docs/rules.md#leaving).
    done = rnd.play(after, None, rnd.Flag(), day(9), last_beat=day(9))
    done = rnd.play(done.round_after, None, rnd.Flag(), day(11), last_beat=day(11))
    assert done.result == engine.Result(0, (1, 4, 3, 2), "last_standing")


def test_a_move_sent_after_the_deadline_records_the_flag_and_is_refused():
    game = step(step(rnd.start("bloqueio2", TURN_BASED, T0), day(1)), day(2))
    done = moved(game, 0, any_move(game), day(4.5), last_beat=day(4.5))
    assert done.refused is not None and done.refused.code == "flag_fell"
    assert [e.action for e in done.events] == [{"type": "timeout"}]
    assert done.result.winner == 1


def test_a_missed_first_deadline_aborts_when_nobody_has_moved():
    game = rnd.start("quoridor4", TURN_BASED, T0)
    done = rnd.play(game, None, rnd.Flag(), day(2), last_beat=day(2))
    assert done.events == () and done.round_after.status is rnd.Status.ABORTED
    assert done.result.reason == "aborted" and done.ranking is None


def test_a_missed_first_move_after_others_moved_is_a_flag():
    game = step(rnd.start("quoridor4", TURN_BASED, T0), day(1))  # seat 0 moved
    assert game.clock.moved == (True, False, False, False)
    done = rnd.play(game, None, rnd.Flag(), day(3), last_beat=day(3))
    assert [(e.seat, e.action) for e in done.events] == [(1, {"type": "timeout"})]
    assert done.round_after.status is rnd.Status.ACTIVE


def test_leaving_out_of_turn_keeps_the_running_deadline():
    game = step(rnd.start("quoridor4", TURN_BASED, T0), day(1))
    done = rnd.play(game, 3, rnd.Leave("resign"), day(2.5))
    assert done.round_after.deadline == game.deadline == day(3)


def test_days_nobody_watched_are_given_back():
    game = step(rnd.start("bloqueio2", TURN_BASED, T0), day(1))  # seat 1 due at day 3
    beat = day(1.5)  # the worker went down half a day into the turn, for five days
    done = rnd.play(game, None, rnd.Flag(), day(6.5), last_beat=beat)
    assert done.events == () and done.round_after.status is rnd.Status.ACTIVE
    assert done.round_after.deadline == day(6.5) + 1.5 * DAY  # the 1.5 days unwatched left
    resumed = rnd.play(game, None, rnd.Resume(since=beat), day(6.5)).round_after
    assert resumed.deadline == done.round_after.deadline


def test_a_turn_based_round_replays_from_its_events():
    start = rnd.start("quoridor4", TURN_BASED, T0)
    game, events = start, []
    for n in range(6):
        done = moved(game, game.state.turn, any_move(game), day(n * 1.5 + 0.5),
                     last_beat=day(n * 1.5 + 0.5))
        events.extend(done.events)
        game = done.round_after
    done = rnd.play(game, None, rnd.Flag(), day(20), last_beat=day(20))
    events.extend(done.events)
    assert rnd.replay(start, events) == done.round_after
