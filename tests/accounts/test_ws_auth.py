"""A socket's session authentication reads the session only when the handshake carries
a session cookie (accounts/ws_auth.py); the cookie still signs its user in."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as db

from accounts import ws_auth
from tests.accounts.test_ban_sockets import _logged_in_session, cookie_headers, opened
from tests.conftest import make_user
from tests.ws_helpers import LOCAL

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def session_reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every session read a handshake makes, passed on to the real one."""
    reads: list[Any] = []
    real = ws_auth._user_of_session

    async def counted(scope: dict[str, Any]) -> Any:
        reads.append(scope.get("path"))
        return await real(scope)

    monkeypatch.setattr(ws_auth, "_user_of_session", counted)
    return reads


async def test_no_session_cookie_reads_no_session(session_reads: list[Any]) -> None:
    comm = await opened("/ws/lobby/", [*LOCAL, (b"cookie", b"csrftoken=abc")])
    await comm.disconnect()
    assert session_reads == []


async def test_a_session_cookie_signs_its_user_in(session_reads: list[Any]) -> None:
    alice = await db(make_user)("alice")
    comm = await opened("/ws/me/", cookie_headers(await db(_logged_in_session)(alice)))
    await comm.disconnect()  # /ws/me/ refuses anybody not signed in: this is alice
    assert session_reads == ["/ws/me/"]
