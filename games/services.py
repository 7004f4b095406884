"""Every write to games. Seating lives here: create a game, join, add or remove a bot,
leave before the start, start a ranked match. Play (actions, resigning, removals,
aborts, the clock) goes through games/table.py and is re-exported here, so callers
import one module.

Seating locks the waiting game's row first (concurrent joins queue in the database,
never in application memory), asks the pure seating rules (games/round/seating.py:
`seating` below) what the change does, writes it and only after commit announces it. A
game starts, and every later change to it is written, through games/round_store.py.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from bloqueio_site import limits
from games import engine, privacy, round_store, seat_rows
from games.announce import announce_on_commit
from games.bot_accounts import bot_account, require_offered
from games.errors import (
    HumansOnly,
    InRankedGame,
    InvalidRequest,
    TooManyOpenGames,
)
from games.models import (
    Game,
    LiveRankedSeat,
    QueueEntry,
    Seat,
)
from games.ranked import places
from games.refusal_text import service_error
from games.round import TURN_BASED_DAYS, Abort, default_time_control, play, turn_based
from games.round import Status as RoundStatus
from games.round import seating as rounds
from games.round.refusals import Refusal
from games.selectors import attach_seats, seats_of
from games.table import (
    Submitted,
    abort_game,
    annul_game,
    expire_clock,
    remove_seat,
    require_playing,
    resign,
    submit_action,
)

__all__ = [
    "GAME_CREATE_RATE",
    "OPEN_GAMES_PER_USER",
    "Submitted",
    "abort_game",
    "add_bot",
    "annul_game",
    "create_game",
    "expire_clock",
    "join_game",
    "leave_game",
    "remove_bot",
    "remove_seat",
    "require_playing",
    "resign",
    "start_ranked_game",
    "start_rematch",
    "start_table",
    "submit_action",
    "validate_time_control",
]

TIME_CONTROL_LIMITS = {"initial": (10, 24 * 3600), "increment": (0, 600)}
# The lobby's bounds (issue #25: one user filled 40 of its 50 slots in 0.6 s): games one
# user may have waiting for players at once, and new games per client address.
OPEN_GAMES_PER_USER = limits.cap("OPEN_GAMES_PER_USER", 3)
# Fails open: with Redis down new games go unlimited per address, but each user's open
# games stay capped in the database (OPEN_GAMES_PER_USER); docs/operations.md.
GAME_CREATE_RATE = limits.rate("game_create", "GAME_CREATE_LIMIT", 20, 600, fail_open=True)


def validate_time_control(value: Any) -> dict[str, int] | None:
    """A clean time control: live `{initial, increment}` (seconds), turn-based `{days}`
    (one of TURN_BASED_DAYS), or None (untimed). Exactly one shape, never a mix; anything
    else is refused (400 `invalid`)."""
    if value is None:
        return None
    if isinstance(value, dict) and set(value) == {"days"}:
        days = value["days"]
        if type(days) is not int or days not in TURN_BASED_DAYS:
            raise InvalidRequest(_("time_control.days must be one of %(days)s.")
                                 % {"days": ", ".join(map(str, TURN_BASED_DAYS))})
        return {"days": days}
    if not isinstance(value, dict) or set(value) != set(TIME_CONTROL_LIMITS):
        raise InvalidRequest(_("time_control must be {initial, increment} in seconds, "
                               "{days} per move, or null."))
    clean = {}
    for key, (low, high) in TIME_CONTROL_LIMITS.items():
        number = value[key]
        if type(number) is not int or not low <= number <= high:
            raise InvalidRequest(
                _("time_control.%(key)s must be a whole number from %(low)s to %(high)s.")
                % {"key": key, "low": low, "high": high})
        clean[key] = number
    return clean


def _bot(level: Any) -> AbstractBaseUser:
    try:
        return bot_account(level)
    except (ValueError, TypeError):
        raise InvalidRequest(_("Unknown bot level %(level)s: easy, medium, hard or perfect.")
                             % {"level": repr(level)}, code="unknown_level") from None


def _claim_ranked(game: Game, user_ids: Sequence[int]) -> None:
    """Book `user_ids` into live ranked `game`; the unique user refuses a second game.

    A turn-based ranked game books nobody: it asks nobody to be at the table now, so it
    keeps nobody from other ranked games (docs/ranked.md, "Turn-based ranked games")."""
    if not game.ranked or turn_based(game.time_control):
        return
    try:
        with transaction.atomic():
            LiveRankedSeat.objects.bulk_create(
                [LiveRankedSeat(user_id=uid, game=game) for uid in user_ids])
    except IntegrityError:
        raise InRankedGame(_("You are already playing a ranked game.")) from None
    QueueEntry.objects.filter(user_id__in=user_ids).delete()


def create_game(
    *, user: AbstractBaseUser, kind: str, ranked: bool = False,
    time_control: dict[str, int] | None = None, bots: Sequence[str] = (),
    address: str | None = None, private: bool = False,
) -> Game:
    """A new waiting game; the creator takes seat 0 and `bots` (levels) the next seats.

    A `private` game is casual, listed nowhere and seen by invitation only
    (games/privacy.py); every game gets an invitation token for its link.

    With a bot on every other seat the game starts at once ("play the computer").
    `address` (the client's, when a request creates it) is held to GAME_CREATE_RATE and,
    for a ranked game, noted as a place the creator plays from (games/ranked/places.py);
    a game that will wait for players counts against the creator's OPEN_GAMES_PER_USER.
    """
    try:
        rules = engine.get(kind)
    except engine.UnknownKind:
        raise InvalidRequest(_("Unknown game kind %(kind)s.") % {"kind": repr(kind)},
                             code="unknown_kind") from None
    clean_tc = validate_time_control(time_control)
    if ranked and private:
        raise InvalidRequest(_("A private game is never ranked: ranked games are found "
                               "through the lobby and matchmaking."), code="private_ranked")
    if ranked and bots:
        raise HumansOnly(_("Ranked games are between people: play the computer casually."))
    if len(bots) > rules.seats - 1:
        raise InvalidRequest(_("This game has %(count)s seats besides yours.")
                             % {"count": rules.seats - 1}, code="too_many_bots")
    bot_users = [_bot(level) for level in bots]
    for level in bots:
        require_offered(kind, level)
    if ranked and clean_tc is None:
        clean_tc = default_time_control(kind)
    if address is not None:
        limits.check(GAME_CREATE_RATE, address, _("Too many new games from your address"))
    with transaction.atomic():
        if len(bot_users) < rules.seats - 1:
            _check_open_games(user)
        game = Game.objects.create(
            kind=kind, ranked=ranked, seat_count=rules.seats, time_control=clean_tc,
            created_by=user, state=rules.initial().to_json(), private=private,
            invite_token=privacy.new_token(),
        )
        seat_rows.insert(game.pk, [(0, user.pk, False)] + [
            (i, bot.pk, True) for i, bot in enumerate(bot_users, start=1)])
        _claim_ranked(game, [user.pk])
        if ranked:
            places.note(user, address)
        game = _seated(game, seats_of(game), "created")
    return game


def _check_open_games(user: AbstractBaseUser) -> None:
    """Refuse a game that would wait beside OPEN_GAMES_PER_USER of the user's own."""
    waiting = seat_rows.waiting_created(user.pk)  # under the creator's row lock
    if waiting >= OPEN_GAMES_PER_USER:
        raise TooManyOpenGames(
            _("You have %(waiting)s games waiting for players (at most %(cap)s): start, "
              "or leave, one of them first.") % {"waiting": waiting, "cap": OPEN_GAMES_PER_USER})


def _seated(game: Game, seats: list[Seat], change: str) -> Game:
    """Under the game lock, after a seat was taken: start the game if every seat is
    (announced "started"), else announce `change`. Returns the game as it now is, with
    `seats` attached (`game.seats.all()` costs no query): the caller's answer is built
    from it, not from a second read of what this transaction wrote."""
    if len(seats) < game.seat_count:
        announce_on_commit(game, seats, [], change)
    else:
        # A copy: the row `start` wrote is the process's snapshot too (state_cache),
        # which is never changed, and later writes copy it.
        game = copy.copy(round_store.start(game, seats, timezone.now(), "started"))
    attach_seats(game, seats)
    return game


def seating(game: Game, seats: list[Seat], change: rounds.Change) -> rounds.Seated:
    """The seating rules' decision (games/round/seating.py) on the locked row and its
    seats, or the refusal as the client reads it."""
    holders: list[rounds.Holder | None] = [None] * game.seat_count
    for held in seats:
        holders[held.seat] = rounds.Holder(held.user_id, held.bot)
    in_game = tuple(bool(x) for x in (game.state or {}).get("in_game") or ())
    table = rounds.Table(game.seat_count, RoundStatus(game.status), game.ranked,
                         tuple(holders), in_game, turn_based(game.time_control))
    try:
        return rounds.seat(table, change)
    except Refusal as refusal:
        raise service_error(refusal) from None


def _take_seat(game: Game, user: AbstractBaseUser, decided: rounds.Seated, *,
               bot: bool) -> Game:
    """Under the game lock: write the seat `decided` gave `user`, start the game if
    that filled it, announce."""
    # One version on, unless the seat fills the game: that is one change with its
    # start, whose commit adds the version (two, only one announced, would show every
    # socket a gap).
    seat_rows.insert(game.pk, [(decided.seat, user.pk, bot)],
                     one_version_on=None if decided.starts else game)
    if not bot:
        _claim_ranked(game, [user.pk])
    return _seated(game, seats_of(game), decided.change)


def _lock(game_id: int, user: AbstractBaseUser) -> tuple[Game, list[Seat]]:
    """The game's row, locked, with its seats, for a write by `user`: not found when
    there is none, or when it is private and `user` may not see it."""
    found = round_store.lock_row(game_id)
    if found is None:
        raise privacy.not_found(game_id)
    privacy.hide_from_strangers(found[0], user, seats=found[1])
    return found


def start_ranked_game(
    *, kind: str, user_ids: Sequence[int], now: datetime | None = None,
    time_control: dict[str, int] | None = None,
) -> Game:
    """A ranked game that starts at once with these players (matchmaking); seats in order.
    `time_control`: the kind's default live clock unless given (a turn-based `{days}`).

    Raises InRankedGame if any of them is already in a live ranked game (a live
    `time_control` only: a turn-based game books nobody).
    """
    now = now or timezone.now()
    clean_tc = validate_time_control(time_control) or default_time_control(kind)
    if User.objects.filter(pk__in=user_ids).exclude(bot_level="").exists():
        raise HumansOnly(_("Ranked games are between people."))
    def book(game: Game) -> None:
        _claim_ranked(game, user_ids)
        QueueEntry.objects.filter(user_id__in=user_ids).delete()

    with transaction.atomic():
        return _started_now(kind=kind, ranked=True, time_control=clean_tc, now=now,
                            seats=[(i, uid, False) for i, uid in enumerate(user_ids)],
                            book=book)


def start_table(
    *, kind: str, holders: Sequence[int | None], ranked: bool, bot_level: str,
    time_control: dict[str, int] | None, now: datetime | None = None,
    absence_forfeits: bool = False,
) -> Game:
    """A game that starts at once with the seats an organiser chose (a tournament's
    table): `holders[i]` plays seat i, None a bot at `bot_level`. Ranked only with
    people at every seat (a bot seat makes the table casual, as everywhere).
    `absence_forfeits`: a seat whose first move never comes loses on time, the others
    play on (games/round/clock.py), rather than the game being aborted.

    A live ranked table books its players (LiveRankedSeat) where they are free; a
    player already in another live ranked game is seated all the same: the organiser,
    not matchmaking, chose this table, and their clock answers for an absence."""
    rules = engine.get(kind)
    if len(holders) != rules.seats:
        raise InvalidRequest(_("A table of this game has %(seats)s seats.")
                             % {"seats": rules.seats})
    now = now or timezone.now()
    clean_tc = validate_time_control(time_control) or default_time_control(kind)
    bot = _bot(bot_level).pk if None in holders else None
    ranked = ranked and bot is None
    people = [uid for uid in holders if uid is not None]

    def book(game: Game) -> None:
        if ranked and not turn_based(clean_tc):
            LiveRankedSeat.objects.bulk_create(
                [LiveRankedSeat(user_id=uid, game=game) for uid in people],
                ignore_conflicts=True)

    with transaction.atomic():
        return _started_now(kind=kind, ranked=ranked, time_control=clean_tc, now=now,
                            seats=[(i, bot if uid is None else uid, uid is None)
                                   for i, uid in enumerate(holders)], book=book,
                            absence_forfeits=absence_forfeits)


def start_rematch(*, of: Game, seats: Sequence[tuple[int, int, bool]], offered_by: int,
                  now: datetime | None = None) -> Game:
    """In the caller's transaction (under the finished game's lock: games/rematch.py):
    the rematch of `of`, started at once with the `seats` its table agreed to. Same kind
    and time control; casual and private, whatever `of` was (a rating game is found by
    matchmaking, never chosen), with an invitation token; created by `offered_by`, who
    offered it; announced "started"."""
    return _started_now(kind=of.kind, ranked=False, time_control=of.time_control,
                        seats=seats, now=now or timezone.now(),
                        private=True, created_by=offered_by, change="started")


def _started_now(*, kind: str, ranked: bool, time_control: dict[str, int] | None,
                 seats: Sequence[tuple[int, int, bool]], now: datetime,
                 book: Callable[[Game], None] | None = None,
                 private: bool = False, created_by: int | None = None,
                 change: str = "matched", absence_forfeits: bool = False) -> Game:
    """In the caller's transaction: a new game of `kind` whose `seats` (seat, user id,
    is a bot) someone else chose (matchmaking, a tournament, a rematch), its players
    booked by `book`, started at once and announced as `change` ("matched" unless
    said). A `private` game gets its invitation token (games/privacy.py); `created_by`:
    the user who asked for it, if one did. The one way a game is made already started."""
    rules = engine.get(kind)
    game = Game.objects.create(kind=kind, ranked=ranked, seat_count=rules.seats,
                               time_control=time_control, state=rules.initial().to_json(),
                               private=private, created_by_id=created_by,
                               invite_token=privacy.new_token() if private else None,
                               absence_forfeits=absence_forfeits)
    if book is not None:
        book(game)
    seat_rows.insert(game.pk, seats)
    return round_store.start(game, seats_of(game), now, change)


def join_game(*, game_id: int, user: AbstractBaseUser, seat: int | None = None,
              invite: str | None = None, address: str | None = None) -> Game:
    """Take a seat (the lowest free one by default); the game starts when full.

    A private game seats only the holder of its invitation token (`invite`) or a user
    invited by name; to anyone else it does not exist (GameNotFound). Joining answers
    the user's pending invitation to the game, if any. `address`, the client's, is
    noted for a ranked game as a place the user plays from (games/ranked/places.py).
    """
    if getattr(user, "bot_level", ""):
        raise InvalidRequest(_("Bots are seated with add_bot."), code="bot_account")
    with transaction.atomic():
        found = round_store.lock_row(game_id)
        if found is not None and found[0].private and not (
                privacy.holds_token(found[0], [invite or ""])
                or privacy.invited(game_id, user.pk)):
            found = None
        if found is None:
            raise privacy.not_found(game_id)
        game, seats = found
        decided = seating(game, seats, rounds.Sit(user.pk, seat))
        seat_rows.accept_invitation(game_id, user.pk)
        if game.ranked:
            places.note(user, address)
        return _take_seat(game, user, decided, bot=False)


def add_bot(
    *, game_id: int, user: AbstractBaseUser, level: str, seat: int | None = None
) -> Game:
    """A seated player puts the computer at `level` on an empty seat of a waiting
    casual game (the lowest free one by default); the game starts when full."""
    bot = _bot(level)
    with transaction.atomic():
        game, seats = _lock(game_id, user)
        decided = seating(game, seats, rounds.Sit(bot.pk, seat, bot=True, by=user.pk))
        require_offered(game.kind, level)
        return _take_seat(game, bot, decided, bot=True)


def remove_bot(*, game_id: int, user: AbstractBaseUser, seat: int) -> Game:
    """A seated player takes a bot off its seat before the game starts."""
    with transaction.atomic():
        game, seats = _lock(game_id, user)
        decided = seating(game, seats, rounds.Unseat(user.pk, seat))
        seat_rows.remove(game.pk, seat, one_version_on=game)
        announce_on_commit(game, [s for s in seats if s.seat != seat], [], decided.change)
    return game


def leave_game(*, game_id: int, user: AbstractBaseUser) -> Game:
    """Give up a seat before the game starts; an empty game is aborted."""
    with transaction.atomic():
        game, seats = _lock(game_id, user)
        decided = seating(game, seats, rounds.Stand(user.pk))
        # Bots alone never start a game: the last person's leave aborts it, and the
        # leave and the abort are one change, one version on (the abort's commit adds it).
        seat_rows.remove(game.pk, decided.seat,
                         one_version_on=None if decided.aborts else game)
        LiveRankedSeat.objects.filter(game=game, user=user).delete()
        seats = [s for s in seats if s.seat != decided.seat]
        if not decided.aborts:
            announce_on_commit(game, seats, [], decided.change)
            return game
        loaded = round_store.held(game, seats)
        written = round_store.commit(loaded, play(loaded.round, None, Abort(), timezone.now()))
        assert written is not None  # the row is locked: nothing moved it
        return written.game
