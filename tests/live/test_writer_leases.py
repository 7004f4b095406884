"""Writers' leases (games/live/writers.py): each way a process may have lost an
announcement ends its lease, so that every process's sockets catch up from the database
(the hub's side, and a real kill -9: tests/games/test_consumers.py,
tests/faults/test_writer_killed_before_publish.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
import redis.asyncio as aioredis
from django.conf import settings
from django.db import DatabaseError, connection, transaction

from games import services
from games.announce import ToGame, send_on_commit
from games.live import fanout, writers
from games.models import Game
from tests.games.helpers import started_game
from tests.openings import MOVE0
from tests.waiting import await_for, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _taken() -> writers.Lease:
    writers.ensure()
    lease = writers.lease()
    assert lease is not None
    wait_for(lease.held.is_set, "the lease taken")
    return lease


async def _ends(writer: str) -> None:
    """Wait for `writer`'s lease to be listed as ended (every hub then catches up)."""
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        for _ in range(int((writers.LEASE_SECONDS + 5) / 0.1)):
            if writer in await writers.expired(client, writers.lease().key):
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"the lease of {writer} never ended")
    finally:
        await client.aclose()


async def test_a_live_writers_lease_never_ends():
    lease = await asyncio.to_thread(_taken)
    await asyncio.sleep(writers.LEASE_SECONDS + writers.RENEW_SECONDS)
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        assert lease.writer not in await writers.expired(client, lease.key)
    finally:
        await client.aclose()


async def test_a_failed_publish_ends_the_writers_lease_and_a_new_one_is_taken():
    """A PUBLISH that fails loses the change for the other processes' sockets: the
    writer drops its lease, which then ends like a dead writer's, and takes another."""
    lease = await asyncio.to_thread(_taken)
    before = lease.writer
    hub = fanout.hub()
    hub._publisher = aioredis.Redis.from_url("redis://127.0.0.1:1/0",
                                             socket_connect_timeout=0.5)
    try:
        await hub.publish((fanout.game_topic(10**9), {"type": "game.changed", "v": 1}))
        await await_for(lambda: lease.writer != before, "a new writer after the failure")
        await _ends(before)
        await await_for(lease.held.is_set, "the new lease taken")
    finally:
        await hub._publisher.aclose()
        hub._publisher = None


def _other_session(**options: Any) -> psycopg.Connection[Any]:
    """A session of its own on the test database, beside Django's."""
    db = connection.settings_dict
    return psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432,
                           user=db["USER"] or "postgres", dbname=db["NAME"], **options)


def _end_my_session() -> None:
    """PostgreSQL ends this thread's session, as a restart or a cut link would."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with _other_session(autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


def _commit_broken(*announcements: ToGame) -> None:
    """A transaction (announcing `announcements` on commit) whose session PostgreSQL
    ends before its COMMIT: the COMMIT fails."""
    with pytest.raises(DatabaseError), transaction.atomic():
        send_on_commit(*announcements)
        _end_my_session()


def test_a_commit_that_fails_under_announcements_ends_the_writers_lease():
    """The connection breaks under a COMMIT with announcements waiting: it may have
    committed, and they will never be sent. The writer's lease is dropped."""
    lease = _taken()
    before = lease.writer
    _commit_broken(ToGame(10**9, {"type": "game.chat"}))
    assert lease.writer != before
    asyncio.run(_ends(before))


def test_a_commit_that_fails_with_nothing_to_announce_keeps_the_lease():
    lease = _taken()
    before = lease.writer
    _commit_broken()
    assert lease.writer == before


def test_a_move_whose_statement_broke_under_way_ends_the_writers_lease(players):
    """A casual move is one statement in autocommit (games/round_store.py, `commit`): its
    connection broken under it, it may have committed, unannounced."""
    from django.utils import timezone

    from games import round_store
    from games.round import play as decide

    lease = _taken()
    game = started_game(players[:2], kind="bloqueio2")
    loaded = round_store.load(game.pk)
    progress = decide(loaded.round, 0, MOVE0, timezone.now())
    before = lease.writer
    _end_my_session()  # between the decision and its statement
    with pytest.raises(DatabaseError):
        round_store.commit(loaded, progress)
    connection.close()  # the broken one: the test's teardown needs a working one
    assert lease.writer != before


def test_a_move_refused_by_a_lock_timeout_keeps_the_lease(players):
    """A statement PostgreSQL refused (here: it waited out `lock_timeout` behind another
    session's lock) took no effect: nothing to catch up."""
    lease = _taken()
    game = started_game(players[:2], kind="bloqueio2")
    before = lease.writer
    with _other_session() as holder:
        holder.execute(f"SELECT id FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE",
                       [game.pk])
        with pytest.raises(DatabaseError, match="lock timeout"):
            services.submit_action(game_id=game.pk, user=players[0], action=MOVE0, ply=0)
    assert lease.writer == before
