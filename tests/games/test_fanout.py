"""games.live.fanout: one Redis PUBLISH per change, encoded once per process, and recovery
when the subscription to Redis is lost (real Redis servers throughout)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from games.live import broadcast, fanout, realtime
from tests.live.servers import PrivateRedis

GAME = fanout.game_topic(7)


class Recorder:
    """A listener that keeps the frames it would send and counts catch-up calls."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.reconnected = asyncio.Event()
        self.arrived = asyncio.Event()
        self.taken = 0

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        self.messages.append(message)
        if message["type"] == "game.events":
            self.texts.extend(frames.events())
        elif message["type"] == "presence":
            self.texts.append(frames.whole())
        self.arrived.set()

    async def hub_reconnected(self) -> None:
        self.reconnected.set()

    async def next(self) -> dict[str, Any]:
        """The next message not yet taken, waiting for it if need be."""
        while len(self.messages) <= self.taken:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 5)
        self.taken += 1
        return self.messages[self.taken - 1]


def events(*plies: int) -> dict[str, Any]:
    return {"type": "game.events", "v": 100 + plies[-1],
            "events": [{"ply": p, "seat": 0, "action": {"type": "move", "to": [p, 0]},
                        "at": "2026-01-01T00:00:00Z"} for p in plies],
            "game": {"id": 7, "ply": plies[-1], "state": {"turn": 1}}}


async def test_each_frame_is_encoded_once_per_process_and_shared():
    hub = fanout.Hub()
    first, second = Recorder(), Recorder()
    await hub.join(GAME, first)
    await hub.join(GAME, second)
    await hub.publish((GAME, events(1, 2)))
    assert len(first.texts) == 2
    assert all(a is b for a, b in zip(first.texts, second.texts, strict=True))
    frame = json.loads(first.texts[1])
    assert frame["type"] == "event" and frame["event"]["ply"] == 2
    assert frame["game"]["ply"] == 2 and "presence" in frame["game"]
    await hub.leave(GAME, first)
    await hub.leave(GAME, second)


async def test_other_processes_get_it_through_redis_and_the_sender_only_once():
    # Two hubs on one loop stand for two server processes (each has its own origin).
    here, there = fanout.Hub(), fanout.Hub()
    near, far = Recorder(), Recorder()
    await here.join(GAME, near)
    await there.join(GAME, far)
    await here.publish((GAME, events(1)), (fanout.user_topic(3), {"type": "notify"}))
    assert (await near.next())["events"][0]["ply"] == 1  # delivered locally at once
    assert (await far.next())["events"][0]["ply"] == 1
    await there.publish((GAME, events(2)))
    assert (await near.next())["events"][0]["ply"] == 2
    await here.publish((GAME, events(3)))
    assert (await far.next())["events"][0]["ply"] == 2  # its own, at once
    assert (await far.next())["events"][0]["ply"] == 3
    # Redis delivers one channel's messages in the order it took the PUBLISHes: an echo
    # of ply 1 would have reached `here` before ply 2, one of ply 2 `there` before ply 3.
    assert [m["events"][0]["ply"] for m in near.messages] == [1, 2, 3]
    assert [m["events"][0]["ply"] for m in far.messages] == [1, 2, 3]
    for hub, listener in ((here, near), (there, far)):
        await hub.leave(GAME, listener)


async def test_presence_bursts_are_coalesced_to_the_latest_snapshot():
    hub = fanout.Hub()
    listener = Recorder()
    await hub.join(GAME, listener)
    for count in range(1, 51):
        await hub.publish((GAME, {"type": "game.presence", "at": float(count),
                                  "presence": {"online": [True], "spectators": count}}))
    await asyncio.sleep(fanout.PRESENCE_EVERY * 3)
    sent = [json.loads(t)["presence"]["spectators"] for t in listener.texts]
    assert sent == [50]  # one frame for fifty arrivals, and it is the newest
    # An older snapshot arriving late never replaces a newer one.
    await hub.publish((GAME, {"type": "game.presence", "at": 0.5,
                              "presence": {"online": [False], "spectators": 0}}))
    await asyncio.sleep(fanout.PRESENCE_EVERY * 2)
    assert hub.presence_of(GAME) == {"online": [True], "spectators": 50}
    await hub.leave(GAME, listener)


