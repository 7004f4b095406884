"""`play`: one thing done to a round, with everything that follows from it.

In the spirit of scalachess' `Game.apply`: a pure function from a round and an action
to the progress (events, round after, result), or a typed refusal. The rules of the
board are the engine's; here are the rules around it: whose turn and which ply, forced
passes, clocks and flags, leaving, aborting, and when the round ends
(docs/rules.md#how-a-game-ends). `replay` rebuilds a round from the events `play`
recorded, by the very same steps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any

from games import engine
from games.engine import LEAVE_REASONS, PASS
from games.round import refusals
from games.round.clock import charged, forgiven, witnessed
from games.round.model import (
    LEFT_BY,
    Abort,
    Act,
    Action,
    Leave,
    Progress,
    Resume,
    Round,
    RoundEvent,
    Status,
)

_PASS_JSON = {"type": "pass"}


def play(round_: Round, seat: int | None, action: Action, now: datetime, *,
         last_beat: datetime | None = None) -> Progress:
    """Do `action` for `seat` (the acting seat; for a Leave the seat leaving; None for
    Flag, Abort and Resume) at `now`.

    `last_beat` is when the clock worker last beat: it decides whether a deadline that
    passed was watched (a flag) or not (the time is given back); it is consulted only
    when `round_.overdue(now)`. A deadline passed and watched comes first: the flag is
    the progress, and an Act is then refused with FlagFell (the progress is still to
    be written), a Leave by another seat still happens (or, that seat gone already, is
    refused after the flag, which stands).

    Raises a `refusals.Refusal`; never changes `round_`.
    """
    if isinstance(action, Abort):
        return _abort(round_, now)
    if round_.status is Status.WAITING:
        raise refusals.NotStarted()
    if round_.status is not Status.ACTIVE:
        raise refusals.GameOver(status=str(round_.status))
    if isinstance(action, Resume):
        return _given_back(round_, action.since, now)
    rules = engine.get(round_.kind)
    events: list[RoundEvent] = []
    after, flagged = _watch(rules, round_, now, last_beat, events)
    if flagged is not None:
        if isinstance(action, Act):
            return _progress(round_, after, events,
                             refused=refusals.FlagFell(seat=flagged, ply=after.ply))
        if not (isinstance(action, Leave) and seat != flagged
                and after.status is Status.ACTIVE):
            return _progress(round_, after, events)
        # the clock spoke first; the leave goes on
    if isinstance(action, Act):
        after = _act(rules, after, seat, action, now, events)
    elif isinstance(action, Leave):
        try:
            after = _leave(rules, after, seat, action.why, now, events)
        except refusals.Refusal as refusal:
            if flagged is None:
                raise
            # the flag stands and is written; only the leave is refused (it had left)
            return _progress(round_, after, events, refused=refusal)
    return _progress(round_, after, events)


def _progress(before: Round, after: Round, events: list[RoundEvent],
              refused: refusals.Refusal | None = None) -> Progress:
    ended = after.status is not before.status and after.status in (Status.FINISHED,
                                                                     Status.ABORTED)
    return Progress(tuple(events), after, after.result if ended else None, refused)


def _watch(rules: engine.Rules, round_: Round, now: datetime, last_beat: datetime | None,
           events: list[RoundEvent]) -> tuple[Round, int | None]:
    """The clock's say before anything else: (the round, the seat flagged or None)."""
    deadline = round_.deadline
    if deadline is None or now < deadline:
        return round_, None
    assert round_.clock is not None
    if not witnessed(deadline, last_beat):
        return replace(round_, clock=forgiven(round_.clock, last_beat, now)), None
    seat: int = round_.state.turn
    if round_.clock.missed_first_move_aborts(seat):
        return _aborted(round_, now), seat  # nobody showed up: no result, unrated
    return _step(rules, round_, seat, {"type": "timeout"}, rules.leave(round_.state, seat,
                                                                         "timeout"),
                 now, events), seat


def _act(rules: engine.Rules, round_: Round, seat: int | None, act: Act, now: datetime,
         events: list[RoundEvent]) -> Round:
    if act.ply != round_.ply:
        raise refusals.StalePly(ply=round_.ply, sent=act.ply)
    turn = round_.state.turn
    if seat is None or turn != seat:
        raise refusals.NotYourTurn(seat=turn)
    try:
        parsed = rules.parse_action(act.action)
        if isinstance(parsed, engine.Pass):
            raise refusals.PassNotSent()
        state = rules.apply(round_.state, parsed)
    except engine.EngineError as exc:
        raise refusals.IllegalAction(reason=str(exc)) from None
    return _step(rules, round_, seat, parsed.to_json(), state, now, events)


