"""Every write to games: create, join, leave, submit an action, resign, remove, abort.

Each function is one transaction that locks the game row first (so concurrent writers
to one game queue up in the database, never in application memory), validates through
the rules engine, appends events with consecutive plies (unique per game, so a lost
race can never write twice), updates the projection, and only after commit publishes
what changed. Views, consumers, admin actions and bots all call these.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import broadcast, engine
from games.errors import (
    AlreadyLeft,
    AlreadySeated,
    AlreadyStarted,
    GameFull,
    GameNotFound,
    GameOver,
    IllegalActionError,
    InvalidRequest,
    NotAPlayer,
    NotStarted,
    NotYourTurn,
    SeatTaken,
    StalePly,
)
from games.models import Event, Game, Seat, Status
from games.selectors import game_json

TIME_CONTROL_LIMITS = {"initial": (10, 24 * 3600), "increment": (0, 600)}


@dataclass(frozen=True)
class Submitted:
    """An accepted action: its event (the first appended) and the game after it."""

    event: Event
    events: list[Event]
    game: Game
    payload: dict[str, Any]


# -- helpers ---------------------------------------------------------------------------


def _lock(game_id: int) -> tuple[Game, list[Seat]]:
    """The game row, locked until commit, and its seats with their users."""
    game = Game.objects.select_for_update(of=("self",)).filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(f"No game {game_id}.")
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("seat"))
    return game, seats


def _seat_of(seats: list[Seat], user: AbstractBaseUser) -> int | None:
    for seat in seats:
        if seat.user_id == user.pk:
            return seat.seat
    return None


def _require_playing(game: Game) -> None:
    if game.status == Status.WAITING:
        raise NotStarted("The game has not started yet.")
    if game.status != Status.ACTIVE:
        raise GameOver(f"The game is {game.status}.")


def _publish(
    game: Game, seats: list[Seat], events: list[Event], change: str
) -> dict[str, Any]:
    """Queue the after-commit broadcast of this change; returns the game's JSON."""
    payload = game_json(game, seats)
    seat_users: list[int | None] = [None] * game.seat_count
    for seat in seats:
        seat_users[seat.seat] = seat.user_id
    message = broadcast.Committed(
        game_id=game.pk, events=[e.as_json() for e in events], game=payload,
        change=change, seat_users=seat_users,
    )
    transaction.on_commit(partial(broadcast.publish, message))
    return payload


def _publish_game(game: Game, seats: list[Seat], change: str) -> None:
    _publish(game, seats, [], change)


def _append(
    game: Game, seats: list[Seat], rules: engine.Rules, state: engine.State,
    pending: list[tuple[int, dict[str, Any]]],
) -> tuple[list[Event], dict[str, Any]]:
    """Write `pending` (already applied to reach `state`), then any forced passes."""
    while rules.must_pass(state):
        pending.append((state.turn, {"type": "pass"}))  # type: ignore[arg-type]
        state = rules.apply(state, engine.PASS)
    now = timezone.now()
    events = [
        Event(game=game, ply=game.ply + offset, seat=seat, action=action, at=now)
        for offset, (seat, action) in enumerate(pending, start=1)
    ]
    Event.objects.bulk_create(events)
    game.ply += len(events)
    game.state = state.to_json()
    fields = ["ply", "state"]
    result = rules.result(state)
    if result is not None:
        game.result = result.to_json()
        game.status = Status.FINISHED
        game.finished_at = now
        fields += ["result", "status", "finished_at"]
    game.save(update_fields=fields)
    payload = _publish(game, seats, events, "finished" if result is not None else "events")
    return events, payload


def validate_time_control(value: Any) -> dict[str, int] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != set(TIME_CONTROL_LIMITS):
        raise InvalidRequest("time_control must be {initial, increment} in seconds, or null.")
    clean = {}
    for key, (low, high) in TIME_CONTROL_LIMITS.items():
        number = value[key]
        if type(number) is not int or not low <= number <= high:
            raise InvalidRequest(f"time_control.{key} must be a whole number from {low} to {high}.")
        clean[key] = number
    return clean


# -- lobby -----------------------------------------------------------------------------


def create_game(
    *, user: AbstractBaseUser, kind: str, ranked: bool = False,
    time_control: dict[str, int] | None = None,
) -> Game:
    """A new waiting game; the creator takes seat 0."""
    try:
        rules = engine.get(kind)
    except engine.UnknownKind:
        raise InvalidRequest(f"Unknown game kind {kind!r}.", code="unknown_kind") from None
    clean_tc = validate_time_control(time_control)
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind, ranked=ranked, seat_count=rules.seats, time_control=clean_tc,
            created_by=user, state=rules.initial().to_json(),
        )
        seats = [Seat.objects.create(game=game, seat=0, user=user)]
        _publish_game(game, seats, "created")
    return game


