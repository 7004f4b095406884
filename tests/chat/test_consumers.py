"""Chat on the game socket: who gets which room live, errors, hello and sync catch-up."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator

from bloqueio_site.asgi import application
from chat import services as chat_services
from games import services
from tests.chat.conftest import grant
from tests.conftest import make_user
from tests.ws_helpers import game_socket, token_headers

pytestmark = pytest.mark.django_db(transaction=True)

CHATTER = ("presence", "ping", "game")


@pytest.fixture
async def world() -> dict[str, Any]:
    """alice and bob playing a two-seat game; carol signed in, not seated."""
    users = {n: await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol")}
    game = await sync_to_async(services.create_game)(user=users["alice"], kind="bloqueio2")
    await sync_to_async(services.join_game)(game_id=game.pk, user=users["bob"])
    return {"gid": game.pk, **users}


async def next_frame(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The next frame that is not presence/ping/game chatter."""
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] not in CHATTER:
            return frame


async def no_chat(comm: WebsocketCommunicator, seconds: float = 0.5) -> bool:
    """True if no chat frame (nor anything but chatter) arrives within `seconds`."""
    try:
        frame = await next_frame_within(comm, seconds)
    except TimeoutError:
        return True
    raise AssertionError(f"unexpected frame {frame}")


async def next_frame_within(comm: WebsocketCommunicator, seconds: float) -> dict[str, Any]:
    async with asyncio.timeout(seconds):
        while True:
            frame = await comm.receive_json_from(timeout=seconds)
            if frame["type"] not in CHATTER:
                return frame


async def chats(comm: WebsocketCommunicator, count: int) -> list[str]:
    """The texts of the next `count` chat frames; anything else but acks fails."""
    texts = []
    while len(texts) < count:
        frame = await next_frame(comm)
        if frame["type"] == "ack":
            continue
        assert frame["type"] == "chat", frame
        texts.append(frame["message"]["text"])
    return texts


async def say(comm: WebsocketCommunicator, text: Any, ref: Any = "c1") -> dict[str, Any]:
    """Send a chat frame; the ack or error that answers it (chat frames read past are
    not needed by the callers that use this)."""
    await comm.send_json_to({"type": "chat", "text": text, "ref": ref})
    while True:
        frame = await next_frame(comm)
        if frame["type"] in ("ack", "error"):
            return frame


async def post(world: dict[str, Any], user: str, text: str) -> Any:
    return await sync_to_async(chat_services.post_message)(
        game_id=world["gid"], user=world[user], text=text)


async def test_each_socket_gets_exactly_the_rooms_it_may_read(world):
    alice = await game_socket(world["gid"], world["alice"])
    bob = await game_socket(world["gid"], world["bob"])
    carol = await game_socket(world["gid"], world["carol"])
    anon = await game_socket(world["gid"])
    await alice.send_json_to({"type": "chat", "text": "gl hf", "ref": "a1"})
    await carol.send_json_to({"type": "chat", "text": "bob: wall e5!", "ref": 9})
    await bob.send_json_to({"type": "chat", "text": "thanks", "ref": "b1"})
    # Acks carry the message id; the sender's own chat frame comes too.
    seen: dict[str, list[dict[str, Any]]] = {}
    for name, comm, count in (("alice", alice, 3), ("bob", bob, 3), ("carol", carol, 2),
                              ("anon", anon, 1)):
        frames = []
        while len(frames) < count:
            frame = await next_frame(comm)
            assert frame["type"] in ("ack", "chat"), frame
            frames.append(frame)
        seen[name] = frames
    texts = {n: [f["message"]["text"] for f in fs if f["type"] == "chat"] for n, fs in
             seen.items()}
    # While the game runs each side gets only its own room: no coaching of the players,
    # and the players' talk stays theirs. (Three writers at once: their order is the
    # commits', so only the sets are checked here.)
    assert sorted(texts["alice"]) == sorted(texts["bob"]) == ["gl hf", "thanks"]
    for name in ("carol", "anon"):
        assert texts[name] == ["bob: wall e5!"]
    assert await no_chat(carol) and await no_chat(anon)
    [ack] = [f for f in seen["carol"] if f["type"] == "ack"]
    [carols] = [f["message"] for f in seen["anon"] if f["type"] == "chat"
                and f["message"]["room"] == "spectators"]
    assert ack == {"type": "ack", "ref": 9, "id": carols["id"]}
    assert set(carols) == {"id", "room", "username", "text", "at", "deleted"}
    assert (carols["username"], carols["deleted"]) == ("carol", False)
    for comm in (alice, bob, carol, anon):
        await comm.disconnect()


async def test_one_writers_messages_arrive_in_order(world):
    anon = await game_socket(world["gid"])
    for i in range(5):
        await post(world, "carol", f"m{i}")
    assert await chats(anon, 5) == [f"m{i}" for i in range(5)]
    await anon.disconnect()


async def test_after_the_game_ends_players_get_the_spectators_room(world):
    alice = await game_socket(world["gid"], world["alice"])
    await post(world, "carol", "during")
    await post(world, "alice", "marker")
    assert await chats(alice, 1) == ["marker"]  # "during" was never sent to her
    await sync_to_async(services.resign)(game_id=world["gid"], user=world["bob"])
    while (await next_frame(alice))["type"] != "event":
        pass
    await post(world, "carol", "after")
    assert await chats(alice, 1) == ["after"]
    await alice.disconnect()
    # And a new socket's hello brings both rooms now.
    alice = await game_socket(world["gid"], world["alice"])
    history = await next_frame(alice)
    assert history["type"] == "chat_history"
    assert [m["text"] for m in history["messages"]] == ["during", "marker", "after"]
    await alice.disconnect()


