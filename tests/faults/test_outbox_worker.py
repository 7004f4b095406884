"""The outbox through the real background worker (`manage.py run_worker` processes on the
test database and Redis): a worker killed with SIGKILL in the middle of carrying out a
turn-based game's "game over" (held there by a table lock the test takes) leaves the row
to the next worker, which tells each player once; and a "your turn" written by a move
reaches a running worker by its wake-up (games/outbox.py)."""

from __future__ import annotations

import signal
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games import outbox
from games import services as games
from games.models import Outbox
from notifications.models import Kind, Notification
from tests.conftest import make_user
from tests.games.helpers import play, started_game
from tests.live.servers import worker
from tests.waiting import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DAYS = {"days": 2}
OPENING = [{"type": "move", "to": [7, 4]}]


def _raw() -> psycopg.Connection:
    """A connection of the test's own, outside Django's (its lock outlives a query)."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.Connection.connect(**params)


def _waiting_on(conn: psycopg.Connection, table: str) -> bool:
    """Some other session waits for a lock on `table` (the worker's insert)."""
    row = conn.execute(
        "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
        "WHERE NOT l.granted AND c.relname = %s", [table]).fetchone()
    return bool(row and row[0])


def test_a_worker_killed_mid_delivery_leaves_it_to_the_next_once(tmp_path: Path) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game([alice, bob], kind="quoridor", time_control=DAYS)
    games.resign(game_id=game.pk, user=bob)  # committed: its "game over" is a row
    [over] = Outbox.objects.filter(kind=outbox.GAME_OVER)
    assert over.done_at is None and not Notification.objects.exists()

    table = Notification._meta.db_table
    holder = _raw()
    holder.execute(f"LOCK TABLE {table} IN SHARE MODE")  # reads go on, writes wait
    with worker(tmp_path, "doomed") as doomed:
        wait_for(lambda: _waiting_on(holder, table), "the worker writing a notification")
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(30)
    holder.rollback()  # the dead worker's transaction goes with its connection
    holder.close()
    over.refresh_from_db()
    assert over.done_at is None and not Notification.objects.exists()  # nothing half-done

    with worker(tmp_path, "next"):
        wait_for(lambda: Outbox.objects.filter(pk=over.pk, done_at__isnull=False).exists(),
                 "the next worker to carry the row out")
        # A turn-based move while it runs: its "your turn" comes by the wake-up.
        other = started_game([bob, alice], kind="quoridor", time_control=DAYS)
        play(other, [bob, alice], OPENING)
        wait_for(lambda: Notification.objects.filter(user=alice, game=other,
                                                     kind=Kind.YOUR_TURN).exists(),
                 "alice's turn in the other game")
    over.refresh_from_db()
    assert over.attempts == 1 and over.last_error == ""  # the killed attempt left no trace
    assert sorted(Notification.objects.filter(game=game).values_list(
        "user__username", "kind")) == [("alice", "game_over"), ("bob", "game_over")]
    assert not Outbox.objects.filter(done_at__isnull=True).exists()
