"""Property tests of the round model: random rounds of every family, with random time
between actions, random leaving and clock checks. Whatever happens, the events are a
complete history (the round replayed from them equals the round played step by step,
and the engine's replay of them is its position), clocks never go negative, and a flag
ends or continues the round exactly as docs/rules.md#leaving says."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games import round as rnd
from games.engine import LEAVE_REASONS
from games.round import refusals
from tests.round.helpers import T0, TIMED, TURN_BASED

KINDS = ("bloqueio", "bloqueio2", "quoridor4", "blockade", "blockade_run", "blokus_duo",
         "blokus2")
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OPS = ("act",) * 90 + ("stale",) * 2 + ("not_turn",) * 2 + ("flag",) * 3 + (
    "resign", "remove", "timeout")


def _steps(seed: int, length: int) -> list[tuple[str, int, int]]:
    """A random script: (what, a number to pick with, the pause before it in ms). Mostly
    the pace of play, now and then a long think (flags fall, first moves lapse)."""
    rng = random.Random(seed)
    return [(rng.choice(OPS), rng.randrange(10**6),
             rng.randrange(90_000) if rng.random() < 0.03 else rng.randrange(3_000))
            for _ in range(length)]


SCRIPTS = st.builds(_steps, st.integers(0, 2**32), st.integers(1, 250))


def _engine_events(events: list[rnd.RoundEvent]) -> list[dict[str, Any]]:
    return [{"type": e.action["type"], "seat": e.seat} if e.action["type"] in LEAVE_REASONS
            else e.action for e in events]


def _request(round_: rnd.Round, op: str, n: int) -> tuple[int | None, rnd.Action]:
    """What `op` asks of the round: (seat, action)."""
    rules = engine.get(round_.kind)
    seats = len(round_.seats)
    turn = round_.state.turn
    if op == "act" and turn is not None:
        legal = rules.legal_actions(round_.state)
        return turn, rnd.Act(legal[n % len(legal)].to_json(), round_.ply)
    if op == "stale":
        return turn, rnd.Act({"type": "pass"}, round_.ply - 1 - n % 3)
    if op == "not_turn":
        return ((turn or 0) + 1 + n % (seats - 1)) % seats, rnd.Act({"type": "pass"},
                                                                      round_.ply)
    if op in ("resign", "remove", "timeout"):
        why = {"resign": "resign", "remove": "removed", "timeout": "timeout"}[op]
        return n % seats, rnd.Leave(why)
    return None, rnd.Flag()


def _check(before: rnd.Round, done: rnd.Progress, now: datetime,
           history: list[rnd.RoundEvent]) -> None:
    """Every invariant of one progress (`history`: every event up to it)."""
    after = done.round_after
    rules = engine.get(after.kind)
    assert [e.ply for e in done.events] == list(range(before.ply + 1, after.ply + 1))
    assert all(e.at == now for e in done.events)
    assert rules.replay(_engine_events(history)).to_json() == after.state.to_json()
    assert [s is rnd.SeatStatus.PLAYING for s in after.seats] == list(after.state.in_game)
    if after.clock is not None:
        assert min(after.clock.remaining_ms) >= 0
        assert after.clock.turn_started_at <= now
        per_move = after.clock.per_move_ms
        if per_move is not None:  # turn-based: every turn its days, nothing carried over
            assert set(after.clock.remaining_ms) <= {0, per_move}
            if after.status is rnd.Status.ACTIVE:
                assert after.deadline == after.clock.turn_started_at + timedelta(
                    milliseconds=per_move)
    result = rules.result(after.state)
    if after.status is rnd.Status.ABORTED:
        assert after.result == engine.Result(None, (1,) * len(after.seats), "aborted")
    else:
        assert (after.status is rnd.Status.FINISHED) == (result is not None)
        assert after.result == result
    ended = after.status is not before.status
    assert (done.result is not None) == ended
    if ended:
        assert after.finished_at == now and after.deadline is None
    for event in done.events:
        if event.action["type"] == "timeout":
            assert after.seats[event.seat] is rnd.SeatStatus.FLAGGED
    first = done.events[0] if done.events else None
    if (first is not None and first.action["type"] == "timeout" and after.clock is not None
            and first.seat == before.state.turn):
        assert after.clock.remaining_ms[first.seat] == 0  # its time ran out


def _played(kind: str, timed: bool | dict[str, int], steps: list[tuple[str, int, int]],
            watched: bool, scale: int = 1, absence_forfeits: bool = False
            ) -> tuple[rnd.Round, rnd.Round, list[rnd.RoundEvent], list[str]]:
    """Play `steps` (their pauses times `scale`); returns (start, the last round the
    events show, the events, what happened). `timed`: TIMED if True, untimed if False,
    else that time control. With `watched`, the clock worker beat at every moment."""
    control = timed if isinstance(timed, dict) else TIMED if timed else None
    start = rnd.start(kind, control, T0, absence_forfeits=absence_forfeits)
    round_, shown, now = start, start, T0
    history: list[rnd.RoundEvent] = []
    seen: list[str] = []
    for op, n, pause in steps:
        if round_.status is not rnd.Status.ACTIVE:
            break
        now += timedelta(milliseconds=pause * scale)
        seat, action = _request(round_, op, n)
        due = round_.overdue(now)
        try:
            done = rnd.play(round_, seat, action, now, last_beat=now if watched else None)
        except refusals.Refusal as refusal:
            assert not (due and watched), "a due flag comes before any refusal"
            seen.append(refusal.code)
            continue
        # A timeout event is a flag unless it is the asked-for leave itself: a seat's
        # explicit leave by timeout (its flag noticed elsewhere) when no due flag of a
        # watched clock comes first.
        flagged = [e for e in done.events if e.action["type"] == "timeout"
                   and not (isinstance(action, rnd.Leave) and action.why == "timeout"
                            and e.seat == seat and not (due and watched))]
        if flagged or (due and done.round_after.status is rnd.Status.ABORTED):
            assert due and watched, "a flag falls only when due and watched"
            seen.append("flag")
        if isinstance(done.refused, refusals.FlagFell):
            assert done.refused.params == {"seat": round_.state.turn,
                                           "ply": done.round_after.ply}
        history.extend(done.events)
        _check(round_, done, now, history)
        round_ = done.round_after
        if round_.status is not rnd.Status.ABORTED:
            shown = round_
        else:
            seen.append("aborted")
    return start, shown, history, seen


@SETTINGS
@given(kind=st.sampled_from(KINDS), timed=st.booleans(), steps=SCRIPTS)
def test_a_round_replayed_from_its_events_is_the_round_played(kind, timed, steps):
    start, shown, history, _seen = _played(kind, timed, steps, watched=True)
    # An abort leaves no event: the events show the round up to it.
    assert rnd.replay(start, history) == shown


@SETTINGS
@given(kind=st.sampled_from(KINDS), steps=SCRIPTS)
def test_turn_based_rounds_replay_and_every_turn_gets_its_days(kind, steps):
    """Pauses of up to an hour, now and then of more than a day (two days a move, so
    flags fall and first moves lapse): the same invariants, and the turn-based clock's
    (checked in `_check`)."""
    start, shown, history, _seen = _played(kind, TURN_BASED, steps, watched=True,
                                           scale=2400)
    assert rnd.replay(start, history) == shown


@SETTINGS
@given(kind=st.sampled_from(KINDS), turn_based=st.booleans(), steps=SCRIPTS)
def test_where_absence_forfeits_the_clock_never_aborts(kind, turn_based, steps):
    """Started with `absence_forfeits` (a tournament's table), live with pauses long
    enough for first-move windows to lapse, or turn-based over days: the same
    invariants, every lapse a flag, never an abort."""
    control, scale = (TURN_BASED, 2400) if turn_based else (TIMED, 2)
    start, shown, history, seen = _played(kind, control, steps, watched=True, scale=scale,
                                          absence_forfeits=True)
    assert "aborted" not in seen
    assert rnd.replay(start, history) == shown


@SETTINGS
@given(kind=st.sampled_from(KINDS), steps=SCRIPTS)
def test_with_nobody_watching_no_flag_ever_falls(kind, steps):
    _start, final, history, seen = _played(kind, True, steps, watched=False)
    assert "flag" not in seen and "flag_fell" not in seen
    assert final.status is not rnd.Status.ABORTED
    timeouts = [e for e in history if e.action["type"] == "timeout"]
    assert len(timeouts) <= sum(1 for op, _n, _p in steps if op == "timeout")


@SETTINGS
@given(kind=st.sampled_from(("bloqueio", "quoridor4", "blokus2", "bloqueio2")),
       pause=st.integers(62_000, 400_000), first=st.booleans())
def test_a_flag_is_a_leave_by_timeout(kind, pause, first):
    """The flagged seat leaves as docs/rules.md#leaving says: out of turn order, ranked
    after every seat still in, and the last seat standing wins; a seat that never made
    its free first move aborts the round instead."""
    rules = engine.get(kind)
    round_ = rnd.start(kind, TIMED, T0)
    now = T0
    if not first:
        for _ in range(rules.seats):
            now += timedelta(seconds=1)
            action = rules.legal_actions(round_.state)[0].to_json()
            round_ = rnd.play(round_, round_.state.turn, rnd.Act(action, round_.ply), now,
                              last_beat=now).round_after
    seat = round_.state.turn
    late = now + timedelta(milliseconds=pause)
    done = rnd.play(round_, None, rnd.Flag(), late, last_beat=late)
    if first:
        assert done.events == () and done.round_after.status is rnd.Status.ABORTED
        return
    after = done.round_after
    assert done.events[0].action == {"type": "timeout"} and done.events[0].seat == seat
    assert after.state.to_json() == rules.replay(
        [*_engine_events([]), *[e.action if e.action["type"] not in LEAVE_REASONS
                                else {"type": "timeout", "seat": e.seat}
                                for e in done.events]],
        start=round_.state).to_json()
    still_in = [s for s in range(rules.seats) if after.state.in_game[s]]
    assert seat not in still_in
    if len(still_in) == 1:
        assert done.result is not None and done.result.winner == still_in[0]
        assert done.result.reason == "last_standing"
    if done.result is not None:
        assert all(done.result.ranking[seat] > done.result.ranking[s] for s in still_in)
    else:
        assert after.state.turn != seat and after.deadline is not None
