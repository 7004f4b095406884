"""A token revoked while a socket's handshake is under way closes that socket too.

The handshake looks the token up (accounts.ws_auth) before the consumer joins the
account's topic, where the revocation's notice goes: a revocation committed in between
sent its notice to nobody listening yet. Here the lookup is held at an event the test
controls; the token is revoked and its notice seen delivered (another socket of the same
token closes on it); only then does the handshake go on. It must end in
`credentials_revoked` (4401), not in a `hello`.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator

from accounts import credentials, ws_auth
from bloqueio_site.asgi import application
from games.live.frames import CLOSE_UNAUTHORIZED
from tests.accounts.test_ban_sockets import _logged_in_session, cookie_headers, opened
from tests.accounts.test_revoked_sockets import closed_as_revoked
from tests.conftest import make_user
from tests.ws_helpers import seat_four, token_headers, until_closed

pytestmark = pytest.mark.django_db(transaction=True)


class HeldLookups:
    """Wraps the handshake's token lookup: the lookup runs, then waits for `go`."""

    def __init__(self, lookup: Any) -> None:
        self.lookup = lookup
        self.looked_up = asyncio.Event()
        self.go = asyncio.Event()

    async def __call__(self, key: str) -> Any:
        user = await self.lookup(key)
        self.looked_up.set()
        await self.go.wait()
        return user


async def refused_as_revoked(comm: WebsocketCommunicator) -> None:
    """The socket's first frame is the refusal (no `hello`), then 4401."""
    first = await comm.receive_json_from(timeout=5)
    assert (first["type"], first.get("code")) == ("error", "credentials_revoked"), first
    frames, code = await until_closed(comm)
    assert code == CLOSE_UNAUTHORIZED and frames == [], (code, frames)
    await comm.disconnect()


@pytest.mark.parametrize("route", ["game", "/ws/me/", "/ws/lobby/"])
async def test_a_token_revoked_between_its_lookup_and_the_join_closes_the_socket(
        route, monkeypatch):
    if route == "game":
        gid, (alice, *_) = await seat_four()
        path = f"/ws/games/{gid}/"
    else:
        alice, path = await db(make_user)("alice"), route
    info, named = await db(credentials.create_token)(user=alice, name="bot")
    witness = await opened("/ws/me/", token_headers(named))  # closes once the notice is out
    held = HeldLookups(ws_auth._user_for_token)
    monkeypatch.setattr(ws_auth, "_user_for_token", held)

    comm = WebsocketCommunicator(application, path, headers=token_headers(named))
    connecting = asyncio.ensure_future(comm.connect(timeout=10))
    await asyncio.wait_for(held.looked_up.wait(), 10)
    await db(credentials.revoke_token)(user=alice, token_id=info["id"])
    await closed_as_revoked(witness)  # the notice went out, to nobody else yet
    held.go.set()

    connected, _ = await connecting
    assert connected
    await refused_as_revoked(comm)


async def test_a_session_ended_during_the_handshake_closes_the_socket(monkeypatch):
    """The same for a session cookie: a password change elsewhere ended the session
    after the handshake had loaded its user."""
    alice = await db(make_user)("alice")
    session = await db(_logged_in_session)(alice)
    witness = await opened("/ws/me/", cookie_headers(session))
    held = HeldLookups(ws_auth._user_of_session)
    monkeypatch.setattr(ws_auth, "_user_of_session", held)

    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=cookie_headers(session))
    connecting = asyncio.ensure_future(comm.connect(timeout=10))
    await asyncio.wait_for(held.looked_up.wait(), 10)
    await db(credentials.password_changed)(user=alice)
    await closed_as_revoked(witness)
    held.go.set()

    connected, _ = await connecting
    assert connected
    await refused_as_revoked(comm)
