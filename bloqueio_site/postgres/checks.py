"""A deploy check of PostgreSQL (`manage.py check --deploy --database default`):
autovacuum must run, for the whole server and for every table of this database.

Why: without it no table is ever analysed, and the planner guesses. On a database that
had never been analysed, the read of a game's seats (every REST answer about a game and
every socket's `hello`) joined the whole users table by a sequential scan instead of
looking the four players up by key: 0.84 ms of PostgreSQL's time a read against 0.08 ms,
and growing with every sign-up (docs/performance.md, "Statistics"). Nothing in the
application notices, so the check says it.

A deploy check, registered by the games app: `migrate` (which runs the database checks)
never waits for it or fails by it, and a database it cannot ask is a warning, not an
error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.core import checks
from django.db import DatabaseError, connections

W_SERVER = "bloqueio.postgres.W001"
W_TABLES = "bloqueio.postgres.W002"
W_UNKNOWN = "bloqueio.postgres.W003"

# PostgreSQL keeps a table's option as written (`autovacuum_enabled=off`, `=0`, `=no`...),
# each a valid boolean, so the value is cast rather than compared as text.
_TABLES_OFF_SQL = """
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'm') AND n.nspname = current_schema()
      AND EXISTS (SELECT 1 FROM unnest(c.reloptions) o
                  WHERE split_part(o, '=', 1) = 'autovacuum_enabled'
                    AND NOT split_part(o, '=', 2)::boolean)
    ORDER BY c.relname"""


def autovacuum_warnings(server_on: bool, tables_off: Sequence[str]) -> list[checks.Warning]:
    """What the check says for the server's `autovacuum` and the tables that turn it off."""
    found = []
    if not server_on:
        found.append(checks.Warning(
            "PostgreSQL's autovacuum is off: no table is analysed, so the planner "
            "guesses (a game's seats were read by scanning the whole users table).",
            hint="Set autovacuum = on (PostgreSQL's default) in postgresql.conf, or run "
                 "VACUUM (ANALYZE) regularly (docs/operations.md, \"Statistics\").",
            id=W_SERVER))
    if tables_off:
        found.append(checks.Warning(
            f"autovacuum is turned off for {', '.join(tables_off)}.",
            hint="ALTER TABLE ... RESET (autovacuum_enabled) (docs/operations.md, "
                 "\"Statistics\").",
            id=W_TABLES))
    return found


def check_autovacuum(databases: Iterable[str] | None = None, **kwargs: Any
                     ) -> list[checks.CheckMessage]:
    """The deploy check: each PostgreSQL database asked for (`--database`)."""
    found: list[checks.CheckMessage] = []
    for alias in databases or ():
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('autovacuum')::boolean")
                server_on = bool(cursor.fetchone()[0])
                cursor.execute(_TABLES_OFF_SQL)
                tables_off = [name for (name,) in cursor.fetchall()]
        except DatabaseError as exc:
            found.append(checks.Warning(f"could not check autovacuum on {alias!r}: {exc}",
                                        id=W_UNKNOWN))
            continue
        found.extend(autovacuum_warnings(server_on, tables_off))
    return found
