"""PostgreSQL connections of the event loop itself, for the one statement a hot move is.

A move over a socket used to hop to a worker thread for its one statement (a
`SyncToAsync` call, a borrow from Django's pool), and every time that thread gave the
GIL up to wait for PostgreSQL it had to wait for the GIL again behind the event loop:
under load the move waited, and so did every REST request sharing those threads
(docs/performance.md, "Moves written from the event loop"). Here the loop runs the
statement itself on an asynchronous psycopg connection and waits for PostgreSQL like for
any socket, holding nothing.

Bounded like Django's pool: at most DATABASE_LOOP_CONNECTIONS connections per event loop
(0 turns the loop's writes off: every move takes the thread path), opened on demand with
Django's own connection parameters (the database, the timeouts, prepared statements), in
autocommit. A connection that failed, is older than Django's pool's `max_lifetime`, or
whose server has something to say while it is idle (it is ending it: the same test as
bloqueio_site/postgres's `check_idle`) is closed instead of reused. A borrower that finds
every connection busy for `DATABASE_POOL_TIMEOUT` gets `Busy` and can take another path.
No background tasks: a loop's connections go when `close_all` is called (tests, after
each) or with the process.
"""

from __future__ import annotations

import asyncio
import select
import time
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections

_UNREAD = select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP


class Busy(Exception):
    """Every connection of this loop stayed busy for the pool's timeout, or there are
    none (the loop's writes are off, or the database is not PostgreSQL)."""


@dataclass
class _Connections:
    size: int
    idle: list[tuple[float, psycopg.AsyncConnection[Any]]] = field(default_factory=list)
    free: asyncio.Semaphore = field(init=False)

    def __post_init__(self) -> None:
        self.free = asyncio.Semaphore(self.size)


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Connections] = (
    weakref.WeakKeyDictionary())


def enabled() -> bool:
    """Whether this process's event loops write to the database themselves."""
    return (settings.LOOP_DB_CONNECTIONS > 0
            and connections["default"].vendor == "postgresql")


def _options() -> dict[str, Any]:
    return dict(connections["default"].settings_dict["OPTIONS"].get("pool") or {})


def _usable(opened: float, conn: psycopg.AsyncConnection[Any]) -> bool:
    if conn.closed or conn.broken:
        return False
    if time.monotonic() - opened > _options().get("max_lifetime", 3600.0):
        return False
    poller = select.poll()
    poller.register(conn.fileno(), _UNREAD)
    return not poller.poll(0)  # an idle connection's server speaks only to end it


async def _connect() -> psycopg.AsyncConnection[Any]:
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)  # Django's (synchronous) class; binding stays server-side
    return await psycopg.AsyncConnection.connect(autocommit=True, **params)


@asynccontextmanager
async def connection() -> AsyncIterator[psycopg.AsyncConnection[Any]]:
    """Borrow one of this loop's connections (opened if none is idle); raises `Busy`.
    A connection whose statement failed is closed, not returned."""
    if not enabled():
        raise Busy("the event loop's database writes are off")
    loop = asyncio.get_running_loop()
    pool = _loops.get(loop)
    if pool is None:
        pool = _loops[loop] = _Connections(settings.LOOP_DB_CONNECTIONS)
    try:
        await asyncio.wait_for(pool.free.acquire(), _options().get("timeout", 10.0))
    except TimeoutError:
        raise Busy("every connection of the event loop is busy") from None
    conn = None
    try:
        while pool.idle:
            opened, candidate = pool.idle.pop()
            if _usable(opened, candidate):
                conn = candidate
                break
            await candidate.close()
        if conn is None:
            opened, conn = time.monotonic(), await _connect()
        try:
            yield conn
        except BaseException:
            await conn.close()
            raise
        if conn.closed or conn.broken or conn.info.transaction_status != (
                psycopg.pq.TransactionStatus.IDLE):
            await conn.close()
        else:
            pool.idle.append((opened, conn))
    finally:
        pool.free.release()


def close_all() -> None:
    """Close every idle connection of every loop (tests, after each; a loop that is
    gone cannot run `await conn.close()`, so libpq's own finish does it)."""
    for pool in list(_loops.values()):
        while pool.idle:
            _opened, conn = pool.idle.pop()
            conn.pgconn.finish()
