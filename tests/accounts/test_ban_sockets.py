"""A ban closes the user's open sockets (4403 `banned`) and refuses new ones (4401).

In-process against the real ASGI application and the Redis channel layer: the ban's
after-commit signal reaches the sockets through `games.live.realtime` exactly as in a server.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts import services
from accounts.models import User
from bloqueio_site.asgi import application
from games.live.consumers import GameConsumer, LobbyConsumer, MeConsumer
from games.live.frames import CLOSE_BANNED, CLOSE_UNAUTHORIZED
from tests.ws_helpers import LOCAL, receive_type, seat_four, token_headers, until_closed

pytestmark = pytest.mark.django_db(transaction=True)

def cookie_headers(session_key: str) -> list[tuple[bytes, bytes]]:
    return [*LOCAL, (b"cookie", f"sessionid={session_key}".encode())]


async def opened(path: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from(timeout=3)
    assert hello["type"] == "hello", hello
    return comm


async def closed_as_banned(comm: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Frames up to the close; the last frame must be the `banned` error, then 4403."""
    frames, code = await until_closed(comm)
    assert code == CLOSE_BANNED, code
    assert frames and frames[-1]["type"] == "error", frames
    assert frames[-1]["code"] == "banned" and frames[-1]["detail"]
    return frames


@pytest.fixture
async def table() -> tuple[int, list[Any]]:
    return await seat_four()


async def test_a_ban_closes_every_socket_of_the_user_and_only_theirs(table):
    gid, (alice, bob, *_) = table
    alice_key = alice.auth_token.key
    session_key = await db(_logged_in_session)(alice)
    game_socket = await opened(f"/ws/games/{gid}/", token_headers(alice_key))
    me_socket = await opened("/ws/me/", token_headers(alice_key))
    lobby_by_cookie = await opened("/ws/lobby/", cookie_headers(session_key))
    game_by_cookie = await opened(f"/ws/games/{gid}/", cookie_headers(session_key))
    bob_game = await opened(f"/ws/games/{gid}/", token_headers(bob.auth_token.key))
    bob_me = await opened("/ws/me/", token_headers(bob.auth_token.key))

    report = await db(services.ban_user)(alice)

    assert report.removed_from == [gid]
    for comm in (game_socket, me_socket, lobby_by_cookie, game_by_cookie):
        await closed_as_banned(comm)
        await comm.disconnect()
    # Bob's sockets stay open: he sees her seat removed and his socket still answers.
    frame = await receive_type(bob_game, "event")
    assert (frame["event"]["seat"], frame["event"]["action"]) == (0, {"type": "removed"})
    for comm in (bob_game, bob_me):
        await comm.send_json_to({"type": "ping"})
        assert (await receive_type(comm, "pong")) == {"type": "pong"}
        await comm.disconnect()


async def test_after_a_ban_new_sockets_get_no_identity(table):
    gid, (alice, *_) = table
    alice_key = alice.auth_token.key
    session_key = await db(_logged_in_session)(alice)
    await db(services.ban_user)(alice)
    for path in (f"/ws/games/{gid}/", "/ws/me/"):
        comm = WebsocketCommunicator(application, path, headers=token_headers(alice_key))
        await comm.connect()
        assert (await comm.receive_json_from(timeout=3))["code"] == "authentication_failed"
        assert (await comm.receive_output(timeout=3))["code"] == CLOSE_UNAUTHORIZED
    # Her session is gone: the cookie makes a stranger (spectator, no personal socket).
    comm = await opened(f"/ws/games/{gid}/", cookie_headers(session_key))
    await comm.send_json_to({"type": "resign", "ref": "r"})
    assert (await receive_type(comm, "error"))["code"] == "read_only"
    await comm.disconnect()
    comm = WebsocketCommunicator(application, "/ws/me/", headers=cookie_headers(session_key))
    await comm.connect()
    assert (await comm.receive_json_from(timeout=3))["code"] == "not_authenticated"
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_UNAUTHORIZED


async def test_a_ban_committed_during_the_handshake_refuses_the_socket(table):
    """The user was authenticated (and loaded, active) before the ban committed: the
    consumer re-reads the account after listening for bans and refuses the socket."""
    gid, (alice, *_) = table
    await db(User.objects.filter(pk=alice.pk).update)(is_active=False)  # the ban's commit
    assert alice.is_active  # the handshake's copy, loaded before it
    routes = [(GameConsumer, f"/ws/games/{gid}/", {"game_id": gid}),
              (MeConsumer, "/ws/me/", {}), (LobbyConsumer, "/ws/lobby/", {})]
    for consumer, path, kwargs in routes:
        comm = WebsocketCommunicator(consumer.as_asgi(), path)
        comm.scope.update(user=alice, url_route={"args": (), "kwargs": kwargs})
        connected, _ = await comm.connect()
        assert connected, path
        frames = await closed_as_banned(comm)
        assert [f["type"] for f in frames] == ["error"], (path, frames)  # no hello first
        await comm.disconnect()


def _logged_in_session(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)