def join_game(*, game_id: int, user: AbstractBaseUser, seat: int | None = None) -> Game:
    """Take a seat (the lowest free one by default); the game starts when full."""
    with transaction.atomic():
        game, seats = _lock(game_id)
        if game.status in (Status.FINISHED, Status.ABORTED):
            raise GameOver(f"The game is {game.status}.")
        if game.status != Status.WAITING:
            raise AlreadyStarted("The game has already started.")
        if _seat_of(seats, user) is not None:
            raise AlreadySeated("You already have a seat in this game.")
        taken = {s.seat for s in seats}
        if len(taken) >= game.seat_count:
            raise GameFull("Every seat is taken.")
        if seat is None:
            seat = min(set(range(game.seat_count)) - taken)
        elif not 0 <= seat < game.seat_count:
            raise InvalidRequest(f"This game has seats 0 to {game.seat_count - 1}.")
        elif seat in taken:
            raise SeatTaken(f"Seat {seat} is taken.")
        seats.append(Seat.objects.create(game=game, seat=seat, user=user))
        seats.sort(key=lambda s: s.seat)
        change = "joined"
        if len(seats) == game.seat_count:
            game.status = Status.ACTIVE
            game.started_at = timezone.now()
            game.save(update_fields=["status", "started_at"])
            change = "started"
        _publish_game(game, seats, change)
    return game


def leave_game(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Give up a seat before the game starts; an empty game is aborted."""
    with transaction.atomic():
        game, seats = _lock(game_id)
        if game.status != Status.WAITING:
            raise AlreadyStarted("The game has started: resign instead.")
        seat = _seat_of(seats, user)
        if seat is None:
            raise NotAPlayer("You have no seat in this game.")
        Seat.objects.filter(game=game, seat=seat).delete()
        seats = [s for s in seats if s.seat != seat]
        if not seats:
            _finish_aborted(game)
        _publish_game(game, seats, "left" if seats else "aborted")
    return game


# -- play ------------------------------------------------------------------------------


def submit_action(
    *, game_id: int, user: AbstractBaseUser, action: Any, ply: int
) -> Submitted:
    """Apply the caller's action if `ply` is the game's current ply and it is their turn."""
    with transaction.atomic():
        game, seats = _lock(game_id)
        seat = _seat_of(seats, user)
        if seat is None:
            raise NotAPlayer("You have no seat in this game.")
        _require_playing(game)
        if ply != game.ply:
            raise StalePly(f"The game is at ply {game.ply}, not {ply}.")
        rules = engine.get(game.kind)
        state = rules.state_from_json(game.state)
        if state.turn != seat:
            raise NotYourTurn(f"It is seat {state.turn}'s turn.")
        try:
            parsed = rules.parse_action(action)
            if isinstance(parsed, engine.Pass):
                raise engine.IllegalAction("a pass is recorded by the server, never sent")
            state = rules.apply(state, parsed)
        except engine.EngineError as exc:
            raise IllegalActionError(str(exc)) from None
        events, payload = _append(game, seats, rules, state, [(seat, parsed.to_json())])
    return Submitted(event=events[0], events=events, game=game, payload=payload)


def _leave(game_id: int, seat_for: Any, why: str) -> Game:
    with transaction.atomic():
        game, seats = _lock(game_id)
        seat = seat_for(seats)
        _require_playing(game)
        rules = engine.get(game.kind)
        state = rules.state_from_json(game.state)
        if not state.in_game[seat]:
            raise AlreadyLeft(f"Seat {seat} has already left the game.")
        state = rules.leave(state, seat, why)
        _append(game, seats, rules, state, [(seat, {"type": why})])
    return game


def resign(*, game_id: int, user: AbstractBaseUser) -> Game:
    """The caller's seat leaves the game (RULES.md "Leaving")."""

    def own_seat(seats: list[Seat]) -> int:
        seat = _seat_of(seats, user)
        if seat is None:
            raise NotAPlayer("You have no seat in this game.")
        return seat

    return _leave(game_id, own_seat, "resign")


def remove_seat(*, game_id: int, seat: int, why: str = "removed") -> Game:
    """A moderator (or the clock, with why="timeout") takes a seat out of the game."""

    def that_seat(seats: list[Seat]) -> int:
        if not any(s.seat == seat for s in seats):
            raise InvalidRequest(f"Seat {seat} is not taken in this game.")
        return seat

    return _leave(game_id, that_seat, why)


def _finish_aborted(game: Game) -> None:
    game.status = Status.ABORTED
    game.finished_at = timezone.now()
    game.result = {"winner": None, "ranking": [1] * game.seat_count, "reason": "aborted"}
    game.save(update_fields=["status", "finished_at", "result"])


def abort_game(*, game_id: int) -> Game:
    """End a waiting or active game with no result (moderation, abandonment)."""
    with transaction.atomic():
        game, seats = _lock(game_id)
        if game.status not in (Status.WAITING, Status.ACTIVE):
            raise GameOver(f"The game is already {game.status}.")
        _finish_aborted(game)
        _publish_game(game, seats, "aborted")
    return game
