"""kill -9 one of two Daphne processes mid-game: its clients move to the other and finish."""

from __future__ import annotations

import asyncio
import signal

import pytest
from channels.db import database_sync_to_async

from games import engine
from games.models import Event
from tests.conftest import recorded_games
from tests.live.servers import live_servers
from tests.live.ws_client import Client, play_through_failover, seated_game, seen

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


async def test_killing_a_server_mid_game_loses_nothing(tmp_path):
    record = recorded_games()[7]
    game, users = await seated_game()

    with live_servers(2, tmp_path) as (doomed, survivor):
        clients = [Client(u.username, [doomed.ws, survivor.ws][i % 2], game.pk,
                          u.auth_token.key, record["actions"]) for i, u in enumerate(users)]
        clients += [Client("spectator-doomed", doomed.ws, game.pk),
                    Client("spectator-survivor", survivor.ws, game.pk)]
        for client in clients:
            await client.connect()
        tasks = [asyncio.create_task(play_through_failover(c, survivor.ws)) for c in clients]
        await seen(clients[-1], record["plies"] // 2)
        doomed.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(doomed.process.wait, 10)
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)
        for client in clients:
            await client.close()

    rules = engine.get("bloqueio")
    final = rules.replay(record["actions"])
    plies = await database_sync_to_async(
        lambda: list(Event.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    )()
    assert plies == list(range(1, record["plies"] + 1))  # no gap, no duplicate
    for client in clients:
        assert [e["action"] for e in client.events] == record["actions"], client.name
        assert client.game["state"] == final.to_json(), client.name
        assert client.game["result"] == rules.result(final).to_json()
