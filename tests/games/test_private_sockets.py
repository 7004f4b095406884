"""Private games on the sockets: the game socket refuses whoever may not see it (as if
there were no such game), the lobby never hears of one, and rematch offers reach the
table's own sockets (`/ws/me/`)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from bloqueio_site.asgi import application
from games import invitations, rematch, services
from tests.ws_helpers import LOCAL, receive_type

pytestmark = pytest.mark.django_db(transaction=True)


def _headers(user: Any | None, cookie: str | None = None) -> list[tuple[bytes, bytes]]:
    headers = list(LOCAL)
    if user is not None:
        headers.append((b"authorization", f"Token {user.auth_token.key}".encode()))
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    return headers


async def _open(path: str, user: Any | None = None, cookie: str | None = None
                ) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    comm = WebsocketCommunicator(application, path, headers=_headers(user, cookie))
    connected, _ = await comm.connect()
    assert connected
    return comm, await comm.receive_json_from()


async def _refused(path: str, user: Any | None = None) -> None:
    comm, first = await _open(path, user)
    assert (first["type"], first["code"]) == ("error", "not_found")
    assert (await comm.receive_output())["code"] == 4404


@pytest.fixture
async def private_game(alice):
    return await sync_to_async(services.create_game)(user=alice, kind="bloqueio",
                                                     private=True)


async def test_a_spectator_without_the_token_is_refused(private_game, carol):
    await _refused(f"/ws/games/{private_game.pk}/")
    await _refused(f"/ws/games/{private_game.pk}/", carol)
    await _refused(f"/ws/games/{private_game.pk}/?invite=not-the-token")


async def test_the_table_and_the_token_holders_are_let_in(private_game, alice, carol):
    comm, hello = await _open(f"/ws/games/{private_game.pk}/", alice)
    assert hello["type"] == "hello" and hello["you"] == {"seat": 0}
    assert hello["game"]["private"] is True
    await comm.disconnect()
    comm, hello = await _open(f"/ws/games/{private_game.pk}/?invite={private_game.invite_token}",
                              carol)
    assert hello["type"] == "hello" and hello["you"] == {"seat": None}
    assert "invite_url" not in hello["game"]
    await comm.disconnect()


async def test_the_session_of_a_browser_that_opened_the_link_is_let_in(private_game):
    browser = Client()
    await sync_to_async(browser.get)(
        f"/games/{private_game.pk}/invite/{private_game.invite_token}/")
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    comm, hello = await _open(f"/ws/games/{private_game.pk}/", cookie=cookie)
    assert hello["type"] == "hello" and hello["game"]["id"] == private_game.pk
    await comm.disconnect()


async def test_the_lobby_never_hears_of_a_private_game(alice, bob):
    lobby, hello = await _open("/ws/lobby/")
    assert hello["type"] == "hello"
    hidden = await sync_to_async(services.create_game)(user=alice, kind="bloqueio2",
                                                       private=True)
    shown = await sync_to_async(services.create_game)(user=bob, kind="bloqueio2")
    frame = await receive_type(lobby, "lobby")  # the private one's would come first
    assert frame["game"]["id"] == shown.pk
    again, hello = await _open("/ws/lobby/")
    assert [g["id"] for g in hello["games"]] == [shown.pk]
    assert hidden.pk not in [g["id"] for g in hello["games"]]
    await lobby.disconnect()
    await again.disconnect()


async def test_rematch_offers_reach_the_tables_own_sockets(alice, bob):
    game = await sync_to_async(services.create_game)(user=alice, kind="bloqueio2")
    await sync_to_async(services.join_game)(game_id=game.pk, user=bob)
    await sync_to_async(services.resign)(game_id=game.pk, user=bob)
    me_b, _ = await _open("/ws/me/", bob)
    await sync_to_async(rematch.offer)(game_id=game.pk, user=alice)
    frame = await receive_type(me_b, "notify")
    while frame["event"] != "rematch_offered":  # a game_over may come first
        frame = await receive_type(me_b, "notify")
    assert frame["game_id"] == game.pk
    assert frame["rematch"]["accepted"] == ["alice"] and frame["rematch"]["waiting"] == ["bob"]
    await sync_to_async(rematch.offer)(game_id=game.pk, user=bob)
    frame = await receive_type(me_b, "notify")
    while frame["event"] != "rematch_started":
        frame = await receive_type(me_b, "notify")
    assert frame["rematch"]["game_id"] is not None
    await me_b.disconnect()


async def test_a_user_invited_by_name_is_let_in(private_game, alice, carol):


    await _refused(f"/ws/games/{private_game.pk}/", carol)
    await sync_to_async(invitations.invite_user)(game_id=private_game.pk, user=alice,
                                                 username="carol")
    comm, hello = await _open(f"/ws/games/{private_game.pk}/", carol)
    assert hello["type"] == "hello" and hello["you"] == {"seat": None}
    await comm.disconnect()
