"""The door every change to a running game goes through: load, decide, write, announce.

Submitting an action, resigning, a moderator's removal or abort, the clock's flag and
the worker's return after downtime are each a round action (games/round) done for a
seat: `handle` loads the round (this process's snapshot, else the row),
`games.round.play` decides, and `round_store.commit` writes the progress in one
statement guarded by the game's `version`, announced after commit. A write that lost a
race (another writer came first), or a refusal decided from an unconfirmed snapshot, is
tried once more from the row, locked this time, so that second decision is final. Bots
play through `submit_action` like people. A finished game's annulment (`annul_game`,
moderation) is no round action but comes the same way: read, decided, one statement
guarded by the version, announced after commit.

A socket's move or resignation comes to `handle_on_loop`, which is the same door seen
from the event loop. In each process one writer per game: the commands a process's
sockets send a game are applied one at a time, in arrival order (lila's
`RoundAsyncActor`); another process writing the same game loses the version race
cleanly and decides again from the row. The decision is the same function and the
write the same prepared statement (`round_store.prepared`); only the connection differs:
the loop's own (bloqueio_site/loop_db.py) when the snapshot is at hand and the write is
one statement, else this module's `handle` on a worker thread, which needs Django's
connection for what the loop cannot do alone:

- no snapshot at the client's ply (another process wrote the game; nothing kept here);
- the caller holds no seat, or several (a bot account says which);
- the seat to move is past its deadline (the flag asks the clock worker's heartbeat);
- any refusal (decided again from the row, and said in the socket's language);
- a progress that rates (it ends a ranked game, or one with the computer: the ratings
  and the ranked queue commit with it, in one transaction) or writes nothing;
- a lost race (the guard matched no row: the snapshot is forgotten and the row decides,
  `stale_ply` if another move took that ply);
- no connection to be had (the loop's writes are off, or the database could not be
  reached a moment ago: nothing was sent, and the thread meets the database with the
  pool's reconnection and timeout).

A move still waiting for one of the loop's connections after the pool's timeout is
answered `unavailable` (loop_db.Busy), as a request that waited for the pool. A
statement that was sent and failed may have committed or not: the snapshot is forgotten
and the socket answers `unavailable`, so the client reads the game (`sync`). Once
submitted, a write is seen through even if the socket's task is cancelled (shielded).
"""

from __future__ import annotations

import asyncio
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bloqueio_site import loop_db
from games import privacy, round_store
from games.errors import (
    GameError,
    GameNotFound,
    GameOver,
    InvalidRequest,
    NotAPlayer,
    NotStarted,
    StalePly,
)
from games.live import writers
from games.models import Game, Seat, Status
from games.ranked import ratings
from games.ranked.heartbeat import last_beat
from games.refusal_text import service_error
from games.round import Abort, Act, Action, Flag, Leave, Progress, Resume, RoundEvent, play
from games.round import Status as RoundStatus
from games.round.refusals import Refusal

T = TypeVar("T")


@dataclass(frozen=True)
class Submitted:
    """An accepted action: its event (the first appended), all of them, the game after."""

    event: RoundEvent
    events: list[RoundEvent]
    payload: dict[str, Any]


# Picks the acting seat from the game's row and seats (or refuses).
SeatFor = Callable[[Game, list[Seat]], int | None]


def handle(game_id: int, seat_for: SeatFor, action: Action, now: datetime, *,
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


# -- from the event loop ------------------------------------------------------------------

# Per process: writes "written" by the loop and "passed_on" to a worker thread, of which
# "unusable" (no connection: nothing sent) and "lost_race" (the guard matched no row);
# "busy": answered `unavailable` after waiting the pool's timeout for a connection.
counts: Counter[str] = Counter()
_committing: set[asyncio.Future[Any]] = set()
# One writer per game on each event loop: a lock per game with commands, and how many
# commands hold or wait for it (the entry goes with the last).
_writers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                    dict[int, tuple[asyncio.Lock, list[int]]]] = (
    weakref.WeakKeyDictionary())


@asynccontextmanager
async def _one_writer(game_id: int) -> AsyncIterator[None]:
    """This game's turn to write on this event loop: commands wait in arrival order."""
    games = _writers.setdefault(asyncio.get_running_loop(), {})
    lock, users = games.setdefault(game_id, (asyncio.Lock(), [0]))
    users[0] += 1
    try:
        async with lock:
            yield
    finally:
        users[0] -= 1
        if users[0] == 0 and games.get(game_id, (None,))[0] is lock:
            del games[game_id]


