"""The version's doorbell (games/live/doorbell.py): every committed change of a game
reaches its sockets without any periodic read of the database, whatever became of its
PUBLISH; nothing rings for a change rolled back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import F

from games import services
from games.live import broadcast, doorbell, fanout, realtime
from games.models import Game
from tests.conftest import make_user
from tests.ws_helpers import game_socket, receive_type, seat_four

pytestmark = pytest.mark.django_db(transaction=True)

MOVE0 = {"type": "move", "to": [2, 5]}


@contextmanager
def lost_notices() -> Iterator[None]:
    """Commits inside publish no message, as if their writer died before its PUBLISH."""
    broadcast.unsubscribe(realtime.on_committed)
    try:
        yield
    finally:
        broadcast.subscribe(realtime.on_committed)


async def until(condition: Callable[[], Any], seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not condition():  # noqa: ASYNC110 (a counter of the doorbell's; no event)
            await asyncio.sleep(0.02)


def _version(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


def _play_unrung(game_id: int, user: Any) -> None:
    """The opening move, committed with triggers off on this session (no NOTIFY: as if
    it committed while the hub's LISTEN was down) and no message."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    try:
        with lost_notices():
            services.submit_action(game_id=game_id, user=user, action=MOVE0, ply=0)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = DEFAULT")


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


async def test_a_change_with_no_message_reaches_the_sockets_by_its_ring():
    """Its writer's PUBLISH never happened: the ring of its own commit brings it, and
    the hub has no periodic audit running."""
    gid, users = await seat_four()
    comm = await game_socket(gid)
    hub = fanout.hub()
    with lost_notices():
        await sync_to_async(services.submit_action)(game_id=gid, user=users[0],
                                                    action=MOVE0, ply=0)
    frame = await receive_type(comm, "event")
    assert frame["event"]["ply"] == 1 and frame["v"] == await sync_to_async(_version)(gid)
    assert hub._auditor is None
    await comm.disconnect()


async def test_a_killed_listener_reconnects_and_catches_up():
    """A change committed while nobody LISTENs rings nowhere: the doorbell's connection,
    ended by the server, comes back and reads it once. A socket that opened after the
    change (its hello has it) hides nothing from the older one."""
    gid, users = await seat_four()
    older = await game_socket(gid)
    hub = fanout.hub()
    bell = hub._doorbell
    assert bell is not None
    await until(lambda: bell.connections == 1)  # listening, and its first catch-up done
    await sync_to_async(_play_unrung)(gid, users[0])
    newer = await game_socket(gid)  # its hello is at the new version
    killed = bell.backend_pid
    await sync_to_async(_terminate)(killed)
    frame = await receive_type(older, "event")
    assert frame["event"]["ply"] == 1 and frame["v"] == await sync_to_async(_version)(gid)
    assert bell.connections == 2 and bell.backend_pid != killed
    await older.disconnect()
    await newer.disconnect()


def test_only_a_committed_version_rings():
    """A rolled-back change rings nothing, nor does an update that keeps the version
    (the ratings added to a result); a committed change rings once, with its version."""
    alice, bob = make_user("alice"), make_user("bob")
    undone = services.create_game(user=alice, kind="bloqueio2")
    kept = services.create_game(user=bob, kind="bloqueio2")
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(autocommit=True, **params) as listener:
        listener.execute(f"LISTEN {doorbell.CHANNEL}")
        with pytest.raises(RuntimeError), transaction.atomic():
            Game.objects.filter(pk=undone.pk).update(version=F("version") + 1)
            raise RuntimeError("rolled back")
        Game.objects.filter(pk=undone.pk).update(ranked=False)
        Game.objects.filter(pk=kept.pk).update(version=F("version") + 1)
        heard = []
        for note in listener.notifies(timeout=30):
            heard.append(note.payload)
            if note.payload.startswith(f"{kept.pk} "):
                break
    assert heard == [f"{kept.pk} {kept.version + 1}"]


def _tamper(game_id: int) -> None:
    Game.objects.filter(pk=game_id).update(status="finished")  # the version kept: no ring


async def test_a_repair_by_rebuild_games_reaches_the_sockets():
    """`rebuild_games` announces nothing: its repair (one version on) rings, and the
    sockets get the repaired game."""
    gid, _ = await seat_four()
    comm = await game_socket(gid)
    await sync_to_async(_tamper)(gid)
    await sync_to_async(call_command)("rebuild_games", game=[gid], verbosity=0)
    frame = await receive_type(comm, "events")
    assert frame["events"] == [] and frame["game"]["status"] == "active"
    assert frame["v"] == await sync_to_async(_version)(gid)
    await comm.disconnect()


async def test_topics_that_are_not_games_need_no_doorbell():
    """A hub whose sockets watch no game (a tournament's, a user's) keeps no LISTEN."""
    hub = fanout.Hub()

    class Quiet:
        async def hub_message(self, message: dict[str, Any], frames: Any) -> None: ...

        async def hub_reconnected(self) -> None: ...

    listener = Quiet()
    await hub.join("tournament:1", listener)
    assert hub._doorbell is not None and hub._doorbell._task is None
    assert hub._auditor is None
    await hub.leave("tournament:1", listener)


async def test_a_ring_whose_message_came_reads_nothing(monkeypatch):
    """The usual case: every move rings and its message arrives too; once the rings'
    grace is over, the hub has read nothing (the audit it replaces read every 2 s)."""
    from games import selectors

    gid, users = await seat_four()
    comm = await game_socket(gid)
    hub, topic = fanout.hub(), fanout.game_topic(gid)
    bell = hub._doorbell
    assert bell is not None
    await until(lambda: bell.connections == 1)
    heard = bell.rings
    reads: list[int] = []
    real = selectors.events_and_game

    def counted(game_id: int, after: int) -> Any:
        reads.append(game_id)
        return real(game_id, after)

    monkeypatch.setattr(selectors, "events_and_game", counted)
    for ply, to in enumerate(([2, 5], [5, 8])):
        await sync_to_async(services.submit_action)(
            game_id=gid, user=users[ply], action={"type": "move", "to": to}, ply=ply)
        assert (await receive_type(comm, "event"))["event"]["ply"] == ply + 1
    await until(lambda: bell.rings == heard + 2)  # both moves rang here
    await until(lambda: topic not in hub._rung)  # and were answered (or never waited)
    assert reads == []
    await comm.disconnect()
