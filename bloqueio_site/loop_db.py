"""PostgreSQL connections of the event loop itself, for the one statement a hot move is,
and the reads a socket's open makes (its token's user, its `hello`: `fetch_one`).

A move over a socket used to hop to a worker thread for its one statement (a
`SyncToAsync` call, a borrow from Django's pool), and every time that thread gave the
GIL up to wait for PostgreSQL it had to wait for the GIL again behind the event loop:
under load the move waited, and so did every REST request sharing those threads
(docs/performance.md, "Moves written from the event loop"). Here the loop runs the
statement itself on an asynchronous psycopg connection and waits for PostgreSQL like for
any socket, holding nothing.

Bounded like Django's pool: at most DATABASE_LOOP_CONNECTIONS connections per event loop
(0 turns them off: every move and read takes the thread path), opened on demand with
Django's connection parameters (the database, the session timeouts, prepared
statements, and its loaders: JSON as text for the fields to parse), in autocommit, with
the session's time zone set to Django's as Django sets its own (its loaders label a
timestamp with Django's zone as the session wrote it). The rest of Django's session
set-up is not run (no `assume_role`). When every connection is busy, moves queue for one,
first come first served (a statement holds one for about a commit), and get `Busy` after
the pool's
`timeout`, answered `unavailable` like the pool's own. Within a second of a connection
that could not be opened they get `Unusable` at once and take the thread path (the pool,
its reconnection and its timeout) instead. A connection is closed instead of reused
after a failed statement, once older than the pool's `max_lifetime` or idle longer than
its `max_idle` (both checked when it is borrowed), or when its server has something to
say while it is idle (it is ending it: bloqueio_site/postgres's `speaks`, the pool's
test too). No background tasks: a loop's connections go when `close_all` is called
(tests, after each) or with the process.
"""

from __future__ import annotations

import asyncio
import functools
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import psycopg
from django.conf import settings
from django.db import OperationalError, connections

from bloqueio_site import model_rows
from bloqueio_site.postgres.base import speaks

RETRY_CONNECT_AFTER = 1.0  # seconds of `Unusable` after a connection could not be opened


class Busy(OperationalError):
    """Every connection of this loop stayed busy for the pool's timeout; nothing was
    sent. A Django OperationalError: answered `unavailable`, as the pool's own timeout."""


class Unusable(Exception):
    """No connection here now (the loop's connections are off, the database could not be
    reached a moment ago, or every one is busy for a read that does not queue), or the
    connection failed under a read; nothing was written: take another path."""


@dataclass
class _Idle:
    conn: psycopg.AsyncConnection[Any]
    opened: float
    since: float


@dataclass
class _Connections:
    idle: list[_Idle] = field(default_factory=list)
    busy: int = 0  # borrowed, or being opened
    waiters: deque[asyncio.Future[None]] = field(default_factory=deque)  # first come first
    down_until: float = 0.0


def _release(pool: _Connections) -> None:
    """A borrower is done: its place goes to the first waiter still waiting, if any."""
    while pool.waiters:
        waiter = pool.waiters.popleft()
        if not waiter.done():
            waiter.set_result(None)
            return
    pool.busy -= 1


async def _acquire(pool: _Connections, wait: bool = True) -> None:
    """A place among the loop's DATABASE_LOOP_CONNECTIONS; `Busy` after the pool's
    timeout (the waits are futures in a queue: no task, no timer unless one waits), or
    `Unusable` at once if none is free and `wait` is false."""
    if pool.busy < settings.LOOP_DB_CONNECTIONS and not pool.waiters:
        pool.busy += 1
        return
    if not wait:
        raise Unusable("every connection of the event loop is busy")
    waiter = asyncio.get_running_loop().create_future()
    pool.waiters.append(waiter)
    try:
        async with asyncio.timeout(_timeout()):
            await waiter
    except BaseException as exc:
        if waiter.done() and not waiter.cancelled():
            _release(pool)  # the place came just as this borrower gave up: pass it on
        else:
            with suppress(ValueError):
                pool.waiters.remove(waiter)
        if isinstance(exc, TimeoutError):
            raise Busy("every connection of the event loop stayed busy") from None
        raise


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Connections] = (
    weakref.WeakKeyDictionary())


def enabled() -> bool:
    """Whether this process's event loops write to the database themselves."""
    return settings.LOOP_DB_CONNECTIONS > 0 and _on_postgresql()


@functools.cache
def _on_postgresql() -> bool:
    return model_rows.database().vendor == "postgresql"


