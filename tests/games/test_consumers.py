"""The game WebSocket: every message type, permissions, malformed frames, ordering."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator

from bloqueio_site.asgi import application
from games import selectors, services
from games.live import broadcast, fanout, realtime, writers
from games.live.consumers import BaseConsumer
from games.live.frames import CLOSE_UNAVAILABLE, MAX_FRAME_BYTES, RATE_BURST
from games.live.game_socket import SYNC_BURST
from tests.conftest import client_for, make_user
from tests.live.servers import PrivateRedis
from tests.openings import MOVE0, MOVE1
from tests.waiting import wait_for
from tests.ws_helpers import (
    LOCAL,
    game_socket,
    never_refill,
    own_writers,
    receive_type,
    seat_four,
    until_closed,
    version_reads,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def play(gid: int, users: list[Any], ply: int) -> None:
    """Seat `ply` plays its opening move (MOVE0, then MOVE1) through the services."""
    await sync_to_async(services.submit_action)(game_id=gid, user=users[ply],
                                                action=(MOVE0, MOVE1)[ply], ply=ply)


@contextmanager
def lost_notices() -> Iterator[None]:
    """Commits inside publish no notice, as if Redis had lost them."""
    broadcast.unsubscribe(realtime.on_committed)
    try:
        yield
    finally:
        broadcast.subscribe(realtime.on_committed)


async def _version(game_id: int) -> int:
    """The game's version as the database has it."""
    return (await sync_to_async(selectors.get_game)(game_id)).version


def _headers(user: Any | None) -> list[tuple[bytes, bytes]]:
    if user is None:
        return LOCAL
    return [*LOCAL, (b"authorization", f"Token {user.auth_token.key}".encode())]


async def connect(path: str, user: Any | None = None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=_headers(user))
    connected, _ = await comm.connect()
    assert connected
    return comm


@pytest.fixture
def no_refill(monkeypatch: pytest.MonkeyPatch) -> None:
    never_refill(monkeypatch)


@pytest.fixture
async def four():
    return await seat_four()


async def test_hello_for_players_and_spectators(four):
    gid, users = four
    player = await connect(f"/ws/games/{gid}/", users[2])
    hello = await player.receive_json_from()
    assert hello["type"] == "hello"
    assert hello["you"] == {"seat": 2}
    assert hello["game"]["status"] == "active"
    assert hello["game"]["presence"]["online"][2] is True
    spectator = await connect(f"/ws/games/{gid}/")
    hello = await spectator.receive_json_from()
    assert hello["you"] == {"seat": None}
    assert hello["game"]["presence"] == {"online": [False, False, True, False], "spectators": 1,
                                         "away": [None] * 4}
    await player.disconnect()
    # Presence is eventually consistent (racing snapshots): the disconnect must show up
    # in a presence frame within the receive timeout.
    while (await receive_type(spectator, "presence"))["presence"]["online"][2]:
        pass
    await spectator.disconnect()


async def test_action_is_acked_and_broadcast_in_order(four):
    gid, users = four
    alice = await connect(f"/ws/games/{gid}/", users[0])
    bob = await connect(f"/ws/games/{gid}/", users[1])
    spectator = await connect(f"/ws/games/{gid}/")
    for comm in (alice, bob, spectator):
        await receive_type(comm, "hello")
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": "r1"})
    assert await receive_type(alice, "ack") == {"type": "ack", "ref": "r1", "ply": 1}
    await bob.send_json_to({"type": "action", "action": MOVE1, "ply": 1, "ref": 7})
    assert (await receive_type(bob, "ack"))["ref"] == 7
    for comm in (alice, bob, spectator):
        first = await receive_type(comm, "event")
        second = await receive_type(comm, "event")
        assert [first["event"]["ply"], second["event"]["ply"]] == [1, 2]
        assert first["event"]["action"] == MOVE0 and first["event"]["seat"] == 0
        assert second["game"]["ply"] == 2
        await comm.disconnect()


async def test_rest_action_reaches_websocket_spectators(four):
    gid, users = four
    spectator = await game_socket(gid)
    response = await sync_to_async(client_for(users[0]).post)(
        f"/api/games/{gid}/actions/", {"action": MOVE0, "ply": 0}, format="json")
    assert response.status_code == 201
    frame = await receive_type(spectator, "event")
    assert frame["event"]["action"] == MOVE0
    assert frame["game"]["state"]["pawns"][0] == [2, 5]
    await spectator.disconnect()