def _leave(rules: engine.Rules, round_: Round, seat: int | None, why: str, now: datetime,
           events: list[RoundEvent]) -> Round:
    if why not in LEAVE_REASONS or seat is None or not 0 <= seat < len(round_.seats):
        raise ValueError(f"no leaving {why!r} for seat {seat!r}")  # the caller's bug
    if not round_.state.in_game[seat]:
        raise refusals.AlreadyLeft(seat=seat)
    return _step(rules, round_, seat, {"type": why}, rules.leave(round_.state, seat, why),
                 now, events)


def _step(rules: engine.Rules, round_: Round, seat: int, recorded: dict[str, Any],
          state: Any, now: datetime, events: list[RoundEvent]) -> Round:
    """`seat`'s `recorded` event took the round to `state`: add the passes it forces,
    then charge the clock, note who left, and end the round if the rules say so."""
    pending = [(seat, recorded)]
    while rules.must_pass(state):
        pending.append((state.turn, _PASS_JSON))
        state = rules.apply(state, PASS)
    ply = round_.ply
    events.extend(RoundEvent(ply + n, s, a, now) for n, (s, a) in enumerate(pending, 1))
    seats = round_.seats
    why = recorded["type"]
    if why in LEFT_BY:
        seats = (*seats[:seat], LEFT_BY[why], *seats[seat + 1:])
    clock = round_.clock
    if clock is not None:
        clock = charged(clock, round_.state.turn, state.turn, pending, now)
    result = rules.result(state)
    if result is None:
        return Round(round_.kind, state, Status.ACTIVE, seats, clock, None,
                     round_.started_at, None)
    return Round(round_.kind, state, Status.FINISHED, seats, clock, result,
                 round_.started_at, now)


def _aborted(round_: Round, now: datetime) -> Round:
    seats = len(round_.seats)
    return replace(round_, status=Status.ABORTED, finished_at=now,
                   result=engine.Result(winner=None, ranking=(1,) * seats, reason="aborted"))


def _abort(round_: Round, now: datetime) -> Progress:
    if round_.status not in (Status.WAITING, Status.ACTIVE):
        raise refusals.AlreadyOver(status=str(round_.status))
    return _progress(round_, _aborted(round_, now), [])


def _given_back(round_: Round, since: datetime | None, now: datetime) -> Progress:
    if round_.clock is None:
        return Progress((), round_)
    clock = forgiven(round_.clock, since, now)
    return Progress((), round_ if clock == round_.clock else replace(round_, clock=clock))


def replay(start: Round, events: Iterable[RoundEvent]) -> Round:
    """The round after `events` (as `play` recorded them) from `start`, by the steps
    `play` took: each event that is not a pass, with the passes right after it, is one
    step at its time. What leaves no event is not seen: an abort, and time given back
    to a turn nobody watched.

    Raises ValueError when the events are not a history `play` could have written.
    """
    rules = engine.get(start.kind)
    round_ = start
    queue = list(events)
    index = 0
    while index < len(queue):
        first = queue[index]
        if first.ply != round_.ply + 1:
            raise ValueError(f"event {first.ply} follows ply {round_.ply}")
        why = first.action.get("type")
        try:
            if why in LEAVE_REASONS:
                state = rules.leave(round_.state, first.seat, why)
            elif round_.state.turn != first.seat:
                raise ValueError(f"event {first.ply}: seat {first.seat} is not to move")
            else:
                state = rules.apply(round_.state, rules.parse_event(first.action))
        except engine.EngineError as exc:
            raise ValueError(f"event {first.ply}: {exc}") from None
        step: list[RoundEvent] = []
        round_ = _step(rules, round_, first.seat, first.action, state, first.at, step)
        recorded = queue[index:index + len(step)]
        if [(e.seat, e.action) for e in recorded] != [(e.seat, e.action) for e in step]:
            raise ValueError(f"event {first.ply}: the passes after it differ")
        index += len(step)
    return round_