def _pool_options() -> dict[str, Any]:
    # The settings' own dict (the connection's `settings_dict` is the same object), read
    # without the per-thread connection lookup: this runs on every move.
    options = connections.settings["default"]["OPTIONS"].get("pool")
    return options if isinstance(options, dict) else {}


def _lifetimes() -> tuple[float, float]:
    """Django's pool's (max_lifetime, max_idle), which these connections keep too."""
    options = _pool_options()
    return float(options.get("max_lifetime", 3600.0)), float(options.get("max_idle", 600.0))


def _timeout() -> float:
    return float(_pool_options().get("timeout", 10.0))


def _quiet(conn: psycopg.AsyncConnection[Any]) -> bool:
    return not (conn.closed or conn.broken or speaks(conn))


async def _take(pool: _Connections) -> tuple[psycopg.AsyncConnection[Any], float]:
    """An idle connection that is still good (the others closed), else a new one."""
    now = time.monotonic()
    lifetime, idle_for = _lifetimes()
    while pool.idle:
        idle = pool.idle.pop()  # the most recently used first
        if now - idle.opened < lifetime and now - idle.since < idle_for and _quiet(idle.conn):
            return idle.conn, idle.opened
        await idle.conn.close()  # taken off the list first: no other borrower sees it
    if now < pool.down_until:
        raise Unusable("the database could not be reached a moment ago")
    try:
        return await _open(), now
    except psycopg.Error as exc:
        pool.down_until = time.monotonic() + RETRY_CONNECT_AFTER
        raise Unusable(f"no connection: {exc}") from exc


async def _open() -> psycopg.AsyncConnection[Any]:
    database = model_rows.database()
    params = database.get_connection_params()
    params.pop("cursor_factory", None)  # Django's (synchronous) class; binding stays server-side
    conn = await psycopg.AsyncConnection.connect(autocommit=True, **params)
    try:
        # As Django's `_configure_timezone`: its loaders take a timestamp as the session
        # wrote it and label it with Django's zone, so the session must be in that zone.
        if conn.info.parameter_status("TimeZone") != database.timezone_name:
            await conn.execute("SELECT set_config('TimeZone', %s, false)",
                               [database.timezone_name])
    except BaseException:
        await conn.close()
        raise
    return conn


@asynccontextmanager
async def connection(*, wait: bool = True) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
    """Borrow one of this loop's connections, queueing for one unless `wait` is false;
    raises `Busy` or `Unusable` (nothing sent). A connection whose statement failed or
    was cancelled is closed, not returned."""
    if not enabled():
        raise Unusable("the event loop's database connections are off")
    loop = asyncio.get_running_loop()
    pool = _loops.get(loop)
    if pool is None:
        pool = _loops[loop] = _Connections()
    await _acquire(pool, wait)
    try:
        conn, opened = await _take(pool)
        try:
            yield conn
        except BaseException:
            await conn.close()
            raise
        if conn.closed or conn.broken or conn.info.transaction_status != (
                psycopg.pq.TransactionStatus.IDLE):
            await conn.close()
        else:
            pool.idle.append(_Idle(conn, opened, time.monotonic()))
    finally:
        _release(pool)


counts = {"reads": 0}  # reads answered here (tests look)


async def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row `sql` answers, read on one of this loop's connections.

    Never queues: the moves do. With every connection busy (or moves waiting) the read
    is `Unusable` at once, and the caller makes it on a worker thread (`off_loop`)
    through the pool; so it is when the loop cannot read now, or when the connection
    failed under the statement (a read can be made again, and the pool reconnects). A
    statement that failed on a sound connection (a timeout, an error) raises Django's
    error for it, as the thread's read would."""
    async with connection(wait=False) as conn:
        try:
            cursor = await conn.execute(sql, params)
            row = await cursor.fetchone()
        except psycopg.Error as exc:
            if conn.broken or conn.closed:
                raise Unusable(f"the connection failed under the read ({exc!r})") from exc
            with model_rows.database().wrap_database_errors:  # Django's mapping, as its cursors
                raise
    counts["reads"] += 1
    return row


def close_all() -> None:
    """Close every idle connection of every loop (tests, after each; a loop that is
    gone cannot run `await conn.close()`, so libpq's own finish does it). A connection
    still borrowed is closed by its borrower, or with its object."""
    for pool in list(_loops.values()):
        while pool.idle:
            pool.idle.pop().conn.pgconn.finish()
