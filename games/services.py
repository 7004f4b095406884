"""Every write to games: create, join, leave, submit an action, resign, remove, abort.

Each function is one transaction that locks the game row first (so concurrent writers
to one game queue up in the database, never in application memory), validates through
the rules engine, appends events with consecutive plies (unique per game, so a lost
race can never write twice), updates the projection, and only after commit publishes
what changed. Views, consumers, admin actions and bots all call these.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts.bots import bot_account
from accounts.models import User
from bloqueio_site import jsontext, limits
from games import engine, state_cache
from games.errors import (
    AlreadyLeft,
    AlreadySeated,
    AlreadyStarted,
    FlagFell,
    GameFull,
    GameNotFound,
    GameOver,
    HumansOnly,
    IllegalActionError,
    InRankedGame,
    InvalidRequest,
    NotABot,
    NotAPlayer,
    NotStarted,
    NotYourTurn,
    SeatTaken,
    StalePly,
    TooManyOpenGames,
)
from games.live import broadcast
from games.models import Event, Game, LiveRankedSeat, QueueEntry, Seat, Status
from games.ranked import clocks, ratings
from games.selectors import game_json, seats_with_ratings

TIME_CONTROL_LIMITS = {"initial": (10, 24 * 3600), "increment": (0, 600)}
# The lobby's bounds (issue #25: one user filled 40 of its 50 slots in 0.6 s): games one
# user may have waiting for players at once, and new games per client address.
OPEN_GAMES_PER_USER = limits.cap("OPEN_GAMES_PER_USER", 3)
GAME_CREATE_RATE = limits.rate("game_create", "GAME_CREATE_LIMIT", 20, 600)


@dataclass(frozen=True)
class Submitted:
    """An accepted action: its event (the first appended) and the game after it."""

    event: Event
    events: list[Event]
    payload: dict[str, Any]


# -- helpers ---------------------------------------------------------------------------


# Seats of active games, per process. Once a game has started its seats never change,
# so the hot path (every move) skips re-reading them; the ratings shown on them may lag
# until the game's last move, which reads them fresh (see _append).
_ACTIVE_SEATS: dict[int, list[Seat]] = {}
_ACTIVE_SEATS_MAX = 10_000


def _lock(game_id: int) -> tuple[Game, list[Seat]]:
    """The game row, locked until commit, and its seats with their users."""
    found = list(Game.objects.raw(_LOCK_SQL + _for_update(), [game_id]))
    game = found[0] if found else None
    if game is None:
        raise GameNotFound(f"No game {game_id}.")
    if game.status != Status.ACTIVE:
        _ACTIVE_SEATS.pop(game_id, None)
        return game, _seats(game)
    seats = _ACTIVE_SEATS.get(game_id)
    if seats is None:
        if len(_ACTIVE_SEATS) >= _ACTIVE_SEATS_MAX:
            _ACTIVE_SEATS.clear()
        seats = _ACTIVE_SEATS[game_id] = _seats(game)
    return game, seats


# Every move runs these two statements and one more; fixed SQL skips the ORM's per-call
# query compilation, which cost more CPU than the database's own work for them.
_LOCK_SQL = f"SELECT * FROM {Game._meta.db_table} WHERE id = %s"
_INSERT_EVENTS_SQL = (f"INSERT INTO {Event._meta.db_table} (game_id, ply, seat, action, at) "
                      "VALUES ")
_PROJECTION = ("ply", "state", "result", "status", "finished_at", "clock", "turn_started_at",
               "deadline")
_UPDATE_GAME_SQL = (f"UPDATE {Game._meta.db_table} SET "
                    + ", ".join(f"{name} = %s" for name in _PROJECTION) + " WHERE id = %s")


def _for_update() -> str:
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


def _store(game: Game, events: list[Event]) -> None:
    """Append `events` and save the game's projection (all of its fields), in two
    statements. The event log's unique (game, ply) and append-only trigger still hold."""
    as_json, as_time = jsontext.dumps, connection.ops.adapt_datetimefield_value
    params: list[Any] = []
    for event in events:
        params += [game.pk, event.ply, event.seat, as_json(event.action), as_time(event.at)]
    values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(events))
    projection = [
        game.ply, as_json(game.state), None if game.result is None else as_json(game.result),
        game.status, as_time(game.finished_at),
        None if game.clock is None else as_json(game.clock),
        as_time(game.turn_started_at), as_time(game.deadline), game.pk,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_INSERT_EVENTS_SQL + values, params)
        cursor.execute(_UPDATE_GAME_SQL, projection)


