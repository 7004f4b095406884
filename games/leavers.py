"""Players who leave a live game without resigning: their grace period, and a bot for
their seat after it in casual games (docs/ranked.md, "Leavers").

A seat whose every socket closed is recorded as gone by `games.live.presence` (Redis,
seen by every process). From then on the others see its grace counting down
(`LEAVER_GRACE_SECONDS`, 60 s, counted from when it went, or from the start if it went
before); any socket of that seat opening again cancels it. Turn-based games have no
grace: a move is due within days, and the deadline alone decides. Once the grace is over
the other players of a casual game may hand the seat to a bot (`hand_to_bot`); ranked
games keep docs/rules.md#leaving (the clock runs and flags), so a ranked seat is never
handed over. A hand-over is final: the bot keeps the seat if its player comes back, as
the others chose to play on with the bot and must not have the seat change hands twice.
"""

from __future__ import annotations

from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any

import redis
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from bloqueio_site.errors import Unavailable
from bloqueio_site.jsontext import iso
from games import privacy, round_store, seat_rows, services, state_cache
from games.announce import announce_on_commit
from games.bot_accounts import bot_account, require_offered
from games.errors import GameError, InvalidRequest
from games.live import presence
from games.models import Game, Handover, Status
from games.round import seating as rounds
from games.round import turn_based
from games.selectors import seats_of

DEFAULT_LEVEL = "medium"


class NotAway(GameError):
    code = "not_away"
    status = 409


class GraceNotOver(GameError):
    """The seat's player went, but its grace runs until `until`."""

    code = "grace_not_over"
    status = 409

    def __init__(self, detail: str, *, until: datetime):
        super().__init__(detail)
        self.until = until

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "until": iso(self.until)}


# -- the grace --------------------------------------------------------------------------


def grace_seconds() -> float:
    return float(settings.LEAVER_GRACE_SECONDS)


def _moment(value: datetime | str | None) -> datetime | None:
    if isinstance(value, str):
        return parse_datetime(value)
    return value


def grace_end(*, since: float, started_at: datetime | str | None, status: str,
              time_control: object) -> datetime | None:
    """When the grace of a seat that went at `since` (epoch seconds) ends; None where
    there is none (a game not running, a turn-based one)."""
    started = _moment(started_at)
    if status != Status.ACTIVE or started is None or turn_based(time_control):
        return None
    went = datetime.fromtimestamp(since, tz=UTC)
    return max(went, started) + timedelta(seconds=grace_seconds())


def public_presence(raw: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    """The presence clients see (`online`, `spectators`, `away`) from `presence`'s raw
    snapshot and the game's JSON: `away[s]` is when seat s's grace ends (ISO), for a
    person still in the running game whose sockets all closed, else null."""
    away: list[str | None] = [None] * len(raw["online"])
    gone = raw.get("away") or {}
    in_game = (game.get("state") or {}).get("in_game") or []
    for entry in game.get("seats", []):
        seat = entry["seat"]
        since = gone.get(seat)
        if (since is None or entry.get("bot") or entry.get("username") is None
                or seat >= len(away) or (seat < len(in_game) and not in_game[seat])):
            continue
        end = grace_end(since=since, started_at=game.get("started_at"),
                        status=game.get("status", ""), time_control=game.get("time_control"))
        away[seat] = iso(end)
    return {"online": list(raw["online"]), "spectators": raw["spectators"], "away": away}


# -- the hand-over ----------------------------------------------------------------------


def hand_to_bot(*, game_id: int, seat: int, user: AbstractBaseUser,
                level: str = DEFAULT_LEVEL, now: datetime | None = None) -> Game:
    """Another player of a casual game hands `seat`, whose player left and whose grace
    is over, to the computer at `level`; the worker plays it from then on.

    Under the game row's lock: of two players asking at once the second finds the seat
    a bot's (`already_a_bot`); the unique (game, seat) of `Handover` holds regardless.
    """
    now = now or timezone.now()
    try:
        bot = bot_account(level)
    except (ValueError, TypeError):
        raise InvalidRequest(_("Unknown bot level %(level)s: easy, medium, hard or perfect.")
                             % {"level": repr(level)}, code="unknown_level") from None
    with transaction.atomic():
        found = round_store.lock_row(game_id)
        if found is None:
            raise privacy.not_found(game_id)
        game, seats = found
        privacy.hide_from_strangers(game, user, seats=seats)
        require_offered(game.kind, level)
        services.seating(game, seats, rounds.HandOver(user.pk, seat, bot.pk))
        _check_away(game, seat, now)
        replaced = next(s.user_id for s in seats if s.seat == seat)
        seat_rows.hand_to_bot(game, seat, bot.pk, replaced)  # one version on
        Handover.objects.create(game=game, seat=seat, ply=game.ply, at=now,
                                replaced_id=replaced, bot=bot, by_id=user.pk)
        # This process forgets its snapshot; the others' fail the write guard (the
        # version) at their next write and read the seats again.
        transaction.on_commit(lambda: state_cache.drop(game_id))
        announce_on_commit(game, seats_of(game), [], "handover")
    # The seat is a bot's: its record is no longer read (public_presence) if this fails.
    with suppress(redis.RedisError):
        presence.forget_away_sync(game_id, seat)
    return game


def _check_away(game: Game, seat: int, now: datetime) -> None:
    """Refuse unless `seat`'s sockets are all closed and its grace is over."""
    try:
        raw = presence.read_sync(game.pk, game.seat_count)
    except redis.RedisError:
        raise Unavailable(_("Who is connected cannot be checked right now; try again.")
                          ) from None
    since = raw["away"].get(seat)
    if raw["online"][seat] or since is None:
        raise NotAway(_("Seat %(seat)s's player is connected, or never left.")
                      % {"seat": seat})
    end = grace_end(since=since, started_at=game.started_at, status=game.status,
                    time_control=game.time_control)
    assert end is not None  # an active, live game (checked by the caller)
    if now < end:
        raise GraceNotOver(_("Seat %(seat)s's player may still come back: wait until the "
                             "grace period is over.") % {"seat": seat}, until=end)