async def handle_on_loop(game_id: int, user_id: int, action: Action, ply: int | None,
                         in_thread: Callable[[], Awaitable[T]]
                         ) -> round_store.Written | T:
    """`action` for the seat user `user_id` holds, written by the event loop when it can
    decide and write alone (the module's docstring says when not: then `in_thread`, the
    same door on a worker thread, answers). `ply`: the client's, for a move (None: the
    game as it stands)."""
    async with _one_writer(game_id):
        write = _decided_here(game_id, user_id, action, ply)
        if write is not None:
            # Shielded: once submitted, the write is seen through (sent, kept,
            # announced) even if the socket's task is cancelled meanwhile.
            commit = asyncio.ensure_future(_commit_here(write))
            _committing.add(commit)
            commit.add_done_callback(_committing.discard)
            done = await asyncio.shield(commit)
            if done is not None:
                counts["written"] += 1
                return done
        counts["passed_on"] += 1
        return await in_thread()


def _decided_here(game_id: int, user_id: int, action: Action, ply: int | None
                  ) -> round_store.Write | None:
    """The write the loop can make alone, decided from this process's snapshot; None
    if the loop cannot decide it (no database access here)."""
    if not loop_db.enabled():
        return None
    loaded = round_store.kept(game_id, ply)
    if loaded is None:
        return None
    seats = [held.seat for held in loaded.seats if held.user_id == user_id]
    now = timezone.now()
    if len(seats) != 1 or loaded.round.overdue(now):
        return None
    try:
        progress = play(loaded.round, seats[0], action, now)
    except (Refusal, GameError):
        return None
    if progress.refused is not None or progress.round_after is loaded.round:
        return None
    write = round_store.prepared(loaded, progress)
    return None if write.rated else write


async def _commit_here(write: round_store.Write) -> round_store.Written | None:
    writers.ensure()  # a lease before the write it may have to answer for
    try:
        done = await round_store.commit_on_loop(write)
    except loop_db.Busy:
        counts["busy"] += 1  # waited the pool's timeout: `unavailable`, as the pool says
        raise
    except loop_db.Unusable:
        counts["unusable"] += 1
        return None  # nothing sent; the snapshot still holds
    if done is None:
        counts["lost_race"] += 1
    return done


# -- the commands -------------------------------------------------------------------------

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
    written, progress = handle(game_id, _own_seat(user, seat), Act(action, ply), now, ply=ply)
    assert written is not None and progress is not None
    if progress.refused is not None:
        raise service_error(progress.refused)
    return submitted(written)


def submitted(written: round_store.Written) -> Submitted:
    """The answer to an accepted action, from what its write appended and announced."""
    return Submitted(event=written.events[0], events=list(written.events),
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
    written, _progress = handle(game_id, seat_for, Leave(why), timezone.now())
    assert written is not None
    return written.game


def abort_game(*, game_id: int) -> Game:
    """End a waiting or active game with no result (moderation, abandonment)."""
    written, _progress = handle(game_id, _no_seat, Abort(), timezone.now())
    assert written is not None
    return written.game


def annul_game(*, game_id: int, now: datetime | None = None) -> Game:
    """A moderator annuls a finished ranked game (moderation.services): it keeps its
    outcome, unrated (`annulled`), and its players' ratings are recomputed as if it
    never happened (`ratings.revert`), in the transaction of the row's one statement
    guarded by its version (`round_store.annul`); its sockets hear a `game` frame, change
    "annulled", with the new result and `v`, after commit."""
    with transaction.atomic():
        found = round_store.lock_row(game_id)
        if found is None:
            raise GameNotFound(_("No game %(id)s.") % {"id": game_id})
        game, seats = found
        ratings.require_annullable(game)
        annulled = round_store.annul(game, seats, now or timezone.now(),
                                     ratings.annulled_result(game.result))
        if annulled is None:  # the row is locked: nothing can have moved it
            raise RuntimeError(f"game {game_id} changed under its lock")
        ratings.revert(annulled)
    return annulled


def expire_clock(*, game_id: int, now: datetime | None = None) -> bool:
    """The clock worker's write: flag the game's seat to move if its time is up; True
    if it did (a timeout, or an abort when a first move never came).

    A game another transaction holds is skipped (SKIP LOCKED): it is checked on the
    next tick, or by that write itself, so several workers never wait on each other.
    """
    try:
        written, progress = handle(game_id, _no_seat, Flag(), now or timezone.now(),
                                   skip_locked=True)
    except GameError:
        return False  # over, or gone, meanwhile
    return written is not None and progress is not None and (
        bool(progress.events) or progress.round_after.status == RoundStatus.ABORTED)


def give_back_time(*, game_id: int, since: datetime | None, now: datetime) -> bool:
    """The clock worker is back after nobody watched since `since`: the game's running
    turn gets that time back (games.round.Resume). True if the game's clock moved."""
    try:
        written, _progress = handle(game_id, _no_seat, Resume(since), now)
    except GameError:
        return False
    return written is not None


def require_playing(game: Game) -> None:
    """Refuse anything but play on a game that is not running (hints ask this too)."""
    if game.status == Status.WAITING:
        raise NotStarted(_("The game has not started yet."))
    if game.status != Status.ACTIVE:
        raise GameOver(_("The game is %(status)s.") % {"status": game.status})