async def test_sync_returns_what_was_missed(four):
    gid, users = four
    for ply in range(2):
        await play(gid, users, ply)
    comm = await game_socket(gid)
    await comm.send_json_to({"type": "sync", "after": 1})
    frame = await receive_type(comm, "events")
    assert [e["ply"] for e in frame["events"]] == [2]
    assert frame["game"]["ply"] == 2
    await comm.send_json_to({"type": "sync", "after": "x"})
    assert (await receive_type(comm, "error"))["code"] == "invalid"
    await comm.disconnect()


async def test_a_lost_notification_is_filled_from_the_database(four):
    gid, users = four
    comm = await game_socket(gid)
    with lost_notices():  # the first event's notice gets "lost"
        await play(gid, users, 0)
    await play(gid, users, 1)
    plies = [(await receive_type(comm, "event"))["event"]["ply"] for _ in range(2)]
    assert plies == [1, 2]
    await comm.disconnect()


async def test_the_last_lost_notification_is_filled_when_the_fanout_recovers(four):
    """No next event to reveal the gap: a resubscribed fan-out (after Redis came back)
    and a heartbeat that knows of a newer ply both make the socket catch up."""
    gid, users = four
    comm = await game_socket(gid)
    hub = fanout.hub()
    with lost_notices():
        await play(gid, users, 0)
        await hub._catch_up_all()  # what the reader does after resubscribing
        assert (await receive_type(comm, "event"))["event"]["ply"] == 1
        await play(gid, users, 1)
    consumer = next(iter(hub.listeners[fanout.game_topic(gid)]))
    hub.latest_v[fanout.game_topic(gid)] = consumer.v + 1  # announced, but that message was lost
    await consumer.on_heartbeat()
    frame = await receive_type(comm, "event")
    assert frame["event"]["ply"] == 2 and frame["game"]["ply"] == 2
    await comm.disconnect()


def _a_writer_that_dies(life: float) -> str:
    """A writer's lease (games/live/writers.py) that is never renewed: a process that took
    it, wrote, and was killed. Ends `life` seconds from now."""
    import redis
    from django.conf import settings

    writer = f"killed-{time.monotonic_ns()}"
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:  # taken as every writer takes it, for `life` seconds, and never renewed
        client.eval(writers._RENEW, 1, writers.key(), writer, life)
    finally:
        client.close()
    return writer


async def test_a_notification_that_died_with_its_writer_is_caught_up_when_its_lease_ends(
        monkeypatch, settings):
    """The writer's process was killed between its commit and its PUBLISH: no message,
    no gap to see, no reconnect. Its lease ends, and the hub catches up from the
    database then, and only then: while every writer lives it reads nothing."""
    own_writers(settings)  # before anything makes this loop's hub
    gid, users = await seat_four()
    reads = version_reads(monkeypatch)
    comm = await game_socket(gid)
    with lost_notices():
        await play(gid, users, 0)
    await asyncio.sleep(fanout.WATCH_SECONDS * 3)  # three looks at the leases
    assert reads == []  # no audit on a timer: the lost change is still unseen
    while not await comm.receive_nothing(timeout=0.1):
        assert (await comm.receive_json_from())["type"] != "event"
    _a_writer_that_dies(0.2)
    async with asyncio.timeout(30):  # a deadline: it comes within a second or two
        while (frame := await comm.receive_json_from(timeout=60))["type"] != "event":
            pass
    assert frame["event"]["ply"] == 1 and frame["game"]["ply"] == 1
    assert reads == [[gid]]  # one read of the versions, for the one ended lease
    await asyncio.sleep(fanout.WATCH_SECONDS * 2)
    assert reads == [[gid]]  # an ended lease is caught up after once
    await comm.disconnect()


