"""A deploy's SIGTERM stops the server within seconds, whatever it has served.

docker compose, systemd and Kubernetes send SIGTERM and SIGKILL 10 s later: a server
that outlives that window turns every rolling deploy into a crash. Both servers are
tested: after whole games whose clients have gone (a task that outlived its connection
kept uvicorn "waiting for background tasks" forever), and mid-game, where every socket
is closed with 1012 (service restart) so the page reconnects to another process, and
an action in flight is either committed and acked or not applied.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time

import pytest
import websockets
from channels.db import database_sync_to_async

from bloqueio_site.serve import SERVERS
from games.models import Event
from tests.conftest import recorded_games
from tests.live.servers import start, stop
from tests.live.ws_client import Client, seated_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

STOP_WITHIN = 10.0  # what an orchestrator waits between SIGTERM and SIGKILL


def _stopped_within(process, seconds: float) -> float | None:
    """Seconds the process took to exit after SIGTERM, or None if it did not."""
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(seconds)
    except Exception:
        return None
    return time.monotonic() - began


async def _new_game(users: list) -> object:
    """Another game of the same four players, seated in order."""
    from games import services

    def create() -> object:
        game = services.create_game(user=users[0], kind="bloqueio")
        for user in users[1:]:
            services.join_game(game_id=game.pk, user=user)
        return game

    return await database_sync_to_async(create)()


async def _play_whole_game(base: str, game, users: list, record: dict) -> list[Client]:
    players = [Client(u.username, base, game.pk, u.auth_token.key, record["actions"])
               for u in users]
    spectator = Client("spectator", base, game.pk)
    clients = [*players, spectator]
    for client in clients:
        await client.connect()
    await asyncio.gather(*(c.run() for c in clients))
    return clients


@pytest.mark.parametrize("server", SERVERS)
async def test_sigterm_after_games_whose_clients_left(tmp_path, server):
    """Two whole games played, every client gone (one by closing, one by vanishing
    without a close handshake), then SIGTERM: the process exits at once."""
    live = start(tmp_path, server=server)
    try:
        records = recorded_games()
        game, users = await seated_game()
        first = await _play_whole_game(live.ws, game, users, records[0])
        for client in first:
            await client.close()
        second = await _play_whole_game(live.ws, await _new_game(users), users, records[2])
        for client in second:  # gone without a close frame: the TCP connection dropped
            client.ws.transport.abort()
        await asyncio.sleep(0.5)
        took = await asyncio.to_thread(_stopped_within, live.process, STOP_WITHIN)
        if took is None:
            live.process.send_signal(signal.SIGUSR1)
            await asyncio.sleep(1)
        assert took is not None, (
            f"{server} still running {STOP_WITHIN} s after SIGTERM:\n"
            + live.log.read_text()[-3000:])
        assert live.process.returncode is not None
    finally:
        stop(live)


@pytest.mark.parametrize("server", SERVERS)
async def test_sigterm_mid_game_closes_sockets_with_1012(tmp_path, server):
    """SIGTERM while a game is played: every socket closes with 1012 (service restart),
    the process exits within the window, and every action a client sent is either in
    the event log and acked, or absent and unacked: never applied without its ack."""
    record = recorded_games()[1]
    game, users = await seated_game()
    live = start(tmp_path, server=server)
    closes: list[int | None] = []
    acked: set[int] = set()
    try:
        sockets, hellos = [], []
        for user in users:
            ws = await websockets.connect(
                f"{live.ws}/ws/games/{game.pk}/", open_timeout=10,
                additional_headers={"Origin": live.http,
                                    "Authorization": f"Token {user.auth_token.key}"})
            hello = json.loads(await ws.recv())
            assert hello["type"] == "hello"
            sockets.append(ws)
            hellos.append(hello)
        spectator = await websockets.connect(f"{live.ws}/ws/games/{game.pk}/",
                                             additional_headers={"Origin": live.http})
        hellos.append(json.loads(await spectator.recv()))
        sockets.append(spectator)

        async def play(seat: int | None, ws, hello: dict) -> None:
            """Send this seat's moves as its turns come, until the socket closes."""
            game, sent = hello["game"], -1
            try:
                while True:
                    if (seat is not None and game["status"] == "active"
                            and game["state"]["turn"] == seat and game["ply"] != sent
                            and game["ply"] < record["plies"]):
                        sent = game["ply"]
                        await ws.send(json.dumps({"type": "action", "ply": sent,
                                                  "action": record["actions"][sent]}))
                    frame = json.loads(await ws.recv())
                    if frame["type"] == "event":
                        game = frame["game"]
                    elif frame["type"] == "ack":
                        acked.add(frame["ply"])
            except websockets.ConnectionClosed as exc:
                closes.append(exc.rcvd.code if exc.rcvd else None)

        tasks = [asyncio.create_task(play(seat, ws, hello))
                 for seat, (ws, hello) in enumerate(zip(sockets[:4], hellos[:4], strict=True))]
        tasks.append(asyncio.create_task(play(None, sockets[4], hellos[4])))
        # Stop the server part-way through the game.
        while len(acked) < 8:  # noqa: ASYNC110 - the plays fill `acked`
            await asyncio.sleep(0.01)
        took = await asyncio.to_thread(_stopped_within, live.process, STOP_WITHIN)
        assert took is not None, live.log.read_text()[-3000:]
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
    finally:
        stop(live)

    assert closes == [1012] * 5, closes
    plies = await database_sync_to_async(
        lambda: sorted(Event.objects.filter(game=game).values_list("ply", flat=True)))()
    assert plies == list(range(1, len(plies) + 1))
    # Every acked action is in the log (the log may hold one more whose ack the stop cut).
    assert acked <= set(plies)
    assert len(plies) - len(acked) <= 1


def test_the_worker_stops_on_sigterm_mid_bot_game(tmp_path):
    """The worker, busy playing the computer's turns, stops within the window on SIGTERM
    and leaves the event log whole (every bot move it wrote committed, in order)."""
    from games import services
    from tests.conftest import make_user
    from tests.live.servers import worker

    alice = make_user("alice")
    game = services.create_game(user=alice, kind="bloqueio",
                                bots=["hard", "hard", "hard"])
    services.resign(game_id=game.pk, user=alice)  # three hard bots play on
    with worker(tmp_path) as process:
        deadline = time.monotonic() + 60
        while Event.objects.filter(game=game).count() < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert Event.objects.filter(game=game).count() >= 3, process.log.read_text()[-2000:]
        took = _stopped_within(process, STOP_WITHIN)
        assert took is not None, process.log.read_text()[-2000:]
        assert process.returncode == 0
    plies = list(Event.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(1, len(plies) + 1))
