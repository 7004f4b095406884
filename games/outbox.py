"""Side effects of changes to games: written with the change, carried out by the worker.

What a change causes outside the game (a "your turn" to tell, an invitation's notice) is
an `Outbox` row inserted in the change's own transaction: on PostgreSQL a move's one
statement carries it (games/round_store.py), elsewhere `record` adds it to the caller's
transaction. A row exists if and only if its change committed.

The worker carries the rows out (`run_pending`, a job of games/worker.py): each row is
claimed `FOR UPDATE SKIP LOCKED` (several workers share the queue), its handler runs in
the same transaction, and the row is marked done in it. A crash before that commit rolls
the handler's writes back with the claim, and the row is taken again: done exactly once.
A handler that raises is retried later with backoff (`attempts`, `last_error`); nothing
is lost, nothing done twice. The insert wakes the workers (a PostgreSQL NOTIFY at commit,
games/migrations/0011_outbox.py; `Waker`), with a poll behind it.

Without Redis (`make run`: SQLite, an in-memory channel layer) the worker's pushes could
not reach the web process's sockets, so there (`OUTBOX_IN_PROCESS`) the process that
wrote the rows also carries them out after their commit, on a thread of its own, and the
worker takes only what it left (rows older than IN_PROCESS_GRACE).

Games only writes rows and names their kinds; the apps above register a handler for each
kind (`handler`, from their AppConfig.ready): games never imports them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection, connections, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from bloqueio_site import jsontext
from games.models import Game, Outbox, Seat
from games.round import Round, Status, turn_based

log = logging.getLogger(__name__)

# The kinds of row games writes. Payloads are plain JSON: ids and words, read again by
# the handler, which decides what is still true when it runs.
TURN = "turn"  # a turn-based game's seat to move: {"ply", "to_move", "seated", "kind"}
GAME_OVER = "game_over"  # a turn-based game finished: {"seated", "kind"}
INVITED = "invited"  # an invitation by name: {"invitation"}
INVITATION_REVOKED = "invitation_revoked"  # taken back: {"invitation", "invited"}
REMATCH_OFFERED = "rematch_offered"  # {"by", "user_ids", "kind"}
# A game an organiser seated and started is ready for its people: {"user_ids", "kind",
# and what the organiser adds to say where it comes from}; written by the app above
# that seated it, in the transaction that started the game.
TABLE_READY = "table_ready"
KINDS = (TURN, GAME_OVER, INVITED, INVITATION_REVOKED, REMATCH_OFFERED, TABLE_READY)

CHANNEL = "games_outbox"  # the NOTIFY channel of the insert trigger
BATCH = 100  # rows a worker tick carries out at most
RETRY_FIRST, RETRY_MAX = timedelta(seconds=2), timedelta(minutes=30)
KEEP_DONE = timedelta(days=7)
IN_PROCESS_GRACE = timedelta(seconds=10)


@dataclass(frozen=True)
class Effect:
    """A row to write: what to do (`kind`) about which game, with what."""

    kind: str
    game_id: int | None
    payload: dict[str, Any] = field(default_factory=dict)


Handler = Callable[[Outbox], object]
_handlers: dict[str, Handler] = {}


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Decorator: `kind`'s rows are carried out by the function (one per kind)."""
    if kind not in KINDS:
        raise ValueError(f"no outbox kind {kind!r}")

    def register(func: Handler) -> Handler:
        if _handlers.get(kind, func) is not func:
            raise RuntimeError(f"outbox kind {kind!r} has a handler already")
        _handlers[kind] = func
        return func

    return register


# -- writing ------------------------------------------------------------------------------

def of_change(game: Game, seats: Sequence[Seat], after: Round, change: str | None,
              events: Sequence[object]) -> list[Effect]:
    """What a committed change to a game causes outside it: in a turn-based game, the
    next seat's "your turn" and the end of the game. (In a live game the player is at
    the board: its socket says so.)"""
    if change is None or not turn_based(game.time_control):
        return []
    users: list[int | None] = [None] * game.seat_count
    for seat in seats:
        users[seat.seat] = seat.user_id
    seated = [uid for uid in users if uid is not None]
    if change == "finished":
        return [Effect(GAME_OVER, game.pk, {"seated": seated, "kind": game.kind})]
    if after.status is not Status.ACTIVE or not (events or change == "started"):
        return []
    turn = getattr(after.state, "turn", None)
    to_move = users[turn] if isinstance(turn, int) and 0 <= turn < len(users) else None
    return [Effect(TURN, game.pk, {"ply": after.ply, "to_move": to_move, "seated": seated,
                                   "kind": game.kind})]


def record(*effects: Effect, now: datetime | None = None) -> None:
    """Insert `effects` in the caller's transaction (call it inside the change's)."""
    if effects:
        now = now or timezone.now()
        Outbox.objects.bulk_create([Outbox(kind=e.kind, game_id=e.game_id, payload=e.payload,
                                           created_at=now, due_at=now) for e in effects])
        after_commit()


def after_commit() -> None:
    """Rows were written in the current transaction: with OUTBOX_IN_PROCESS, carry them
    out here once it commits (nothing if it rolls back)."""
    if settings.OUTBOX_IN_PROCESS:
        transaction.on_commit(carry_out_here)


