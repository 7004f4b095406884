"""Every change to a running game, by ONE write path: load, `play`, one guarded commit.

Submitting an action, resigning, a moderator's removal or abort, the clock's flag and
the worker's return after downtime all go through `_write`: the round is loaded (this
process's snapshot, else the row), `games.round.play` decides, and `round_store.commit`
writes the progress in one guarded statement, announced after commit. A write that lost
a race (the guard failed: another writer came first), or a refusal decided from an
unconfirmed snapshot, is tried once more from the row, locked this time, so that second
decision is final. Bots play through `submit_action` like people.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import privacy, round_store
from games.errors import GameError, GameOver, InvalidRequest, NotAPlayer, NotStarted, StalePly
from games.models import Game, Seat, Status
from games.ranked.heartbeat import last_beat
from games.refusal_text import service_error
from games.round import Abort, Act, Action, Flag, Leave, Progress, Resume, RoundEvent, play
from games.round.refusals import Refusal


@dataclass(frozen=True)
class Submitted:
    """An accepted action: its event (the first appended), all of them, the game after."""

    event: RoundEvent
    events: list[RoundEvent]
    payload: dict[str, Any]


# Picks the acting seat from the game's row and seats (or refuses).
SeatFor = Callable[[Game, list[Seat]], int | None]


def _write(game_id: int, seat_for: SeatFor, action: Action, now: datetime, *,
           ply: int | None = None, skip_locked: bool = False
           ) -> tuple[round_store.Written | None, Progress | None]:
    """Load, play, commit; returns what was written (None if nothing changed) and the
    progress. `seat_for` picks the acting seat from the game and its seats (or refuses).
    With `skip_locked` a game another transaction holds is left alone: (None, None)."""
    for locked in (False, True):
        with transaction.atomic() if locked else nullcontext():
            loaded = round_store.load(game_id, ply=None if locked else ply, lock=locked,
                                      skip_locked=skip_locked)
            if loaded is None:
                return None, None
            try:
                seat = seat_for(loaded.game, loaded.seats)
                beat = last_beat() if loaded.round.overdue(now) else None
                progress = play(loaded.round, seat, action, now, last_beat=beat)
            except (Refusal, GameError) as refusal:
                if loaded.cached:
                    continue  # the snapshot may be behind the row: ask the row
                if isinstance(refusal, Refusal):
                    raise service_error(refusal) from None
                raise
            if progress.round_after is loaded.round:
                return None, progress  # nothing to write
            written = round_store.commit(loaded, progress, skip_locked=skip_locked)
            if written is not None:
                return written, progress
    # Only without row locks (SQLite) can the locked try lose a race too.
    raise StalePly(_("The game moved on meanwhile; try again."))


def _own_seat(user: AbstractBaseUser, seat: int | None = None) -> SeatFor:
    """The caller's seat (`seat`: which of them, for a bot account holding several); to
    a stranger, a private game is not there (games/privacy.py)."""

    def find(game: Game, seats: list[Seat]) -> int:
        for held in seats:
            if held.user_id == user.pk and (seat is None or held.seat == seat):
                return held.seat
        privacy.hide_from_strangers(game, user, seats=seats)
        raise NotAPlayer(_("You have no seat in this game."))

    return find


def _no_seat(game: Game, seats: list[Seat]) -> None:
    return None


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
    written, progress = _write(game_id, _own_seat(user, seat), Act(action, ply), now, ply=ply)
    assert written is not None and progress is not None
    if progress.refused is not None:
        raise service_error(progress.refused)
    return Submitted(event=progress.events[0], events=list(progress.events),
                     payload=written.payload)


def resign(*, game_id: int, user: AbstractBaseUser) -> Game:
    """The caller's seat leaves the game (docs/rules.md#leaving)."""
    return _leave(game_id, _own_seat(user), "resign")


def remove_seat(*, game_id: int, seat: int, why: str = "removed") -> Game:
    """A moderator (or the clock, with why="timeout") takes a seat out of the game."""

    def that_seat(game: Game, seats: list[Seat]) -> int:
        if not any(s.seat == seat for s in seats):
            raise InvalidRequest(_("Seat %(seat)s is not taken in this game.") % {"seat": seat})
        return seat

    return _leave(game_id, that_seat, why)


def _leave(game_id: int, seat_for: SeatFor, why: str) -> Game:
    written, _progress = _write(game_id, seat_for, Leave(why), timezone.now())
    assert written is not None
    return written.game


def abort_game(*, game_id: int) -> Game:
    """End a waiting or active game with no result (moderation, abandonment)."""
    written, _progress = _write(game_id, _no_seat, Abort(), timezone.now())
    assert written is not None
    return written.game


def expire_clock(*, game_id: int, now: datetime | None = None) -> bool:
    """The clock worker's write: flag the game's seat to move if its time is up; True
    if it did (a timeout, or an abort when a first move never came).

    A game another transaction holds is skipped (SKIP LOCKED): it is checked on the
    next tick, or by that write itself, so several workers never wait on each other.
    """
    try:
        written, progress = _write(game_id, _no_seat, Flag(), now or timezone.now(),
                                   skip_locked=True)
    except GameError:
        return False  # over, or gone, meanwhile
    return written is not None and progress is not None and (
        bool(progress.events) or progress.round_after.status == Status.ABORTED)


def give_back_time(*, game_id: int, since: datetime | None, now: datetime) -> bool:
    """The clock worker is back after nobody watched since `since`: the game's running
    turn gets that time back (games.round.Resume). True if the game's clock moved."""
    try:
        written, _progress = _write(game_id, _no_seat, Resume(since), now)
    except GameError:
        return False
    return written is not None


def require_playing(game: Game) -> None:
    """Refuse anything but play on a game that is not running (hints ask this too)."""
    if game.status == Status.WAITING:
        raise NotStarted(_("The game has not started yet."))
    if game.status != Status.ACTIVE:
        raise GameOver(_("The game is %(status)s.") % {"status": game.status})
