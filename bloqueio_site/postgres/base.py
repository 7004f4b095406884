"""Django's PostgreSQL backend, whose connection pool checks a connection without a
round trip when nothing says it is broken (settings.DATABASES' ENGINE). Its deploy check
(autovacuum) is in `checks`.

psycopg_pool's own check (`ConnectionPool.check_connection`, what Django installs under
CONN_HEALTH_CHECKS) sends an empty query every time a connection leaves the pool: one
more round trip to PostgreSQL for every request and every socket's database call, and
under load one more wait for the GIL after it (16 % of the server's wall time in the
continuous benchmark, docs/performance.md). An idle connection's server writes to it
only to end it (a restart, `pg_terminate_backend`, `idle_session_timeout`: an error
message, then the socket closes), so `check_idle` first asks the kernel whether the
socket has anything to read, and only then runs the real check, which fails on a dead
connection; the pool then throws it away and hands out another (the same as before). A
peer that vanished without a word (a cut cable) is not seen by either check: a query on
it waits for TCP to give up, with or without an empty query first.

Django 5.2 passes its own `check=` beside the `OPTIONS["pool"]` options, so a `check`
there is a TypeError (Django ticket #37075, fixed for 6.1, where this backend can go:
`"check": check_idle` in the pool options then does the same).
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.core.exceptions import ImproperlyConfigured
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from django.dispatch import Signal
from psycopg_pool import ConnectionPool

# Sent when a COMMIT failed under changes waiting to be announced on commit: the
# connection broke under it, so it may have committed, and those announcements will never
# be sent (games/live/writers.py ends its writer's lease for it).
uncertain_commit = Signal()

_UNREAD = select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP


def speaks(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """Whether an idle connection's socket has something to read: its server is ending
    it (see the module docstring). No round trip."""
    poller = select.poll()  # not select.select: a busy server's descriptors pass 1024
    poller.register(conn.fileno(), _UNREAD)
    return bool(poller.poll(0))


def check_idle(conn: psycopg.Connection[Any]) -> None:
    """Raise unless `conn` looks usable; a round trip only if its socket has something
    to say (see the module docstring)."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the pooled connection is closed")
    if speaks(conn):
        ConnectionPool.check_connection(conn)


def outcome_unknown(exc: BaseException) -> bool:
    """Whether a statement or COMMIT that failed may still have taken effect: the link
    broke under it (no SQLSTATE, or a connection exception, class 08) or the server
    ended the session (57P01-57P05), rather than the server refusing it (a lock or
    statement timeout, a conflict, a constraint: then nothing of it took effect). A
    Django error is read through the driver's error it wraps."""
    err = exc if isinstance(exc, psycopg.Error) else exc.__cause__
    if not isinstance(err, psycopg.Error):
        return True
    state = err.sqlstate
    return state is None or state.startswith(("08", "57P"))


class DatabaseWrapper(base.DatabaseWrapper):
    def _commit(self) -> None:
        try:
            super()._commit()
        except (OperationalError, InterfaceError) as exc:
            if self.run_on_commit and outcome_unknown(exc):
                uncertain_commit.send(sender=type(self), alias=self.alias)
            raise

    @property
    def pool(self) -> ConnectionPool | None:
        """Django's pool (the same options and configuration), checked by `check_idle`
        when CONN_HEALTH_CHECKS is on."""
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not options or not self.settings_dict[
                "CONN_HEALTH_CHECKS"]:
            return super().pool
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # as Django: it sets its own mode later
            pool = ConnectionPool(kwargs=connect_kwargs, open=False,
                                  configure=self._configure_connection, check=check_idle,
                                  **({} if options is True else options))
            self._connection_pools.setdefault(self.alias, pool)  # first of racing threads
        return self._connection_pools[self.alias]  # type: ignore[no-any-return]