async def test_a_repaired_projection_reaches_the_games_sockets(four):
    """`rebuild_games` moves a drifted game's version on: announced like any change
    (`game`, change "repaired", the new `v`), so its sockets show the repaired game
    without any audit of versions."""
    from django.core.management import call_command

    from games.models import Game

    gid, users = four
    await play(gid, users, 0)
    comm = await game_socket(gid)
    good = await sync_to_async(lambda: Game.objects.get(pk=gid).state)()
    await sync_to_async(lambda: Game.objects.filter(pk=gid).update(
        state=dict(good, pawns=[[1, 5], [5, 9], [9, 5], [5, 1]])))()
    await sync_to_async(call_command)("rebuild_games")
    frame = await receive_type(comm, "game")
    assert frame["change"] == "repaired" and frame["v"] == await _version(gid)
    assert frame["game"]["state"] == good
    await comm.disconnect()


async def test_the_audit_waits_out_a_notification_still_on_its_way(four):
    """After every commit the database is ahead of the messages for a moment: an audit
    that sees it only notes it, and the next one acts only if the message never came."""
    gid, users = four
    comm = await game_socket(gid)
    hub, topic = fanout.hub(), fanout.game_topic(gid)
    hub._auditor.cancel()  # this test runs the audits itself
    with lost_notices():
        await play(gid, users, 0)
        assert await hub.audit(confirm=True) == []  # ahead once: noted
        first = await _version(gid)
        await hub._refill([topic])  # its message arrived after all
        assert (await receive_type(comm, "event"))["v"] == first
        assert await hub.audit(confirm=True) == []
        await play(gid, users, 1)
        assert await hub.audit(confirm=True) == []  # ahead once: noted
        assert hub.latest_v[topic] == first
        assert await hub.audit(confirm=True) == [topic]  # still missing: lost
        assert hub.latest_v[topic] == first + 1
        assert await hub.audit(confirm=True) == []
    await comm.disconnect()


async def test_a_socket_opened_after_a_loss_does_not_hide_it_from_the_audit(four):
    """The audit compares the database with the versions the sockets have had (the
    oldest), not with the highest any hello read: a socket that opens after a lost
    change has it in its hello, and the older socket still gets it at the next audits."""
    gid, users = four
    older = await game_socket(gid)
    hub, topic = fanout.hub(), fanout.game_topic(gid)
    hub._auditor.cancel()  # this test runs the audits itself
    with lost_notices():
        await play(gid, users, 0)
    newer = await game_socket(gid)  # its hello is at the new version
    assert hub.latest_v[topic] == await _version(gid)
    assert await hub.audit(confirm=True) == []  # ahead once: noted
    assert await hub.audit(confirm=True) == [topic]  # still behind: lost
    await newer.disconnect()
    await older.disconnect()


async def test_an_event_committed_while_a_sync_is_read_follows_its_answer(four, monkeypatch):
    """The sync's read misses a move committed right after it; that move's live event
    must come after the answer (a client still behind drops an event that leaves a gap,
    and would then never get it), not before."""
    gid, users = four
    comm = await game_socket(gid)
    read = selectors.events_and_game

    consumer = next(iter(fanout.hub().listeners[fanout.game_topic(gid)]))

    def stale_read(game_id: int, after: int, v: int | None = None) -> Any:
        found = read(game_id, after, v)  # the game at ply 0
        services.submit_action(game_id=gid, user=users[0], action=MOVE0, ply=0)
        # Its live event reaches the socket while this read still runs: held behind it.
        wait_for(lambda: any(m["type"] == "game.events" for m, _ in consumer.held),
                 "the live event, held behind the sync's answer")
        return found

    monkeypatch.setattr(selectors, "events_and_game", stale_read)
    await comm.send_json_to({"type": "sync", "after": 0})
    frames = []
    while len(frames) < 2:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] in ("events", "event"):
            frames.append(frame)
    assert [f["type"] for f in frames] == ["events", "event"]
    assert (frames[0]["events"], frames[0]["game"]["ply"]) == ([], 0)
    assert frames[1]["event"]["ply"] == 1
    await comm.disconnect()


async def test_spectators_are_read_only(four):
    gid, _ = four
    outsider = await sync_to_async(make_user)("eve")
    for user in (None, outsider):
        comm = await game_socket(gid, user)
        for frame in ({"type": "action", "action": MOVE0, "ply": 0, "ref": "x"},
                      {"type": "resign", "ref": "y"}):
            await comm.send_json_to(frame)
            error = await receive_type(comm, "error")
            assert (error["code"], error["ref"]) == ("read_only", frame["ref"])
        await comm.send_json_to({"type": "ping"})
        assert await receive_type(comm, "pong") == {"type": "pong"}
        await comm.disconnect()