def _seats(game: Game) -> list[Seat]:
    """The seats with their users and those users' rating for this kind (for seat JSON)."""
    return list(seats_with_ratings().filter(game=game))


def _seat_of(seats: list[Seat], user: AbstractBaseUser) -> int | None:
    for seat in seats:
        if seat.user_id == user.pk:
            return seat.seat
    return None


def require_playing(game: Game) -> None:
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


def _end_ranked(game: Game) -> None:
    """A ranked game is over (finished or aborted): its players are free to queue again."""
    if game.ranked:
        LiveRankedSeat.objects.filter(game=game).delete()


def _claim_ranked(game: Game, user_ids: Sequence[int]) -> None:
    """Book `user_ids` into live ranked `game`; the unique user refuses a second game."""
    if not game.ranked:
        return
    try:
        with transaction.atomic():
            LiveRankedSeat.objects.bulk_create(
                [LiveRankedSeat(user_id=uid, game=game) for uid in user_ids])
    except IntegrityError:
        raise InRankedGame("You are already playing a ranked game.") from None
    QueueEntry.objects.filter(user_id__in=user_ids).delete()


def _forced_passes(rules: engine.Rules, state: engine.GameState,
                   pending: list[tuple[int, dict[str, Any]]]) -> engine.GameState:
    """Apply the passes forced after `state` (a seat with no legal action), noting each
    in `pending` as the server records it; returns the state after them."""
    while rules.must_pass(state):
        pending.append((state.turn, {"type": "pass"}))  # type: ignore[arg-type]
        state = rules.apply(state, engine.PASS)
    return state


def _append(
    game: Game, seats: list[Seat], rules: engine.Rules, state: engine.GameState,
    pending: list[tuple[int, dict[str, Any]]], now: datetime | None = None,
) -> tuple[list[Event], dict[str, Any]]:
    """Write `pending` (already applied to reach `state`), then any forced passes.

    In the same transaction: the clocks move on, and a ranked game that ends here is
    rated (ratings.apply_result), so result and rating changes commit together.
    """
    state = _forced_passes(rules, state, pending)
    now = now or timezone.now()
    turn_before = game.state.get("turn")
    events = [
        Event(game=game, ply=game.ply + offset, seat=seat, action=action, at=now)
        for offset, (seat, action) in enumerate(pending, start=1)
    ]
    game.ply += len(events)
    game.state = state.to_json()
    result = rules.result(state)
    if result is not None:
        game.result = result.to_json()
        game.status = Status.FINISHED
        game.finished_at = now
    clocks.advance(game, turn_before, pending, now)
    _store(game, events)
    if result is not None and game.ranked:
        # The result shows whether the game was rated (and why not) and what it did to
        # each rating (the page's "+12").
        game.result = {**game.result, **ratings.apply_result(
            game=game, seats=seats, ranking=list(result.ranking), now=now)}
        Game.objects.filter(pk=game.pk).update(result=game.result)
        _end_ranked(game)
    elif result is not None and any(s.bot for s in seats):
        ratings.rate_bots(game=game, seats=seats, ranking=list(result.ranking), now=now)
    if result is not None:
        _ACTIVE_SEATS.pop(game.pk, None)
        state_cache.drop(game.pk)
        seats = _seats(game)  # fresh: the final frame shows the new ratings
    else:
        _keep(_copy(game), seats, state)
    payload = _publish(game, seats, events, "finished" if result is not None else "events")
    return events, payload


def _copy(game: Game) -> Game:
    """A copy of `game` whose fields (the clock's dict included) change apart from it."""
    kept = copy.copy(game)
    kept.clock = copy.deepcopy(game.clock)
    return kept


def _keep(game: Game, seats: list[Seat], state: engine.GameState) -> None:
    """After commit, keep this game as written for the next move here (state_cache).
    `game` is stored as it is: pass a `_copy` where the caller's instance may change."""
    transaction.on_commit(partial(state_cache.put, state_cache.Snapshot(game, seats, state)))


def _state_of(game: Game, rules: engine.Rules) -> engine.GameState:
    """The engine state of the locked `game`: this process's snapshot at the row's ply
    (the same events, so the same state), else rebuilt from the stored JSON."""
    kept = state_cache.get(game.pk, game.ply)
    # Same id, ply and creation time yet another position: a repaired projection
    # (`rebuild_games`) or a restore that played on elsewhere. The stored row wins.
    if (kept is None or kept.game.created_at != game.created_at
            or kept.game.state != game.state):
        return rules.state_from_json(game.state)
    return kept.state


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


