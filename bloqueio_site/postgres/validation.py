"""The backend's own system checks (`manage.py check --database default`): PostgreSQL's
autovacuum must run, for the whole server and for every table of this database.

Why: without it no table is ever analysed, and the planner guesses. On a database that
had never been analysed, the read of a game's seats (every REST answer about a game and
every socket's `hello`) joined the whole users table by a sequential scan instead of
looking the four players up by key: 0.84 ms of PostgreSQL's time a read against 0.08 ms,
and growing with every sign-up (docs/performance.md, "Statistics"). Nothing in the
application notices, so the check says it, as Django's MySQL backend warns about a
missing strict mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core import checks
from django.db.backends.base.validation import BaseDatabaseValidation

W_SERVER = "bloqueio.postgres.W001"
W_TABLES = "bloqueio.postgres.W002"

_TABLES_OFF_SQL = """
    SELECT c.relname FROM pg_class c
    WHERE c.relkind IN ('r', 'm') AND c.relnamespace = current_schema()::regnamespace
      AND 'autovacuum_enabled=false' = ANY(c.reloptions)
    ORDER BY c.relname"""


def autovacuum_warnings(server_on: bool, tables_off: Sequence[str]) -> list[checks.Warning]:
    """What the check says for the server's `autovacuum` and the tables that turn it off."""
    found = []
    if not server_on:
        found.append(checks.Warning(
            "PostgreSQL's autovacuum is off: no table is analysed, so the planner "
            "guesses (a game's seats were read by scanning the whole users table).",
            hint="Set autovacuum = on (PostgreSQL's default) in postgresql.conf, or run "
                 "VACUUM (ANALYZE) regularly (docs/operations.md, PostgreSQL).",
            id=W_SERVER))
    if tables_off:
        found.append(checks.Warning(
            f"autovacuum is turned off for {', '.join(tables_off)}.",
            hint="ALTER TABLE ... RESET (autovacuum_enabled) (docs/operations.md, "
                 "PostgreSQL).",
            id=W_TABLES))
    return found


class DatabaseValidation(BaseDatabaseValidation):
    def check(self, **kwargs: Any) -> list[checks.CheckMessage]:
        issues = list(super().check(**kwargs))
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('autovacuum') = 'on'")
            server_on = bool(cursor.fetchone()[0])
            cursor.execute(_TABLES_OFF_SQL)
            tables_off = [name for (name,) in cursor.fetchall()]
        issues.extend(autovacuum_warnings(server_on, tables_off))
        return issues