async def test_refusals_carry_codes_and_refs(four):
    gid, users = four
    bob = await connect(f"/ws/games/{gid}/", users[1])
    alice = await connect(f"/ws/games/{gid}/", users[0])
    await receive_type(bob, "hello")
    await receive_type(alice, "hello")
    cases = [
        (bob, {"type": "action", "action": MOVE0, "ply": 0, "ref": "a"}, "not_your_turn"),
        (alice, {"type": "action", "action": MOVE0, "ply": 3, "ref": "b"}, "stale_ply"),
        (alice, {"type": "action", "action": {"type": "move", "to": [6, 5]}, "ply": 0,
                 "ref": "c"}, "illegal_action"),
        (alice, {"type": "action", "action": {"type": "fly"}, "ply": 0, "ref": "d"},
         "illegal_action"),
        (alice, {"type": "action", "action": MOVE0, "ply": "0", "ref": "e"}, "invalid"),
        (alice, {"type": "action", "action": [1], "ply": 0, "ref": "f"}, "invalid"),
    ]
    for comm, frame, code in cases:
        await comm.send_json_to(frame)
        error = await receive_type(comm, "error")
        assert (error["code"], error["ref"]) == (code, frame["ref"]), error
        assert error["detail"]
    await alice.send_json_to({"type": "resign", "ref": "z"})
    assert (await receive_type(alice, "ack"))["ref"] == "z"
    assert (await receive_type(bob, "event"))["event"]["action"] == {"type": "resign"}
    assert (await receive_type(alice, "event"))["event"]["seat"] == 0
    await alice.send_json_to({"type": "resign", "ref": "zz"})
    assert (await receive_type(alice, "error"))["code"] == "already_left"
    await alice.disconnect()
    await bob.disconnect()


@pytest.mark.parametrize(("raw", "code"), [
    ("{not json", "invalid_json"),
    ("[1, 2]", "invalid_frame"),
    ('{"no": "type"}', "invalid_frame"),
    ('{"type": 5}', "invalid_frame"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "sync", "after": NaN}', "invalid_json"),
    ("[" * 8_000 + "]" * 8_000, "invalid_json"),
    (json.dumps({"type": "sync", "pad": "x" * MAX_FRAME_BYTES}), "too_large"),
])
async def test_malformed_frames_get_errors_and_the_socket_survives(four, raw, code):
    gid, _ = four
    comm = await game_socket(gid)
    await comm.send_to(text_data=raw)
    assert (await receive_type(comm, "error"))["code"] == code
    await comm.send_json_to({"type": "ping"})
    assert await receive_type(comm, "pong") == {"type": "pong"}
    await comm.disconnect()


async def test_binary_frames_are_refused(four):
    gid, _ = four
    comm = await game_socket(gid)
    await comm.send_to(bytes_data=b"\x00\x01")
    assert (await receive_type(comm, "error"))["code"] == "invalid_frame"
    await comm.disconnect()


async def test_floods_are_rate_limited(four, no_refill):
    """Frames are handled in order: the burst's pongs, then silence but for a refusal at
    the first frame over and at every 50th (so the 90th frame's is the last answer)."""
    gid, _ = four
    comm = await game_socket(gid)
    for _ in range(90):
        await comm.send_json_to({"type": "ping"})
    frames = [await comm.receive_json_from(timeout=5) for _ in range(int(RATE_BURST) + 2)]
    answers = [f["type"] if f["type"] == "pong" else f.get("code") for f in frames]
    assert answers == ["pong"] * int(RATE_BURST) + ["rate_limited"] * 2
    await comm.disconnect()


async def test_bad_token_and_unknown_game_are_closed_with_codes(four):
    gid, _ = four
    # A NUL byte is text PostgreSQL refuses: still a plain refusal, never a crash.
    for token in (b"Token nope", b"Token a\x00b", b"Token " + b"k" * 500):
        headers = [*LOCAL, (b"authorization", token)]
        comm = WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=headers)
        await comm.connect()
        assert (await comm.receive_json_from())["code"] == "authentication_failed"
        assert (await comm.receive_output())["code"] == 4401
    comm = WebsocketCommunicator(application, "/ws/games/999999/", headers=LOCAL)
    await comm.connect()
    assert (await comm.receive_json_from())["code"] == "not_found"
    assert (await comm.receive_output())["code"] == 4404