def _bot(level: Any) -> AbstractBaseUser:
    try:
        return bot_account(level)
    except (ValueError, TypeError):
        raise InvalidRequest(f"Unknown bot level {level!r}: easy, medium or hard.",
                             code="unknown_level") from None


def create_game(
    *, user: AbstractBaseUser, kind: str, ranked: bool = False,
    time_control: dict[str, int] | None = None, bots: Sequence[str] = (),
    address: str | None = None,
) -> Game:
    """A new waiting game; the creator takes seat 0 and `bots` (levels) the next seats.

    With a bot on every other seat the game starts at once ("play the computer").
    `address` (the client's, when a request creates it) is held to GAME_CREATE_RATE; a
    game that will wait for players counts against the creator's OPEN_GAMES_PER_USER.
    """
    try:
        rules = engine.get(kind)
    except engine.UnknownKind:
        raise InvalidRequest(f"Unknown game kind {kind!r}.", code="unknown_kind") from None
    clean_tc = validate_time_control(time_control)
    if ranked and bots:
        raise HumansOnly("Ranked games are between people: play the computer casually.")
    if len(bots) > rules.seats - 1:
        raise InvalidRequest(f"This game has {rules.seats - 1} seats besides yours.",
                             code="too_many_bots")
    bot_users = [_bot(level) for level in bots]
    if ranked and clean_tc is None:
        clean_tc = clocks.default_time_control(kind)
    if address is not None:
        limits.check(GAME_CREATE_RATE, address, "Too many new games from your address")
    with transaction.atomic():
        if len(bot_users) < rules.seats - 1:
            _check_open_games(user)
        game = Game.objects.create(
            kind=kind, ranked=ranked, seat_count=rules.seats, time_control=clean_tc,
            created_by=user, state=rules.initial().to_json(),
        )
        Seat.objects.bulk_create(
            [Seat(game=game, seat=0, user=user)]
            + [Seat(game=game, seat=i, user=bot, bot=True)
               for i, bot in enumerate(bot_users, start=1)])
        _claim_ranked(game, [user.pk])
        seats = _seats(game)
        _publish_game(game, seats, _start_if_full(game, seats, "created"))
    return game


def _check_open_games(user: AbstractBaseUser) -> None:
    """Refuse a game that would wait beside OPEN_GAMES_PER_USER of the user's own."""
    # Why lock the creator's row: two creates at once by one user queue here, so both
    # cannot pass the count below. Nobody else waits on it.
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
    waiting = Game.objects.filter(created_by=user, status=Status.WAITING,
                                  seats__user=user).count()
    if waiting >= OPEN_GAMES_PER_USER:
        raise TooManyOpenGames(
            f"You have {waiting} games waiting for players (at most "
            f"{OPEN_GAMES_PER_USER}): start, or leave, one of them first.")


def _start_if_full(game: Game, seats: list[Seat], change: str) -> str:
    """Under the game lock: start the game (and its clock) once every seat is taken;
    returns the change to publish."""
    if len(seats) < game.seat_count:
        return change
    game.status = Status.ACTIVE
    game.started_at = timezone.now()
    clocks.start(game, game.started_at)
    game.save(update_fields=["status", "started_at", "clock", "turn_started_at", "deadline"])
    _ACTIVE_SEATS.pop(game.pk, None)  # an id reused after a restore: not the old seats
    # The first move can then take the one-statement path too: every game of a tournament
    # round or a load test starts at once, and their first moves come as one burst.
    _keep(_copy(game), seats, engine.get(game.kind).state_from_json(game.state))
    return "started"


def _take_seat(
    game: Game, seats: list[Seat], user: AbstractBaseUser, seat: int | None, *, bot: bool
) -> None:
    """Under the game lock: seat `user` (the lowest free seat by default), start the
    game if that filled it, publish."""
    taken = {s.seat for s in seats}
    if len(taken) >= game.seat_count:
        raise GameFull("Every seat is taken.")
    if seat is None:
        seat = min(set(range(game.seat_count)) - taken)
    elif not 0 <= seat < game.seat_count:
        raise InvalidRequest(f"This game has seats 0 to {game.seat_count - 1}.")
    elif seat in taken:
        raise SeatTaken(f"Seat {seat} is taken.")
    Seat.objects.create(game=game, seat=seat, user=user, bot=bot)
    if not bot:
        _claim_ranked(game, [user.pk])
    seats = _seats(game)
    _publish_game(game, seats, _start_if_full(game, seats, "joined"))


