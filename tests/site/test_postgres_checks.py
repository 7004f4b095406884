"""The deploy check of PostgreSQL (bloqueio_site/postgres/checks.py): `check --deploy
--database default` warns when autovacuum is off, for the server or for a table."""

from __future__ import annotations

import pytest
from django.core import checks
from django.core.management import call_command
from django.db import connection

from bloqueio_site.postgres.checks import (
    W_SERVER,
    W_TABLES,
    autovacuum_warnings,
    check_autovacuum,
)


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


def test_without_a_database_asked_for_nothing_is_read() -> None:
    assert check_autovacuum(None) == []
    assert check_autovacuum([]) == []


def _server_autovacuum() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return bool(cursor.fetchone()[0] == "on")


def _ids() -> list[str]:
    return [w.id for w in check_autovacuum(["default"])]


def _set(table: str, value: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = {value})")


@pytest.mark.django_db
def test_the_check_reads_the_server_and_the_tables() -> None:
    """Against the real server: what it says of the server matches `SHOW autovacuum`
    (this machine's PostgreSQL runs with it off, production's with it on), and a table
    whose autovacuum is turned off, however it was spelt, is named, then no longer once
    reset (ALTER TABLE is transactional: the test's rollback undoes it anyway)."""
    assert (_ids().count(W_SERVER) == 1) == (not _server_autovacuum())
    assert W_TABLES not in _ids()
    for spelling in ("false", "off", "0", "no", "'OFF'"):
        _set("games_seat", spelling)
        [tables] = [w for w in check_autovacuum(["default"]) if w.id == W_TABLES]
        assert "games_seat" in tables.msg, spelling
    _set("games_seat", "on")
    assert W_TABLES not in _ids()
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_seat RESET (autovacuum_enabled)")
    assert W_TABLES not in _ids()


@pytest.mark.django_db
def test_a_schema_whose_name_needs_quotes_is_read() -> None:
    with connection.cursor() as cursor:
        cursor.execute('CREATE SCHEMA "Mixed Case"')
        cursor.execute('SET LOCAL search_path = "Mixed Case", public')
    assert W_TABLES not in _ids()  # its tables are its own, and it has none


@pytest.mark.django_db
def test_it_is_a_deploy_check_of_the_database(capsys: pytest.CaptureFixture[str]) -> None:
    _set("games_event", "off")
    call_command("check", databases=["default"])  # not without --deploy
    assert W_TABLES not in capsys.readouterr().err
    call_command("check", deploy=True, databases=["default"])
    assert W_TABLES in capsys.readouterr().err
    assert checks.registry.registry.tag_exists(checks.Tags.database, include_deployment_checks=True)