async def test_server_heartbeat_and_idle_close(four, monkeypatch):
    gid, _ = four
    monkeypatch.setattr(BaseConsumer, "heartbeat_seconds", 0.2)
    monkeypatch.setattr(BaseConsumer, "idle_seconds", 0.5)
    comm = await game_socket(gid)
    assert (await receive_type(comm, "ping"))["type"] == "ping"
    # Stay silent: the server closes the half-open connection.
    assert (await until_closed(comm, wait=3))[1] == 4408


async def test_lobby_sees_games_come_and_go(alice, bob):
    lobby = await connect("/ws/lobby/")
    assert (await lobby.receive_json_from())["type"] == "hello"
    game = await sync_to_async(services.create_game)(user=alice, kind="quoridor")
    frame = await receive_type(lobby, "lobby")
    assert (frame["change"], frame["game"]["id"]) == ("created", game.pk)
    assert "state" not in frame["game"]
    await sync_to_async(services.join_game)(game_id=game.pk, user=bob)
    assert (await receive_type(lobby, "lobby"))["change"] == "started"
    await sync_to_async(services.resign)(game_id=game.pk, user=bob)
    frame = await receive_type(lobby, "lobby")
    assert (frame["change"], frame["game"]["result"]["winner"]) == ("finished", 0)
    again = await connect("/ws/lobby/")
    assert (await again.receive_json_from())["games"] == []  # nothing open or live now
    await lobby.disconnect()
    await again.disconnect()


async def test_personal_notifications(alice, bob):
    anon = WebsocketCommunicator(application, "/ws/me/", headers=LOCAL)
    await anon.connect()
    assert (await anon.receive_json_from())["code"] == "not_authenticated"
    me_a, me_b = await connect("/ws/me/", alice), await connect("/ws/me/", bob)
    assert (await me_a.receive_json_from())["you"] == {"username": "alice"}
    await me_b.receive_json_from()
    game = await sync_to_async(services.create_game)(user=alice, kind="quoridor")
    await sync_to_async(services.join_game)(game_id=game.pk, user=bob)
    for comm in (me_a, me_b):
        frame = await receive_type(comm, "notify")
        assert (frame["event"], frame["game_id"]) == ("game_started", game.pk)
    await sync_to_async(services.submit_action)(
        game_id=game.pk, user=alice, action={"type": "move", "to": [7, 4]}, ply=0)
    assert (await receive_type(me_b, "notify"))["event"] == "your_turn"
    await sync_to_async(services.resign)(game_id=game.pk, user=bob)
    assert (await receive_type(me_a, "notify"))["event"] == "game_over"
    await me_a.disconnect()
    await me_b.disconnect()


async def test_rest_detail_carries_presence(four):
    gid, users = four
    comm = await game_socket(gid, users[1])
    body = (await sync_to_async(client_for(None).get)(f"/api/games/{gid}/")).json()
    assert body["presence"] == {"online": [False, True, False, False], "spectators": 0,
                                "away": [None] * 4}
    await comm.disconnect()


@pytest.mark.parametrize(("frame", "code"), [
    ({"type": 42, "ref": "x"}, "invalid_frame"),
    ({"type": None, "ref": 7}, "invalid_frame"),
    ({"type": "dance", "ref": "y"}, "unknown_type"),
    ({"type": "sync", "after": -1, "ref": "z"}, "invalid"),
    ({"type": "sync", "ref": "big", "pad": "x" * MAX_FRAME_BYTES}, "too_large"),
])
async def test_an_error_echoes_the_ref_of_any_object_frame(four, frame, code):
    gid, _ = four
    comm = await game_socket(gid)
    await comm.send_json_to(frame)
    error = await receive_type(comm, "error")
    assert (error["code"], error["ref"]) == (code, frame["ref"])
    await comm.disconnect()


