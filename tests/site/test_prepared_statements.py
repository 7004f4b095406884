"""Parameters are bound server-side and hot statements are prepared on their connection
(settings.DATABASES, docs/operations.md "Prepared statements")."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from accounts.credentials import default_token, user_for_key
from accounts.models import User
from games.models import Game
from games.round_store import lock_row
from tests.conftest import recorded_games
from tests.games.helpers import play, started_game
from tests.settings_probe import run

PROBE = """
import json, django
django.setup()
from django.conf import settings
options = settings.DATABASES["default"]["OPTIONS"]
print(json.dumps([options.get("server_side_binding"), options.get("prepare_threshold")]))
"""


def _options(**env: str) -> list[object]:
    proc = run(["-c", PROBE], DATABASE_URL="postgres://postgres@db.example:5432/x", **env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_postgres_binds_on_the_server_and_prepares_after_five_runs() -> None:
    assert _options() == [True, 5]
    assert _options(DATABASE_PREPARE_THRESHOLD="2") == [True, 2]


def test_a_threshold_of_zero_never_prepares() -> None:
    assert _options(DATABASE_PREPARE_THRESHOLD="0") == [True, None]


def test_a_bad_threshold_is_a_loud_error() -> None:
    proc = run(["-c", PROBE], DATABASE_URL="postgres://postgres@db.example:5432/x",
               DATABASE_PREPARE_THRESHOLD="soon")
    assert proc.returncode != 0
    assert "DATABASE_PREPARE_THRESHOLD" in proc.stderr


@pytest.mark.django_db
def test_a_moves_guarded_write_is_prepared_on_its_connection(players: list[User]) -> None:
    """Eight moves on one connection (a test holds one): the guarded write ran more than
    the threshold's five times, so PostgreSQL holds it prepared, parameters and all."""
    game = started_game(players)
    play(game, players, recorded_games()[0]["actions"][:8])
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, parameter_types::text[] FROM pg_prepared_statements"
                       " WHERE NOT from_sql")
        prepared = cursor.fetchall()
    writes = [(sql, types) for sql, types in prepared if "WITH moved AS (UPDATE" in sql]
    assert writes, prepared
    sql, types = writes[0]
    assert "%s" not in sql and "$1" in sql  # bound on the server, not quoted in
    assert len(types) > 10


@pytest.mark.django_db
def test_prepared_reads_outlive_a_column_a_migration_adds(players: list[User]) -> None:
    """A deploy migrates while the old processes still serve: the hot reads (`SELECT *`
    of a game's row, of a token's user), prepared on their connections, still run once
    their table has a new column: PostgreSQL re-plans them by itself."""
    game = started_game(players)
    key = default_token(players[0])
    for _ in range(6):
        assert lock_row(game.pk) is not None
        assert user_for_key(key) == players[0]
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        prepared = [sql for (sql,) in cursor.fetchall()]
        assert any("FOR UPDATE" in sql for sql in prepared), prepared  # the game's row
        assert any("UNION ALL" in sql for sql in prepared), prepared  # a token's user
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # ALTER refuses pending checks
        for table in (Game._meta.db_table, User._meta.db_table):
            cursor.execute(f"ALTER TABLE {table} ADD COLUMN probe_added integer")
    found = lock_row(game.pk)
    assert found is not None and found[0].pk == game.pk
    assert user_for_key(key) == players[0]
