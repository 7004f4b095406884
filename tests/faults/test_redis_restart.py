"""Redis restarted mid-game: moves still commit, /healthz says 503, clients recover."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async

from games import engine
from games.models import Event, Game
from tests.conftest import recorded_games
from tests.live.servers import PrivateRedis, Server, http_json, live_servers
from tests.live.ws_client import Client, seated_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


async def keep_playing(client: Client, base: str, seconds: float = 60) -> None:
    """Run; on a dropped connection, reconnect (Redis may still be down: the server then
    refuses the socket as `unavailable`, which the client's hello check fails on) and
    sync. Reconnecting gives up after `seconds`, saying what the last attempt met."""
    while True:
        try:
            await client.run()
            return
        except (websockets.ConnectionClosed, OSError):
            pass
        deadline = asyncio.get_running_loop().time() + seconds
        while True:
            try:
                client.syncing = False
                await client.connect(base)
                break
            except (websockets.InvalidHandshake, websockets.ConnectionClosed, OSError,
                    AssertionError) as exc:
                if asyncio.get_running_loop().time() > deadline:
                    raise AssertionError(f"{client.name} could not reconnect within "
                                         f"{seconds:g} s: {exc!r}") from exc
                await asyncio.sleep(0.2)


async def healthz(server: Server, status: int) -> dict[str, Any]:
    """/healthz's body once it answers `status` (polled, within a deadline)."""
    async def answer() -> tuple[int, Any]:
        return await asyncio.to_thread(http_json, "GET", f"{server.http}/healthz")
    deadline = asyncio.get_running_loop().time() + 60
    while (found := await answer())[0] != status:
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"/healthz still answers {found} after 60 s, not {status}")
        await asyncio.sleep(0.1)
    return found[1]


async def test_redis_restart_mid_game(tmp_path):
    record = recorded_games()[11]
    actions = record["actions"]
    game, users = await seated_game()
    redis = PrivateRedis(tmp_path)
    redis.start()
    try:
        with live_servers(1, tmp_path, redis.url) as (server,):
            players = [Client(u.username, server.ws, game.pk, u.auth_token.key, actions)
                       for u in users]
            watcher = Client("spectator", server.ws, game.pk)
            for client in [*players, watcher]:
                await client.connect()
            await asyncio.gather(*(c.run(until_ply=20) for c in [*players, watcher]))

            redis.kill()
            body = await healthz(server, 503)
            assert body["database"] == "ok" and body["channel_layer"].startswith("error")
            # Moves over REST still commit while the channel layer is down.
            for _ in range(4):
                current = await database_sync_to_async(Game.objects.get)(pk=game.pk)
                seat = current.state["turn"]
                status, body = await asyncio.to_thread(
                    http_json, "POST", f"{server.http}/api/games/{game.pk}/actions/",
                    {"action": actions[current.ply], "ply": current.ply},
                    users[seat].auth_token.key)
                assert status == 201, body

            redis.start()
            assert (await healthz(server, 200))["channel_layer"] == "ok"
            await asyncio.wait_for(
                asyncio.gather(*(keep_playing(c, server.ws) for c in [*players, watcher])),
                timeout=120)
            for client in [*players, watcher]:
                await client.close()
    finally:
        redis.kill()

    rules = engine.get("bloqueio")
    final = rules.replay(actions)
    plies = await database_sync_to_async(
        lambda: list(Event.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    )()
    assert plies == list(range(1, record["plies"] + 1))
    for client in [*players, watcher]:
        assert [e["action"] for e in client.events] == actions, client.name
        assert client.game["state"] == final.to_json(), client.name
