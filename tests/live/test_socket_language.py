"""A socket speaks its reader's language (docs/i18n.md): the account's choice, else the
handshake's cookie, else its Accept-Language. Codes stay English."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from bloqueio_site.asgi import application
from tests.ws_helpers import LOCAL, game_socket, receive_type, seat_four, token_headers

pytestmark = pytest.mark.django_db(transaction=True)

PT = [(b"accept-language", b"pt-BR,pt;q=0.9")]
EN = [(b"accept-language", b"en-US,en;q=0.9")]
TWO_STEPS = {"type": "move", "to": [4, 5]}  # seat 0's pawn moves one cell at a time


async def refusal(comm: WebsocketCommunicator, frame: Any) -> dict[str, Any]:
    if isinstance(frame, str):
        await comm.send_to(text_data=frame)
    else:
        await comm.send_json_to(frame)
    error = await receive_type(comm, "error")
    await comm.disconnect()
    return error


async def both(gid: int, user: Any | None, frame: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The error frame `frame` gets from an English and from a Portuguese socket."""
    base = LOCAL if user is None else token_headers(user.auth_token.key)
    english = await refusal(await game_socket(gid, headers=[*base, *EN]), frame)
    portuguese = await refusal(await game_socket(gid, headers=[*base, *PT]), frame)
    assert english["code"] == portuguese["code"]
    return english, portuguese


@pytest.fixture
async def four() -> tuple[int, list[Any]]:
    return await seat_four()


async def test_not_your_turn_is_said_in_the_browsers_language(four):
    gid, users = four
    english, portuguese = await both(gid, users[1], {"type": "action", "action": TWO_STEPS,
                                                      "ply": 0, "ref": 1})
    assert english["code"] == "not_your_turn"
    assert english["detail"] == "It is seat 0's turn."
    assert portuguese["detail"] == "É a vez do lugar 0."
    assert portuguese["ref"] == 1


async def test_an_illegal_move_gives_the_engines_reason_in_portuguese(four):
    gid, users = four
    english, portuguese = await both(gid, users[0], {"type": "action", "action": TWO_STEPS,
                                                      "ply": 0})
    assert english["code"] == "illegal_action"
    assert english["detail"].startswith("cell [4,5]")
    assert portuguese["detail"].startswith("a casa [4,5]")


@pytest.mark.parametrize(("frame", "code", "words"), [
    ("not json", "invalid_json", "não é JSON válido"),
    ({"no": "type"}, "invalid_frame", "objeto JSON"),
    ({"type": "teleport"}, "unknown_type", "desconhecido"),
    ({"type": "action", "action": TWO_STEPS, "ply": 0}, "read_only", "Espectadores"),
    ({"type": "sync", "after": -1}, "invalid", "`after`"),
])
async def test_bad_frames_are_refused_in_portuguese_with_the_same_code(four, frame, code, words):
    gid, _users = four
    english, portuguese = await both(gid, None, frame)
    assert english["code"] == code
    assert words in portuguese["detail"]
    assert portuguese["detail"] != english["detail"]


async def test_the_accounts_language_wins_over_the_browser(four):
    gid, users = four
    await sync_to_async(User.objects.filter(pk=users[1].pk).update)(language="pt-br")
    comm = await game_socket(gid, headers=[*token_headers(users[1].auth_token.key), *EN])
    error = await refusal(comm, {"type": "action", "action": TWO_STEPS, "ply": 0})
    assert error["detail"] == "É a vez do lugar 0."


async def test_the_switchers_cookie_wins_over_accept_language(four):
    gid, _users = four
    comm = await game_socket(gid, headers=[*LOCAL, *EN, (b"cookie", b"django_language=pt-br")])
    error = await refusal(comm, "not json")
    assert error["code"] == "invalid_json" and "JSON válido" in error["detail"]


async def test_a_refused_socket_says_why_in_its_language():
    comm = WebsocketCommunicator(application, "/ws/games/999999/", headers=[*LOCAL, *PT])
    connected, _ = await comm.connect()
    assert connected
    error = await comm.receive_json_from(timeout=5)
    assert error["code"] == "not_found"
    assert error["detail"] == "Não existe a partida 999999."
    await comm.disconnect()