async def test_syncs_have_a_budget_of_their_own(four, no_refill):
    """A `sync` reads the database: past a burst of 5 the socket is told `rate_limited`
    (with the frame's ref) instead of a read, however many frames it may send (the frame
    budget, 40, is far from spent: a ping after them is still answered)."""
    gid, _ = four
    comm = await game_socket(gid)
    for n in range(8):
        await comm.send_json_to({"type": "sync", "after": 0, "ref": f"s{n}"})
    await comm.send_json_to({"type": "ping", "ref": "last"})
    answers, refused = 0, []
    while (frame := await comm.receive_json_from(timeout=5))["type"] != "pong":
        if frame["type"] == "events":
            answers += 1
        elif frame.get("code") == "rate_limited":
            refused.append(frame["ref"])
    assert answers == SYNC_BURST == 5 and refused == ["s5", "s6", "s7"]
    await comm.disconnect()


async def test_a_rate_limited_frame_gets_its_ref_back(four, no_refill):
    gid, _ = four
    comm = await game_socket(gid)
    for n in range(90):
        await comm.send_json_to({"type": "ping", "ref": f"r{n}"})
    frames = [await comm.receive_json_from(timeout=5) for _ in range(int(RATE_BURST) + 2)]
    refused = [f["ref"] for f in frames if f.get("code") == "rate_limited"]
    assert refused == [f"r{int(RATE_BURST)}", "r89"]  # the first over, the 50th over
    await comm.disconnect()


async def test_a_connect_that_meets_a_dead_redis_is_refused_and_leaves_no_topic(
        four, settings, tmp_path):
    """The fan-out's Redis is down: joining the account's topic (for bans) fails, the
    socket is refused `unavailable` (4503), and no topic keeps it as a listener."""
    gid, users = four
    dead = PrivateRedis(tmp_path)  # never started: its port refuses connections
    settings.REDIS_URL = dead.url
    comm = WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=_headers(users[0]))
    connected, _ = await comm.connect(timeout=15)
    assert connected
    error = await comm.receive_json_from(timeout=15)
    assert error["code"] == "unavailable"
    assert (await comm.receive_output(timeout=5))["code"] == CLOSE_UNAVAILABLE
    await comm.wait()
    hub = fanout.hub()
    assert not hub.listeners.get(fanout.user_topic(users[0].pk))
    assert not hub.listeners.get(fanout.game_topic(gid))


async def test_no_socket_runs_a_channel_layer_receive(four):
    """Game, lobby and personal sockets hear everything through the fan-out: none of them
    opens a channel-layer channel (a channels_redis receive, cancelled as its socket
    closed, could hang and keep the server from stopping)."""
    gid, users = four
    comms = [await connect(f"/ws/games/{gid}/", users[0]), await connect("/ws/lobby/"),
             await connect("/ws/me/", users[1])]
    for comm in comms:
        await receive_type(comm, "hello")
    consumers = [task for task in asyncio.all_tasks()
                 if "RedisChannelLayer.receive" in repr(task.get_coro())]
    assert consumers == []
    for comm in comms:
        await comm.disconnect()


async def test_a_socket_several_events_behind_catches_up_with_one_events_frame(four):
    """Two notifications lost: the hub's refill sends the socket both events in one sync
    answer, whose game is the game after the last of them (never an `event` frame with
    a game from later than its event)."""
    gid, users = four
    comm = await game_socket(gid)
    hub = fanout.hub()
    with lost_notices():
        for ply in range(2):
            await play(gid, users, ply)
    await hub._catch_up_all()  # what the reader does after resubscribing
    frame = await receive_type(comm, "events")
    assert [e["ply"] for e in frame["events"]] == [1, 2]
    assert frame["game"]["ply"] == 2
    await comm.disconnect()