def _lock_waiting(game_id: int) -> tuple[Game, list[Seat]]:
    game, seats = _lock(game_id)
    if game.status in (Status.FINISHED, Status.ABORTED):
        raise GameOver(f"The game is {game.status}.")
    if game.status != Status.WAITING:
        raise AlreadyStarted("The game has already started.")
    return game, seats


def start_ranked_game(
    *, kind: str, user_ids: Sequence[int], now: datetime | None = None
) -> Game:
    """A ranked game that starts at once with these players (matchmaking); seats in order.

    Raises InRankedGame if any of them is already in a live ranked game.
    """
    rules = engine.get(kind)
    now = now or timezone.now()
    if User.objects.filter(pk__in=user_ids).exclude(bot_level="").exists():
        raise HumansOnly("Ranked games are between people.")
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind, ranked=True, seat_count=rules.seats,
            time_control=clocks.default_time_control(kind), state=rules.initial().to_json(),
            status=Status.ACTIVE, started_at=now,
        )
        _claim_ranked(game, user_ids)
        Seat.objects.bulk_create(
            [Seat(game=game, seat=i, user_id=uid) for i, uid in enumerate(user_ids)])
        clocks.start(game, now)
        game.save(update_fields=["clock", "turn_started_at", "deadline"])
        seats = _seats(game)
        _ACTIVE_SEATS.pop(game.pk, None)  # an id reused after a restore: not the old seats
        _keep(_copy(game), seats, rules.initial())
        _publish_game(game, seats, "matched")
    return game


def join_game(*, game_id: int, user: AbstractBaseUser, seat: int | None = None) -> Game:
    """Take a seat (the lowest free one by default); the game starts when full."""
    if getattr(user, "bot_level", ""):
        raise InvalidRequest("Bots are seated with add_bot.", code="bot_account")
    with transaction.atomic():
        game, seats = _lock_waiting(game_id)
        if _seat_of(seats, user) is not None:
            raise AlreadySeated("You already have a seat in this game.")
        _take_seat(game, seats, user, seat, bot=False)
    return game


def add_bot(
    *, game_id: int, user: AbstractBaseUser, level: str, seat: int | None = None
) -> Game:
    """A seated player puts the computer at `level` on an empty seat of a waiting
    casual game (the lowest free one by default); the game starts when full."""
    bot = _bot(level)
    with transaction.atomic():
        game, seats = _lock_waiting(game_id)
        if game.ranked:
            raise HumansOnly("Ranked games are between people.")
        if _seat_of(seats, user) is None:
            raise NotAPlayer("Only a seated player can add a bot.")
        _take_seat(game, seats, bot, seat, bot=True)
    return game


def remove_bot(*, game_id: int, user: AbstractBaseUser, seat: int) -> Game:
    """A seated player takes a bot off its seat before the game starts."""
    with transaction.atomic():
        game, seats = _lock_waiting(game_id)
        if _seat_of(seats, user) is None:
            raise NotAPlayer("Only a seated player can remove a bot.")
        held = next((s for s in seats if s.seat == seat), None)
        if held is None or not held.bot:
            raise NotABot(f"Seat {seat} is not a bot's.")
        Seat.objects.filter(pk=held.pk).delete()
        _publish_game(game, [s for s in seats if s.seat != seat], "left")
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
        LiveRankedSeat.objects.filter(game=game, user=user).delete()
        seats = [s for s in seats if s.seat != seat]
        people = [s for s in seats if not s.bot]
        if not people:  # bots alone never start a game
            _finish_aborted(game)
        _publish_game(game, seats, "left" if people else "aborted")
    return game


# -- play ------------------------------------------------------------------------------


def _flag(game: Game, seats: list[Seat], now: datetime) -> int | None:
    """Under the game lock: if the seat to move is out of time, record it and say so.

    A seat still on its free first move aborts the game (unrated); otherwise it gets a
    `timeout` event. Returns the seat flagged. A deadline that passed while no clock
    worker watched (its last beat is older than DOWNTIME_GRACE) is not a flag: the time
    nobody watched is given back to this game's turn, as a restarting worker gives it
    to every game, and the write goes on (docs/ranked.md, "A game never traps its
    players"). With a live worker every passed deadline has been watched.
    """
    if game.deadline is None or now < game.deadline or game.status != Status.ACTIVE:
        return None
    beat = clocks.last_beat()
    if not clocks.witnessed(game.deadline, beat):
        clocks.forgive_unwatched(game, beat, now)
        return None
    seat: int = game.state["turn"]
    if not game.clock["moved"][seat]:
        _finish_aborted(game, now)
        _publish_game(game, seats, "aborted")
    else:
        _leave_locked(game, seats, seat, "timeout", now)
    return seat