@pytest.mark.slow
async def test_a_lost_subscription_comes_back_and_listeners_catch_up(settings, tmp_path):
    redis = PrivateRedis(tmp_path)
    redis.start()
    settings.REDIS_URL = redis.url
    try:
        here, there = fanout.Hub(), fanout.Hub()
        listener = Recorder()
        await there.join(GAME, listener)
        await here.publish((GAME, events(1)))
        assert (await listener.next())["events"][0]["ply"] == 1
        assert not listener.reconnected.is_set()
        redis.kill()
        await here.publish((GAME, events(2)))  # lost: nobody can hear it (logged)
        await asyncio.sleep(0.5)
        redis.start()
        # Back: the hub resubscribed by itself and told its listeners to catch up
        # (in a consumer that is a gap fill from the database).
        await asyncio.wait_for(listener.reconnected.wait(), 15)
        await here.publish((GAME, events(3)))
        assert (await listener.next())["events"][0]["ply"] == 3
        await there.leave(GAME, listener)
    finally:
        redis.kill()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
async def test_after_a_lost_subscription_the_listeners_of_other_topics_check_too(
        settings, tmp_path):
    """The audit knows only games' versions: with the database answering, the listeners
    of the lobby and of an app's topic (a tournament's) are told to check for themselves."""
    redis = PrivateRedis(tmp_path)
    redis.start()
    settings.REDIS_URL = redis.url
    try:
        there = fanout.Hub()
        listener = Recorder()
        await there.join(realtime.LOBBY_TOPIC, listener)
        redis.kill()
        await asyncio.sleep(0.5)
        redis.start()
        await asyncio.wait_for(listener.reconnected.wait(), 15)
        await there.leave(realtime.LOBBY_TOPIC, listener)
    finally:
        redis.kill()


class Socket(Recorder):
    """A listener that, like a game socket, knows the last ply it has."""

    def __init__(self, last_ply: int) -> None:
        super().__init__()
        self.last_ply = last_ply


@pytest.mark.django_db(transaction=True)
async def test_a_refill_reads_each_game_once_however_many_sockets_it_has(monkeypatch,
                                                                        settings):
    """After a lost notification (or a Redis reconnect) the hub catches a game's sockets
    up with ONE database read, not one per socket; each socket gets what it lacks."""
    from asgiref.sync import sync_to_async

    from games import selectors, services
    from tests.conftest import make_user
    from tests.ws_helpers import own_writers

    own_writers(settings)  # no other process's ended lease makes a catch-up of its own

    users = [await sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await sync_to_async(services.create_game)(user=users[0], kind="bloqueio2")
    await sync_to_async(services.join_game)(game_id=game.pk, user=users[1])
    topic = fanout.game_topic(game.pk)
    hub = fanout.Hub()
    sockets = [Socket(0) for _ in range(30)] + [Socket(1) for _ in range(10)]
    for socket in sockets:
        await hub.join(topic, socket)
    broadcast.unsubscribe(realtime.on_committed)  # both notifications are lost
    try:
        for ply, (user, to) in enumerate(((users[0], [2, 5]), (users[1], [8, 5]))):
            await sync_to_async(services.submit_action)(
                game_id=game.pk, user=user, action={"type": "move", "to": to}, ply=ply)
    finally:
        broadcast.subscribe(realtime.on_committed)
    reads: list[tuple[int, int]] = []
    real = selectors.events_and_game

    def counted(game_id: int, after: int) -> Any:
        reads.append((game_id, after))
        return real(game_id, after)

    monkeypatch.setattr(selectors, "events_and_game", counted)
    await hub._refill([topic])
    assert reads == [(game.pk, 0)]  # one read, from the furthest-behind socket's ply
    for socket in sockets:
        message = await socket.next()
        assert message["type"] == "game.refill"
        assert [e["ply"] for e in message["events"]] == [1, 2]
        assert message["game"]["ply"] == 2
    assert all(not s.reconnected.is_set() for s in sockets)
    for socket in sockets:
        await hub.leave(topic, socket)


@pytest.mark.django_db(transaction=True)
async def test_without_redis_events_another_process_commits_are_caught_up(settings):
    """`make run`'s embedded mode: the worker is another process and there is no Redis
    to hear it through; the hub's audit still brings its events to the sockets."""
    from asgiref.sync import sync_to_async

    from games import services
    from tests.conftest import make_user

    settings.REDIS_URL = ""
    users = [await sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await sync_to_async(services.create_game)(user=users[0], kind="bloqueio2")
    await sync_to_async(services.join_game)(game_id=game.pk, user=users[1])
    hub, topic = fanout.Hub(), fanout.game_topic(game.pk)
    socket = Socket(0)
    await hub.join(topic, socket)
    broadcast.unsubscribe(realtime.on_committed)  # committed elsewhere: nobody tells us
    try:
        await sync_to_async(services.resign)(game_id=game.pk, user=users[1])
    finally:
        broadcast.subscribe(realtime.on_committed)
    async with asyncio.timeout(fanout.AUDIT_SECONDS * 4):
        message = await socket.next()
    assert message["type"] == "game.refill" and message["events"][0]["ply"] == 1
    await hub.leave(topic, socket)