@pytest.mark.parametrize("order", ["in commit order", "reversed"])
async def test_a_change_announced_after_the_hello_read_takes_back_no_seat(order):
    """A join's announcement is sent after its commit, so one committed before a socket's
    hello read can reach the socket after its hello, in order or not (two joins sent by
    two worker threads). The socket drops it: its player keeps the seat the hello gave
    it, and nobody is shown the game as it was before (seat 3 empty, still waiting)."""
    late: list[broadcast.Committed] = []
    with lost_notices():
        broadcast.subscribe(late.append)
        try:
            gid, users = await seat_four()
        finally:
            broadcast.unsubscribe(late.append)
    assert [m.change for m in late] == ["created", "joined", "joined", "started"]
    # One version each (the last join and the start are one change: one version).
    assert [m.v - late[0].v for m in late] == [0, 1, 2, 3]
    dave = await game_socket(gid, users[3])
    spectator = await game_socket(gid)
    for message in late if order == "in commit order" else late[::-1]:
        realtime.on_committed(message)  # on its way when the sockets read their hello
    await play(gid, users, 0)  # announced after them: the sockets have seen them all
    for comm in (dave, spectator):
        while (frame := await comm.receive_json_from())["type"] != "event":
            if frame["type"] == "game":  # the start again at most: nothing older
                assert frame["game"]["status"] == "active", frame
                assert all(s["username"] for s in frame["game"]["seats"]), frame
    await dave.send_json_to({"type": "action", "action": MOVE1, "ply": 1, "ref": "d"})
    refusal = await receive_type(dave, "error")
    assert (refusal["code"], refusal["ref"]) == ("not_your_turn", "d")
    for comm in (dave, spectator):
        await comm.disconnect()


async def test_a_player_seated_by_a_change_still_on_its_way_is_seated_by_the_next_move():
    """Dave's socket opens before he joins (a spectator's role). His join starts the game,
    but its announcement is overtaken by the first move's: the move's game shows the new
    seats, so the socket takes seat 3 from it, and the start arriving late is old news."""
    users = [await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol", "dave")]
    game = await sync_to_async(services.create_game)(user=users[0], kind="bloqueio")
    for user in users[1:3]:
        await sync_to_async(services.join_game)(game_id=game.pk, user=user)
    dave = await game_socket(game.pk, users[3])
    late: list[broadcast.Committed] = []
    with lost_notices():
        broadcast.subscribe(late.append)
        try:
            await sync_to_async(services.join_game)(game_id=game.pk, user=users[3])
        finally:
            broadcast.unsubscribe(late.append)
    await play(game.pk, users, 0)  # announced: the game after it has dave in seat 3
    assert (await receive_type(dave, "event"))["event"]["ply"] == 1
    await dave.send_json_to({"type": "action", "action": MOVE1, "ply": 1, "ref": "d"})
    refusal = await receive_type(dave, "error")
    assert (refusal["code"], refusal["ref"]) == ("not_your_turn", "d")
    (started,) = late
    realtime.on_committed(started)  # the start, at last
    await play(game.pk, users, 1)
    while (frame := await dave.receive_json_from())["type"] != "event":
        assert frame["type"] != "game", frame  # the start at ply 0 is not shown again
    assert frame["event"]["ply"] == 2
    await dave.disconnect()


async def test_a_sync_answer_outdates_the_changes_committed_before_its_read():
    """Carol joins and leaves a waiting game; both announcements are still on their way
    when a spectator's `sync` reads the game (carol gone). Her join, arriving after the
    answer, is older than what the answer showed: it is dropped, not shown as if she sat
    there again (same status, same ply: only the count of seat changes tells)."""
    users = [await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol", "dave")]
    game = await sync_to_async(services.create_game)(user=users[0], kind="bloqueio")
    await sync_to_async(services.join_game)(game_id=game.pk, user=users[1])
    watcher = await game_socket(game.pk)
    late: list[broadcast.Committed] = []
    with lost_notices():
        broadcast.subscribe(late.append)
        try:
            await sync_to_async(services.join_game)(game_id=game.pk, user=users[2])
            await sync_to_async(services.leave_game)(game_id=game.pk, user=users[2])
        finally:
            broadcast.unsubscribe(late.append)
    assert [m.change for m in late] == ["joined", "left"]
    await watcher.send_json_to({"type": "sync", "after": 0})
    answer = await receive_type(watcher, "events")
    assert "carol" not in [s["username"] for s in answer["game"]["seats"]]
    for message in late:
        realtime.on_committed(message)  # her join, then her leave: older news
    await sync_to_async(services.join_game)(game_id=game.pk, user=users[3])  # after them
    while True:
        frame = await receive_type(watcher, "game")
        names = [s["username"] for s in frame["game"]["seats"]]
        assert "carol" not in names, frame
        if "dave" in names:
            break
    await watcher.disconnect()
