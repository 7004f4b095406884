"""The backend's system checks (bloqueio_site/postgres/validation.py): `check --database`
warns when PostgreSQL's autovacuum is off, for the server or for a table."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection

from bloqueio_site.postgres.validation import W_SERVER, W_TABLES, autovacuum_warnings


def test_nothing_is_said_when_autovacuum_runs() -> None:
    assert autovacuum_warnings(True, []) == []


def test_a_server_without_autovacuum_is_named() -> None:
    [warning] = autovacuum_warnings(False, [])
    assert warning.id == W_SERVER
    assert "autovacuum = on" in warning.hint


def test_the_tables_that_turn_it_off_are_named() -> None:
    [warning] = autovacuum_warnings(True, ["games_event", "games_seat"])
    assert warning.id == W_TABLES
    assert "games_event, games_seat" in warning.msg


def _server_autovacuum() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return bool(cursor.fetchone()[0] == "on")


@pytest.mark.django_db
def test_the_check_reads_the_server_and_the_tables() -> None:
    """Against the real server: what it says of the server matches `SHOW autovacuum`
    (this machine's PostgreSQL runs with it off, production's with it on), and a table
    whose autovacuum is turned off is named, then no longer once reset (ALTER TABLE is
    transactional: the test's rollback undoes it anyway)."""
    server_warned = [w.id for w in connection.validation.check()].count(W_SERVER) == 1
    assert server_warned == (not _server_autovacuum())
    assert W_TABLES not in [w.id for w in connection.validation.check()]

    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_seat SET (autovacuum_enabled = false)")
    [tables] = [w for w in connection.validation.check() if w.id == W_TABLES]
    assert "games_seat" in tables.msg

    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_seat RESET (autovacuum_enabled)")
    assert W_TABLES not in [w.id for w in connection.validation.check()]


@pytest.mark.django_db
def test_manage_py_check_with_the_database_runs_it(capsys: pytest.CaptureFixture[str]) -> None:
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_event SET (autovacuum_enabled = false)")
    call_command("check", databases=["default"])
    assert W_TABLES in capsys.readouterr().err
