"""The version's doorbell: one LISTEN connection per event loop (server process) that
hears, from PostgreSQL itself, every committed change of every game.

A trigger on the games' table (games/migrations/0013_game_version_doorbell.py) sends
`pg_notify('games_version', '<id> <version>')` from the transaction of every update that
moves a game's version. PostgreSQL delivers it at that transaction's commit, whatever
becomes of the writer after it (killed before its PUBLISH, its PUBLISH failed), and never
for a rolled-back one. The fan-out hub (games/live/fanout.py) owns one `Doorbell`: it is
told of each ring (`rang`) and, after every (re)connection of this LISTEN, reads once what
may have rung while nobody listened (`listening`). NOTIFY is at most once to a connection
that is down, as PUBLISH is to a subscription that is: that catch-up is what makes it
durable.

One connection, opened with Django's parameters on the event loop (as
bloqueio_site/loop_db.py's), autocommit, kept while anything here watches a game, and
reconnected with back-off when it fails. PostgreSQL only: the embedded mode's SQLite has
no NOTIFY (the hub audits there instead).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any, Protocol

import psycopg

from bloqueio_site import loop_db

log = logging.getLogger(__name__)

CHANNEL = "games_version"
RECONNECT_DELAYS = (0.1, 0.5, 1.0, 2.0, 5.0)
# How often the notifications that came are read (a batch: one wake-up for all of them).
READ_EVERY = 0.1
# How often the listening loop looks up from its connection to see whether anything here
# still watches a game (and leaves when nothing does).
LOOK_UP_EVERY = 1.0

# Every doorbell connection open, for `close_all` (tests: a loop that is gone cannot
# close its own).
_open: weakref.WeakSet[psycopg.AsyncConnection[Any]] = weakref.WeakSet()


class Owner(Protocol):
    """What the doorbell rings (the hub)."""

    def wanted(self) -> bool:
        """Whether anything here still watches a game."""

    def rang(self, game_id: int, version: int) -> None:
        """A change of `game_id` to `version` committed (called on the loop, for every
        game of the site: keep it to a lookup)."""

    async def listening(self) -> None:
        """The LISTEN is (again) in place: catch up what may have rung meanwhile."""


class Doorbell:
    def __init__(self, owner: Owner) -> None:
        self._owner = owner
        self._task: asyncio.Task[None] | None = None
        self.backend_pid: int | None = None  # the listening backend (tests end it)
        self.connections = 0  # how many times it has listened and caught up (tests)
        self.rings = 0  # rings heard (tests)

    def ensure(self) -> None:
        """Listen, if not already."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._listen_forever())

    async def _listen_forever(self) -> None:
        attempt = 0
        while self._owner.wanted():
            conn: psycopg.AsyncConnection[Any] | None = None
            try:
                conn = await loop_db.open_connection()
                _open.add(conn)
                await conn.execute(f"LISTEN {CHANNEL}")
                self.backend_pid = conn.info.backend_pid
                attempt = 0
                # After the LISTEN: whatever commits from now on rings here; what
                # committed before it is in the catch-up's read.
                await self._owner.listening()
                self.connections += 1
                await self._hear(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                delay = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
                attempt += 1
                log.warning("doorbell: LISTEN lost (%r); reconnecting in %.1f s", exc, delay)
                await asyncio.sleep(delay)
            finally:
                self.backend_pid = None
                if conn is not None:
                    _open.discard(conn)
                    with contextlib.suppress(Exception):
                        await conn.close()

    async def _hear(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Hand the notifications to the owner, READ_EVERY, as many as came meanwhile,
        until nothing here watches a game (then return) or the connection fails (then
        raise). Read in batches straight from libpq: a ring is not urgent (the hub waits
        RING_GRACE for its message anyway), and waking for each one, as psycopg's
        `notifies()` does, cost ~85 us of Python a ring at a move's rate
        (docs/performance.md, "The version's doorbell")."""
        pgconn = conn.pgconn
        ended = psycopg.OperationalError("the LISTEN connection ended")
        looked = asyncio.get_running_loop().time()
        while True:
            await asyncio.sleep(READ_EVERY)
            pgconn.consume_input()  # raises if the connection failed
            while (note := pgconn.notifies()) is not None:
                self._ring(note.extra.decode())
            if pgconn.status != psycopg.pq.ConnStatus.OK:
                raise ended
            if (now := asyncio.get_running_loop().time()) - looked >= LOOK_UP_EVERY:
                looked = now
                if not self._owner.wanted():
                    return

    def _ring(self, payload: str) -> None:
        self.rings += 1
        try:
            game_id, version = payload.split(" ")
            self._owner.rang(int(game_id), int(version))
        except ValueError:
            log.warning("doorbell: a ring that says nothing: %r", payload)


def close_all() -> None:
    """Close every doorbell connection (tests, after each: the test database can then
    be dropped; its listening task, if its loop still runs, reconnects)."""
    for conn in list(_open):
        conn.pgconn.finish()