async def test_hello_brings_the_recent_chat_the_viewer_may_read(world):
    await post(world, "alice", "gl")
    await post(world, "carol", "psst")
    bob = WebsocketCommunicator(application, f"/ws/games/{world['gid']}/",
                                headers=token_headers(world["bob"].auth_token.key))
    await bob.connect()
    assert (await bob.receive_json_from())["type"] == "hello"
    history = await next_frame(bob)
    assert history["type"] == "chat_history"
    assert [m["text"] for m in history["messages"]] == ["gl"]
    anon = await game_socket(world["gid"])
    assert [m["text"] for m in (await next_frame(anon))["messages"]] == ["psst"]
    await bob.disconnect()
    await anon.disconnect()


async def test_no_chat_history_frame_when_there_is_no_chat(world):
    anon = await game_socket(world["gid"])
    await anon.send_json_to({"type": "ping"})
    assert (await next_frame(anon))["type"] == "pong"
    await anon.disconnect()


async def test_sync_with_chat_after_fills_the_missed_messages(world):
    first = await post(world, "alice", "one")
    await post(world, "carol", "two")
    await post(world, "bob", "three")
    carol = await game_socket(world["gid"], world["carol"])
    assert (await next_frame(carol))["type"] == "chat_history"
    await carol.send_json_to({"type": "sync", "after": 0, "chat_after": first.pk})
    events = await next_frame(carol)
    assert events["type"] == "events"  # unchanged, and first
    history = await next_frame(carol)
    assert history["type"] == "chat_history"
    assert [m["text"] for m in history["messages"]] == ["two"]  # not the players' "three"
    # The players' view: bob missed only his own room's.
    bob = await game_socket(world["gid"], world["bob"])
    assert (await next_frame(bob))["type"] == "chat_history"
    await bob.send_json_to({"type": "sync", "after": 0, "chat_after": first.pk})
    assert (await next_frame(bob))["type"] == "events"
    assert [m["text"] for m in (await next_frame(bob))["messages"]] == ["three"]
    # Without chat_after the answer is the events frame alone; a bad one is refused.
    await bob.send_json_to({"type": "sync", "after": 0})
    assert (await next_frame(bob))["type"] == "events"
    await bob.send_json_to({"type": "sync", "after": 0, "chat_after": "x", "ref": 3})
    assert (await next_frame(bob)) == {
        "type": "error", "code": "invalid", "ref": 3,
        "detail": "`chat_after` must be a chat message id >= 0."}
    await carol.disconnect()
    await bob.disconnect()


async def test_refusals_have_codes(world):
    alice = await game_socket(world["gid"], world["alice"])
    anon = await game_socket(world["gid"])
    frame = await say(anon, "hi", ref="x")
    assert (frame["type"], frame["code"], frame["ref"]) == ("error", "not_authenticated", "x")
    assert (await say(alice, "a" * 281))["code"] == "too_long"
    assert (await say(alice, " \n\t\x00 "))["code"] == "invalid"
    assert (await say(alice, None))["code"] == "invalid"
    assert (await say(alice, ["hi"]))["code"] == "invalid"
    for i in range(5):
        assert (await say(alice, f"m{i}", ref=i))["type"] == "ack"
    frame = await say(alice, "too fast", ref="r")
    assert (frame["code"], frame["ref"]) == ("rate_limited", "r")
    await alice.disconnect()
    await anon.disconnect()


async def test_muted_is_refused_with_when_it_ends(world, mod_log):
    mia = await sync_to_async(lambda: grant(make_user("mia"), "mute_user"))()
    mute = await sync_to_async(chat_services.mute_user)(
        actor=mia, user=world["bob"], reason="spam", minutes=30)
    bob = await game_socket(world["gid"], world["bob"])
    frame = await say(bob, "hello?", ref="m")
    assert (frame["code"], frame["ref"]) == ("muted", "m")
    assert frame["until"] == mute.until.isoformat()
    await bob.disconnect()


async def test_deletes_reach_the_rooms_readers(world, mod_log):
    mia = await sync_to_async(lambda: grant(make_user("mia"), "delete_message"))()
    alice = await game_socket(world["gid"], world["alice"])
    anon = await game_socket(world["gid"])
    spam = await post(world, "carol", "spam")
    assert await chats(anon, 1) == ["spam"]
    await sync_to_async(chat_services.delete_message)(actor=mia, message_id=spam.pk,
                                                      reason="spam")
    assert await next_frame(anon) == {"type": "chat_deleted", "id": spam.pk}
    await post(world, "alice", "marker")
    assert await chats(alice, 1) == ["marker"]  # no chat_deleted for a room she can't read
    await anon.disconnect()
    anon = await game_socket(world["gid"])
    messages = (await next_frame(anon))["messages"]
    # The players' "marker" is not the spectators' to read while the game runs.
    assert [(m["text"], m["deleted"]) for m in messages] == [("", True)]
    await anon.disconnect()
    await alice.disconnect()
