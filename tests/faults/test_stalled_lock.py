"""A stalled process holding a game's row lock costs that game seconds, never the site.

Issue #25: a process stopped (SIGSTOP) in the middle of a move leaves its session "idle
in transaction" holding the game row's `FOR UPDATE` lock. Requests on that game used to
wait for it with a pooled connection each, until the pool ran dry and even an unrelated
GET and /healthz answered 503. Now PostgreSQL bounds them (settings, DATABASES OPTIONS):
a waiter gives up after `lock_timeout` (503 `unavailable` with Retry-After), and the
server ends the stalled session after `idle_in_transaction_session_timeout`, releasing
the lock. The stalled holder here is a session opened with the application's own
connection options, which takes the lock and then sits idle, as the stopped process did.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from accounts.models import User
from games.models import Game
from tests.conftest import client_for
from tests.games.helpers import at_once, started_game
from tests.settings_probe import run

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MOVE = {"type": "move", "to": [2, 5]}  # seat 0's first step in bloqueio2


def test_application_sessions_carry_the_three_timeouts():
    with connection.cursor() as cursor:
        shown = {}
        for name in ("lock_timeout", "statement_timeout",
                     "idle_in_transaction_session_timeout"):
            cursor.execute(f"SHOW {name}")
            shown[name] = cursor.fetchone()[0]
    assert shown == {"lock_timeout": "3s", "statement_timeout": "15s",
                     "idle_in_transaction_session_timeout": "10s"}


@pytest.fixture
def stalled() -> Iterator[Any]:
    """A holder of the lock: `stalled(game_id)` opens an application session (same
    options), locks the game's row and leaves the transaction open, idle. With
    `ended=False` the server does not end it after its idle timeout (10 s): twelve
    waiters queue behind one another for the row (each up to its 3 s lock timeout,
    9 s in all here), and on a busy machine the last of them outlived the holder and
    made its move."""
    held: list[psycopg.Connection[Any]] = []
    params = connection.settings_dict

    def hold(game_id: int, ended: bool = True) -> psycopg.Connection[Any]:
        conn = psycopg.connect(
            dbname=params["NAME"], user=params["USER"], host=params["HOST"],
            port=params["PORT"] or 5432, password=params["PASSWORD"] or None,
            options=params["OPTIONS"].get("options", ""))
        if not ended:
            conn.execute("SET idle_in_transaction_session_timeout = 0")
            conn.commit()
        conn.execute(f"SELECT id FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE",
                     [game_id])
        held.append(conn)
        return conn

    yield hold
    for conn in held:
        conn.close()


def _move(user: User, game: Game) -> Any:
    return client_for(user).post(f"/api/games/{game.pk}/actions/",
                                 {"action": MOVE, "ply": 0}, format="json")


def test_moves_on_a_stalled_game_are_refused_and_the_site_keeps_answering(
        alice, bob, carol, dave, stalled):
    game = started_game([alice, bob], kind="bloqueio2")
    other = started_game([carol, dave], kind="bloqueio2")
    stalled(game.pk, ended=False)  # the server's own end of it: the next test

    # Twelve moves at once on the stalled game (more than the pool holds): each is
    # refused with 503 `unavailable` and Retry-After once it waited its lock_timeout,
    # none hangs and none is a 500.
    answers: list[Any] = []
    at_once(lambda: answers.append(_move(alice, game)), 12)
    assert len(answers) == 12
    assert {(r.status_code, r.json()["code"]) for r in answers} == {(503, "unavailable")}
    assert all(r["Retry-After"] for r in answers)

    # Nothing else waited on that lock: reading the stalled game, another game's move,
    # and the health check all answer.
    assert client_for(None).get(f"/api/games/{game.pk}/").status_code == 200
    assert _move(carol, other).status_code == 201
    assert client_for(None).get("/healthz").status_code == 200
    game.refresh_from_db()
    assert game.ply == 0


def test_the_server_ends_a_stalled_session_and_the_game_plays_on(alice, bob, stalled):
    game = started_game([alice, bob], kind="bloqueio2")
    holder = stalled(game.pk)
    assert _move(alice, game).status_code == 503
    # idle_in_transaction_session_timeout (10 s) ends the holder's session: wait for
    # the server to close it (a bound for a stuck test, not a measurement).
    # Watched from another session: a statement on the holder would make it busy again.
    pid = holder.info.backend_pid
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone()[0] == 0:
                break
        time.sleep(1)
    else:
        pytest.fail("the stalled session was never ended")
    response = _move(alice, game)
    assert response.status_code == 201, response.content
    assert response.json()["game"]["ply"] == 1


@pytest.mark.parametrize(("command", "statement", "idle"), [
    ("run_worker", 15000, 10000), ("migrate", 0, 0), ("rebuild_games", 0, 0)])
def test_long_maintenance_commands_keep_only_the_lock_timeout(command, statement, idle):
    probe = (f"import sys; sys.argv = ['manage.py', {command!r}]; import django; django.setup(); "
             "from django.conf import settings; "
             "print(settings.DATABASES['default']['OPTIONS']['options'])")
    done = run(["-c", probe], DATABASE_URL="postgres://postgres@db.example:5432/bloqueio")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "-c", "lock_timeout=3000", "-c", f"statement_timeout={statement}",
        "-c", f"idle_in_transaction_session_timeout={idle}"]