def expire_clock(*, game_id: int, now: datetime | None = None) -> bool:
    """The clock worker's write: flag the game's seat to move if its time is up.

    Locks with SKIP LOCKED: a game busy with a write is simply checked on the next tick
    (or by that write itself), so several workers never wait on each other.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = (Game.objects.select_for_update(of=("self",), skip_locked=True)
                .filter(pk=game_id).first())
        if game is None:
            return False
        return _flag(game, _seats(game), now) is not None


def submit_action(
    *, game_id: int, user: AbstractBaseUser, action: Any, ply: int,
    now: datetime | None = None, seat: int | None = None,
) -> Submitted:
    """Apply the caller's action if `ply` is the game's current ply and it is their turn.

    `seat` names which of the caller's seats acts: only a bot account holds several
    (people hold one, found by default).

    If the seat to move has run out of time, the timeout is recorded (and committed)
    and the action refused with `flag_fell`: nobody plays on after their flag fell,
    even with the clock worker down.
    """
    now = now or timezone.now()
    done = _act_on_snapshot(game_id, user, action, ply, now, seat)
    if done is not None:
        return done
    with transaction.atomic():
        game, seats = _lock(game_id)
        if seat is None:
            seat = _seat_of(seats, user)
        elif not any(s.seat == seat and s.user_id == user.pk for s in seats):
            seat = None
        if seat is None:
            raise NotAPlayer("You have no seat in this game.")
        require_playing(game)
        flagged = _flag(game, seats, now)
        if flagged is None:
            return _act(game, seats, seat, action, ply, now)
    # Outside the block: the timeout (or abort) is committed, then the action refused.
    raise FlagFell(f"Seat {flagged} ran out of time; the game is now at ply {game.ply}.")


def _act(
    game: Game, seats: list[Seat], seat: int, action: Any, ply: int, now: datetime
) -> Submitted:
    if ply != game.ply:
        raise StalePly(f"The game is at ply {game.ply}, not {ply}.")
    rules = engine.get(game.kind)
    state = _state_of(game, rules)
    if state.turn != seat:
        raise NotYourTurn(f"It is seat {state.turn}'s turn.")
    try:
        parsed = rules.parse_action(action)
        if isinstance(parsed, engine.Pass):
            raise engine.IllegalAction("a pass is recorded by the server, never sent")
        state = rules.apply(state, parsed)
    except engine.EngineError as exc:
        raise IllegalActionError(str(exc)) from None
    events, payload = _append(game, seats, rules, state, [(seat, parsed.to_json())], now)
    return Submitted(event=events[0], events=events, payload=payload)


# The move as ONE statement (PostgreSQL): the projection is updated only if the row is
# still exactly the snapshot the move was computed from (same ply, still active, same
# turn start and deadline: the clock worker moves those without a ply; same creation
# time: ids can be reused after a restore; same position: `rebuild_games` may repair
# it, and a restored game may have played on elsewhere), and the events
# are inserted only if that update matched. Under READ COMMITTED a concurrent writer's
# UPDATE waits for the row and re-checks the WHERE on the committed row, so two writers
# of one ply cannot both match; unique (game, ply) and the append-only trigger still hold.
_MOVE_SQL = (
    f"WITH moved AS (UPDATE {Game._meta.db_table} SET ply = %s, state = %s::jsonb, "
    "clock = %s::jsonb, turn_started_at = %s, deadline = %s "
    "WHERE id = %s AND ply = %s AND status = 'active' AND created_at = %s "
    "AND turn_started_at IS NOT DISTINCT FROM %s AND deadline IS NOT DISTINCT FROM %s "
    "AND state = %s::jsonb "
    f"RETURNING id) INSERT INTO {Event._meta.db_table} (game_id, ply, seat, action, at) "
    "SELECT moved.id, e.ply, e.seat, e.action::jsonb, e.at FROM moved, (VALUES {rows}) "
    "AS e(ply, seat, action, at)"
)
_MOVE_ROW = "(%s::integer, %s::smallint, %s::text, %s::timestamptz)"


def _act_on_snapshot(
    game_id: int, user: AbstractBaseUser, action: Any, ply: int, now: datetime,
    seat: int | None,
) -> Submitted | None:
    """A move from this process's snapshot of the game in one statement, or None when
    the locked path must decide: no snapshot at `ply`, not PostgreSQL, a deadline passed,
    anything refused (the locked path gives the authoritative refusal), a move that ends
    the game (ratings are written with it), or a row changed since the snapshot."""
    kept = state_cache.get(game_id, ply)
    if kept is None or connection.vendor != "postgresql":
        return None
    game, seats, state = kept.game, kept.seats, kept.state
    if game.status != Status.ACTIVE or (game.deadline is not None and now >= game.deadline):
        return None
    if seat is None:
        seat = _seat_of(seats, user)
    elif not any(s.seat == seat and s.user_id == user.pk for s in seats):
        return None
    rules = engine.get(game.kind)
    if seat is None or state.turn != seat:
        return None
    try:
        parsed = rules.parse_action(action)
        if isinstance(parsed, engine.Pass):
            return None
        state = rules.apply(state, parsed)
    except engine.EngineError:
        return None
    pending: list[tuple[int, dict[str, Any]]] = [(seat, parsed.to_json())]
    state = _forced_passes(rules, state, pending)
    if rules.result(state) is not None:
        return None
    turn_before = kept.state.turn
    moved = _copy(game)  # the snapshot stays as it was; `moved` is never changed after
    events = [Event(game=moved, ply=game.ply + offset, seat=s, action=a, at=now)
              for offset, (s, a) in enumerate(pending, start=1)]
    moved.ply = game.ply + len(events)
    moved.state = state.to_json()
    clocks.advance(moved, turn_before, pending, now)
    as_json, as_time = jsontext.dumps, connection.ops.adapt_datetimefield_value
    params: list[Any] = [
        moved.ply, as_json(moved.state), None if moved.clock is None else as_json(moved.clock),
        as_time(moved.turn_started_at), as_time(moved.deadline),
        game.pk, game.ply, as_time(game.created_at), as_time(game.turn_started_at),
        as_time(game.deadline), as_json(game.state),
    ]
    for event in events:
        params += [event.ply, event.seat, as_json(event.action), as_time(event.at)]
    with connection.cursor() as cursor:
        cursor.execute(_MOVE_SQL.format(rows=", ".join([_MOVE_ROW] * len(events))), params)
        written = cursor.rowcount
    if written != len(events):  # the row moved on without us: the snapshot is stale
        state_cache.drop(game_id)
        return None
    _keep(moved, seats, state)
    payload = _publish(moved, seats, events, "events")
    return Submitted(event=events[0], events=events, payload=payload)


def _leave_locked(game: Game, seats: list[Seat], seat: int, why: str, now: datetime) -> None:
    rules = engine.get(game.kind)
    state = _state_of(game, rules)
    if not state.in_game[seat]:
        raise AlreadyLeft(f"Seat {seat} has already left the game.")
    state = rules.leave(state, seat, why)
    _append(game, seats, rules, state, [(seat, {"type": why})], now)


def _leave(game_id: int, seat_for: Any, why: str) -> Game:
    now = timezone.now()
    with transaction.atomic():
        game, seats = _lock(game_id)
        seat = seat_for(seats)
        require_playing(game)
        flagged = _flag(game, seats, now)
        if flagged is None:
            _leave_locked(game, seats, seat, why, now)
    if flagged is not None and flagged != seat and game.status == Status.ACTIVE:
        return _leave(game_id, seat_for, why)  # the clock spoke first; now leave
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


def _finish_aborted(game: Game, now: datetime | None = None) -> None:
    game.status = Status.ABORTED
    game.finished_at = now or timezone.now()
    game.result = {"winner": None, "ranking": [1] * game.seat_count, "reason": "aborted"}
    game.deadline = None
    game.save(update_fields=["status", "finished_at", "result", "deadline"])
    _end_ranked(game)


def abort_game(*, game_id: int) -> Game:
    """End a waiting or active game with no result (moderation, abandonment)."""
    with transaction.atomic():
        game, seats = _lock(game_id)
        if game.status not in (Status.WAITING, Status.ACTIVE):
            raise GameOver(f"The game is already {game.status}.")
        _finish_aborted(game)
        _publish_game(game, seats, "aborted")
    return game