_here = ThreadPoolExecutor(max_workers=1, thread_name_prefix="outbox")


def carry_out_here() -> None:
    """With OUTBOX_IN_PROCESS, carry out the due rows on this process's outbox thread
    (never on the caller's: a request, or the event loop after its own write)."""
    if settings.OUTBOX_IN_PROCESS:
        _here.submit(_drain)


def _drain() -> None:
    try:
        run_pending()
    except Exception:
        log.exception("outbox: carrying out in process failed; the worker will")
    finally:
        connections.close_all()  # this thread's own


# PostgreSQL: a branch of a write's one statement (round_store's `moved` CTE), inserting
# only if the write's update matched.
_PG_INSERT = (f", effects AS (INSERT INTO {Outbox._meta.db_table} (kind, game_id, payload, "
              "created_at, due_at, attempts, last_error) SELECT o.kind, moved.id, "
              "o.payload::jsonb, now(), now(), 0, '' FROM moved, (VALUES {rows}) "
              "AS o(kind, payload))")
_PG_ROW = "(%s::text, %s::text)"


def statement_branch(effects: Sequence[Effect]) -> tuple[str, list[Any]]:
    """The CTE branch writing `effects` (for the game the statement's `moved` updated)
    and its parameters; empty without effects."""
    if not effects:
        return "", []
    params = [v for e in effects for v in (e.kind, jsontext.dumps(e.payload))]
    return _PG_INSERT.format(rows=", ".join([_PG_ROW] * len(effects))), params


# -- carrying out -------------------------------------------------------------------------

def run_pending(now: datetime | None = None, limit: int = BATCH, *,
                settled_for: timedelta = timedelta(0)) -> int:
    """The worker job: carry out the rows that are due (and written `settled_for` ago
    at least), one transaction each; returns how many were done (a failed one is put
    off, not counted)."""
    done = 0
    for _ in range(limit):
        outcome = _run_one(now or timezone.now(), settled_for)
        if outcome is None:
            break
        done += outcome
    return done


def _run_one(now: datetime, settled_for: timedelta) -> bool | None:
    """Claim the oldest due row, run its handler, mark it: True done, False put off,
    None if no row is due (or every due one is claimed by another worker).

    One game's rows go in order: a row waits while an earlier one of its game is due
    (another worker may hold it), except one put off after a failure, which no longer
    holds the others back."""
    due = Q(done_at__isnull=True, due_at__lte=now)
    earlier = Outbox.objects.filter(due, game_id=OuterRef("game_id"), id__lt=OuterRef("id"))
    with transaction.atomic():
        row = (Outbox.objects.select_for_update(skip_locked=True)
               .filter(due, created_at__lte=now - settled_for).exclude(Exists(earlier))
               .order_by("due_at", "id").first())
        if row is None:
            return None
        try:
            with transaction.atomic():  # a savepoint: a failure undoes the handler only
                run = _handlers.get(row.kind)
                if run is None:
                    raise LookupError(f"no handler for outbox kind {row.kind!r}")
                run(row)
        except Exception as exc:
            row.attempts += 1
            row.due_at = now + min(RETRY_FIRST * 2 ** (row.attempts - 1), RETRY_MAX)
            row.last_error = repr(exc)[:2000]
            log.exception("outbox %s (%s, game %s): attempt %s failed", row.pk, row.kind,
                          row.game_id, row.attempts)
            Outbox.objects.filter(pk=row.pk).update(
                attempts=row.attempts, due_at=row.due_at, last_error=row.last_error)
            return False
        Outbox.objects.filter(pk=row.pk).update(done_at=now, attempts=row.attempts + 1)
        return True


def forget_done(now: datetime | None = None) -> int:
    """Delete rows done more than KEEP_DONE ago (kept a while to answer "what happened")."""
    cutoff = (now or timezone.now()) - KEEP_DONE
    deleted, _ = Outbox.objects.filter(done_at__lt=cutoff).delete()
    return deleted


class Waker:
    """Waits for an outbox insert to commit (PostgreSQL LISTEN on its own connection),
    at most `timeout`; elsewhere (SQLite) it only sleeps and the worker polls."""

    def __init__(self) -> None:
        self._conn: psycopg.Connection[Any] | None = None

    @property
    def listening(self) -> bool:
        return self._conn is not None and not self._conn.closed

    def wait(self, timeout: float) -> bool:
        """True if woken by an insert, False after `timeout` (or on a lost connection,
        which is opened again next time)."""
        try:
            if not self.listening and connection.vendor == "postgresql":
                self._listen()
            if self._conn is None:
                time.sleep(timeout)
                return False
            return bool(list(self._conn.notifies(timeout=timeout, stop_after=1)))
        except psycopg.Error as exc:
            log.warning("outbox: no wake-ups (%r); polling", exc)
            self.close()
            time.sleep(timeout)
            return False

    def _listen(self) -> None:
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        params.setdefault("connect_timeout", 5)
        conn = psycopg.Connection.connect(autocommit=True, **params)
        conn.execute(f"LISTEN {CHANNEL}")
        self._conn = conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None
