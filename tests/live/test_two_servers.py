"""Two real server processes serve one game together through PostgreSQL and Redis: one
Daphne and one uvicorn, so both servers production can run are tested end to end (and a
rolling switch from one to the other keeps every game going)."""

from __future__ import annotations

import asyncio

import pytest

from bloqueio_site.serve import SERVERS
from games import engine
from tests.conftest import recorded_games
from tests.live.servers import live_servers
from tests.live.ws_client import Client, seated_game, seen

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


async def test_four_players_two_spectators_across_two_processes(tmp_path):
    record = recorded_games()[3]
    game, users = await seated_game()

    with live_servers(2, tmp_path, kinds=SERVERS) as (one, two):
        bases = [one.ws, two.ws]
        players = [Client(u.username, bases[i % 2], game.pk, u.auth_token.key, record["actions"])
                   for i, u in enumerate(users)]
        steady = Client("spectator-1", one.ws, game.pk)
        roaming = Client("spectator-2", two.ws, game.pk)
        for client in [*players, steady, roaming]:
            await client.connect()
        assert [p.seat for p in players] == [0, 1, 2, 3]

        # The roaming spectator leaves a third of the way in, misses events, and comes
        # back on the other process, catching up with `sync`.
        third = record["plies"] // 3
        tasks = [asyncio.create_task(c.run()) for c in [*players, steady]]
        await roaming.run(until_ply=third)
        await roaming.close()
        missed_from = len(roaming.events)
        await seen(steady, missed_from + 2)  # the game went on without it: it missed some
        gap_end = len(steady.events)
        await roaming.connect(one.ws)
        tasks.append(asyncio.create_task(roaming.run()))
        await asyncio.gather(*tasks)
        for client in [*players, steady, roaming]:
            await client.close()

    rules = engine.get("bloqueio")
    final = rules.replay(record["actions"])
    expected = list(range(1, record["plies"] + 1))
    reference = [e["action"] for e in steady.events]
    assert reference == record["actions"]
    assert missed_from + 2 <= gap_end
    # What it missed came in the `sync` answer, never as live events.
    assert not set(roaming.raw_plies) & set(range(missed_from + 1, gap_end + 1))
    for client in [*players, steady, roaming]:
        assert [e["ply"] for e in client.events] == expected, client.name
        assert [e["action"] for e in client.events] == reference, client.name
        assert client.game["state"] == final.to_json(), client.name
        assert client.game["result"] == rules.result(final).to_json()
        assert client.errors == [], client.name
    # Connections that never dropped got each event frame exactly once, in ply order.
    for client in [*players, steady]:
        assert client.raw_plies == expected, client.name
