"""Sockets opened with a revoked token, or a session a password change ended, close
(4401 `credentials_revoked`); the others stay open.

In-process against the real ASGI application and the Redis channel layer: the
revocation's after-commit signal reaches the sockets through `games.live.realtime`.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from accounts import credentials
from games.live.frames import CLOSE_UNAUTHORIZED
from tests.accounts.test_ban_sockets import _logged_in_session, cookie_headers, opened
from tests.conftest import PASSWORD, make_user
from tests.ws_helpers import receive_type, token_headers, until_closed

pytestmark = pytest.mark.django_db(transaction=True)


async def closed_as_revoked(comm: WebsocketCommunicator) -> None:
    frames, code = await until_closed(comm)
    assert code == CLOSE_UNAUTHORIZED, code
    assert frames and frames[-1]["code"] == "credentials_revoked", frames
    await comm.disconnect()


async def still_open(comm: WebsocketCommunicator) -> None:
    await comm.send_json_to({"type": "ping"})
    assert (await receive_type(comm, "pong")) == {"type": "pong"}
    await comm.disconnect()


async def test_revoking_a_token_closes_only_its_sockets():
    alice = await db(make_user)("alice")
    bob = await db(make_user)("bob")
    info, named = await db(credentials.create_token)(user=alice, name="bot")
    by_named = [await opened(p, token_headers(named)) for p in ("/ws/me/", "/ws/lobby/")]
    by_default = await opened("/ws/me/", token_headers(alice.auth_token.key))
    by_session = await opened("/ws/lobby/", cookie_headers(await db(_logged_in_session)(alice)))
    bobs = await opened("/ws/me/", token_headers(bob.auth_token.key))

    await db(credentials.revoke_token)(user=alice, token_id=info["id"])

    for comm in by_named:
        await closed_as_revoked(comm)
    for comm in (by_default, by_session, bobs):
        await still_open(comm)


async def test_a_password_change_closes_sockets_of_every_other_token_and_session():
    alice = await db(make_user)("alice")
    _, named = await db(credentials.create_token)(user=alice, name="bot")
    by_default = await opened("/ws/me/", token_headers(alice.auth_token.key))
    by_session = await opened("/ws/lobby/", cookie_headers(await db(_logged_in_session)(alice)))
    by_caller = await opened("/ws/me/", token_headers(named))

    def change() -> int:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {named}")
        return api.post("/api/auth/password/", {
            "old_password": PASSWORD, "new_password": "another-long-pass-77"},
            format="json").status_code

    assert await db(change)() == 204
    await closed_as_revoked(by_default)
    await closed_as_revoked(by_session)
    await still_open(by_caller)  # the token that changed the password stays
