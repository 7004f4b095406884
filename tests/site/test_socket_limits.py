"""Caps on open sockets per account and per address, and on opens per address, counted
in Redis across processes; a refused socket is told why (`too_many_sockets` or
`rate_limited`, with `retry_after`) and closed with 4429 (bloqueio_site/socket_limits.py)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import redis
import websockets
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from bloqueio_site import limits, socket_limits
from bloqueio_site.asgi import application
from tests.conftest import make_user
from tests.live.servers import live_servers
from tests.ws_helpers import LOCAL, token_headers

pytestmark = pytest.mark.django_db(transaction=True)

CLOSE_OVER_LIMIT = 4429


async def open_ping(headers: list[tuple[bytes, bytes]] = LOCAL) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def assert_refused(comm: WebsocketCommunicator, code: str) -> dict[str, object]:
    """The error frame, then the close with 4429."""
    frame = await comm.receive_json_from(timeout=5)
    assert frame["type"] == "error" and frame["code"] == code, frame
    assert isinstance(frame["retry_after"], int) and frame["retry_after"] >= 1
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close",
                                                    "code": CLOSE_OVER_LIMIT}
    return frame


async def echoes(comm: WebsocketCommunicator) -> bool:
    await comm.send_json_to({"n": 1})
    return (await comm.receive_json_from(timeout=5))["type"] == "echo"


async def test_an_account_over_its_cap_is_told_and_closed(monkeypatch):
    monkeypatch.setattr(socket_limits, "PER_ACCOUNT", 2)
    alice = await database_sync_to_async(make_user)("alice")
    bob = await database_sync_to_async(make_user)("bob")
    first, second = [await open_ping(token_headers(alice.auth_token.key)) for _ in "12"]
    third = await open_ping(token_headers(alice.auth_token.key))
    frame = await assert_refused(third, "too_many_sockets")
    assert "2 sockets" in str(frame["detail"])
    bobs = await open_ping(token_headers(bob.auth_token.key))
    assert await echoes(bobs)  # per account
    anonymous = await open_ping()
    assert await echoes(anonymous)  # anonymous: the address caps apply only
    await first.disconnect()  # a closed socket frees its place
    again = await open_ping(token_headers(alice.auth_token.key))
    assert await echoes(again) and await echoes(second)


async def test_a_refusal_speaks_the_sockets_language(monkeypatch):
    """The account's language (after authentication), the handshake's before it."""
    monkeypatch.setattr(socket_limits, "PER_ACCOUNT", 1)
    alice = await database_sync_to_async(make_user)("alice")
    alice.language = "pt-br"
    await database_sync_to_async(alice.save)(update_fields=["language"])
    held = await open_ping(token_headers(alice.auth_token.key))
    frame = await assert_refused(await open_ping(token_headers(alice.auth_token.key)),
                                 "too_many_sockets")
    assert "No máximo 1 sockets podem ficar abertos por conta" in str(frame["detail"])
    await held.disconnect()
    monkeypatch.setattr(socket_limits, "PER_ADDRESS", 1)
    held = await open_ping()
    frame = await assert_refused(
        await open_ping([*LOCAL, (b"accept-language", b"pt-BR")]), "too_many_sockets")
    assert str(frame["detail"]).startswith("No máximo 1 sockets")
    english = await assert_refused(await open_ping(), "too_many_sockets")
    assert str(english["detail"]).startswith("At most 1 sockets")
    await held.disconnect()


async def test_an_address_over_its_cap_is_told_and_closed(monkeypatch):
    monkeypatch.setattr(socket_limits, "PER_ADDRESS", 3)
    held = [await open_ping() for _ in range(3)]
    await assert_refused(await open_ping(), "too_many_sockets")
    await held[0].disconnect()
    assert await echoes(await open_ping())


async def test_opening_too_fast_from_one_address_is_rate_limited(monkeypatch):
    monkeypatch.setattr(socket_limits, "OPENS", limits.Rate("socket_opens", 3, 60))
    for _ in range(3):
        await (await open_ping()).disconnect()
    frame = await assert_refused(await open_ping(), "rate_limited")
    assert frame["retry_after"] <= 60


async def test_a_refusal_is_counted_nowhere(monkeypatch):
    """A socket refused for its account's cap holds no place under its address."""
    monkeypatch.setattr(socket_limits, "PER_ACCOUNT", 1)
    monkeypatch.setattr(socket_limits, "PER_ADDRESS", 3)
    alice = await database_sync_to_async(make_user)("alice")
    held = await open_ping(token_headers(alice.auth_token.key))
    for _ in range(3):
        await assert_refused(await open_ping(token_headers(alice.auth_token.key)),
                             "too_many_sockets")
    assert await echoes(await open_ping())  # 2 of 3 places under the address in use
    assert await echoes(held)


async def test_sockets_of_a_process_that_died_lapse():
    """Counts a crashed process never released expire instead of blocking forever."""
    counts = socket_limits.COUNTS
    key = counts.key("account:dead-process")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.zadd(key, {f"ghost{n}": time.time() - 1 for n in range(5)})  # expired
        client.zadd(key, {"alive": time.time() + 60})
        assert await counts.acquire(["account:dead-process"], [2], "new") == 0
        assert await counts.acquire(["account:dead-process"], [2], "newer") == 1  # full
        assert sorted(client.zrange(key, 0, -1)) == [b"alive", b"new"]
        assert 0 < client.ttl(key) <= socket_limits.TTL + 1
    finally:
        client.delete(key)
        client.close()


@pytest.mark.slow
def test_an_account_cap_holds_across_two_live_processes(tmp_path):
    alice = make_user("alice")

    async def scenario(a: str, b: str) -> tuple[dict[str, object], int]:
        headers = {"Authorization": f"Token {alice.auth_token.key}"}
        held = []
        for base in (a, a, b):
            origin = {**headers, "Origin": base.replace("ws:", "http:")}
            held.append(await websockets.connect(f"{base}/ws/ping/", open_timeout=10,
                                                 additional_headers=origin))
        refused = await websockets.connect(
            f"{b}/ws/ping/", open_timeout=10,
            additional_headers={**headers, "Origin": b.replace("ws:", "http:")})
        frame = json.loads(await asyncio.wait_for(refused.recv(), 10))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(refused.recv(), 10)
        for ws in held:
            await ws.close()
        return frame, closed.value.rcvd.code

    with live_servers(2, tmp_path, env={"SOCKETS_PER_ACCOUNT": "3"}) as (one, two):
        frame, code = asyncio.run(scenario(one.ws, two.ws))
    assert frame["code"] == "too_many_sockets" and code == CLOSE_OVER_LIMIT
