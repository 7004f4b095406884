"""Nothing a client does stalls anyone else's game (issue: one socket closed for an
oversize message froze its game's live events for ~10 s; one that stopped reading froze
every game on its process).

Each test runs a real server process (uvicorn and Daphne), watchers that read every
socket of a game, and a misbehaving client beside them; every watcher must hold every
event within `WITHIN` s of the move's REST answer. The watchers read as a browser does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async

from bloqueio_site.serve import SERVERS
from games import services
from tests.conftest import recorded_games
from tests.live.raw_ws import RawSocket
from tests.live.servers import http_json, live_servers
from tests.live.ws_client import seated_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WITHIN = 1.0  # what "live" means to a player: every event within a second of its move
TOO_BIG = 1024 * 1024 + 50 * 1024  # over the 1 MiB message cap


class Watcher:
    """One socket of a game, read continuously; notes when each ply arrived."""

    def __init__(self, name: str, base: str, game_id: int, token: str | None = None):
        self.name, self.base, self.game_id, self.token = name, base, game_id, token
        self.arrived: dict[int, float] = {}
        self.closed: int | None = None

    async def start(self) -> None:
        headers = {"Origin": self.base.replace("ws://", "http://")}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        self.ws = await websockets.connect(f"{self.base}/ws/games/{self.game_id}/",
                                           additional_headers=headers, open_timeout=10,
                                           max_size=None)
        hello = json.loads(await self.ws.recv())
        assert hello["type"] == "hello"
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                if frame["type"] == "event":
                    self.arrived.setdefault(frame["event"]["ply"], loop.time())
                elif frame["type"] == "events":
                    for event in frame["events"]:
                        self.arrived.setdefault(event["ply"], loop.time())
                elif frame["type"] == "ping":
                    await self.ws.send('{"type": "pong"}')
        except websockets.ConnectionClosed as exc:
            self.closed = exc.rcvd.code if exc.rcvd else None

    async def stop(self) -> None:
        await self.ws.close()
        await self.task


async def _watch(base: str, game_id: int, users: list[Any]) -> list[Watcher]:
    watchers = [Watcher(u.username, base, game_id, u.auth_token.key) for u in users]
    watchers.append(Watcher("spectator", base, game_id))
    for watcher in watchers:
        await watcher.start()
    return watchers


async def _play(http: str, game_id: int, users: list[Any], actions: list[dict[str, Any]],
                watchers: list[Watcher], pause: float = 0.0) -> list[str]:
    """Play `actions` over REST, one after the other; after each, every watcher must get
    the event within WITHIN s. Returns what was late or missing, in words."""
    loop = asyncio.get_running_loop()
    late: list[str] = []
    tokens = {u.username: u.auth_token.key for u in users}
    status, game = await asyncio.to_thread(http_json, "GET", f"{http}/api/games/{game_id}/")
    assert status == 200, game
    for action in actions:
        ply, turn = game["ply"], game["state"]["turn"]
        username = game["seats"][turn]["username"]
        status, body = await asyncio.to_thread(
            http_json, "POST", f"{http}/api/games/{game_id}/actions/",
            {"action": action, "ply": ply}, tokens[username])
        assert status == 201, body
        answered = loop.time()
        game = body["game"]
        deadline = answered + WITHIN
        while loop.time() < deadline and any(  # noqa: ASYNC110 - watchers note arrivals
                ply + 1 not in w.arrived for w in watchers):
            await asyncio.sleep(0.01)
        for watcher in watchers:
            at = watcher.arrived.get(ply + 1)
            if at is None or at - answered > WITHIN:
                late.append(f"{watcher.name}: ply {ply + 1} "
                            + ("missing" if at is None else f"{at - answered:.2f} s late"))
        if game["status"] != "active":
            break
        if pause:
            await asyncio.sleep(pause)
    return late


def _chatter(game: Any, author: Any, count: int) -> None:
    """`count` long messages in the spectators' room (which a spectator reads)."""
    from chat.models import ChatMessage

    ChatMessage.objects.bulk_create([
        ChatMessage(game=game, author=author, room="spectators", text=f"{n:03} " + "x" * 270)
        for n in range(count)])


async def _second_game(users: list[Any]) -> int:
    def create() -> int:
        game = services.create_game(user=users[0], kind="bloqueio")
        for user in users[1:]:
            services.join_game(game_id=game.pk, user=user)
        return game.pk

    return await database_sync_to_async(create)()


@pytest.mark.parametrize("server", SERVERS)
async def test_oversize_frames_that_never_finish_closing_freeze_nobody(tmp_path, server):
    """An anonymous visitor and every player's second tab send a message over the cap and
    then never answer the close handshake: every other socket of the game still gets
    every move at once."""
    game, users = await seated_game()
    actions = recorded_games()[0]["actions"][:12]
    with live_servers(1, tmp_path, kinds=[server]) as (live,):
        watchers = await _watch(live.ws, game.pk, users)
        offenders = [RawSocket(f"{live.ws}/ws/games/{game.pk}/")]
        offenders += [RawSocket(f"{live.ws}/ws/games/{game.pk}/",
                                {"Authorization": f"Token {u.auth_token.key}"})
                      for u in users]
        for offender in offenders:
            # The server may refuse the frame from its header and close before the rest
            # arrives: closing with unread bytes in its buffer resets the connection.
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                await asyncio.to_thread(offender.send_frame, b'{"type":"ping","x":"'
                                        + b"x" * TOO_BIG + b'"}')
        late = await _play(live.http, game.pk, users, actions, watchers, pause=0.2)
        for watcher in watchers:
            await watcher.stop()
        for offender in offenders:
            offender.close()
    assert late == []
    assert all(w.closed is None for w in watchers)  # nobody else was closed


@pytest.mark.parametrize("server", SERVERS)
async def test_a_socket_that_never_reads_stalls_no_game(tmp_path, server):
    """A spectator with a 4 KiB receive buffer asks for the whole game and its chat again
    and again (within its sync budget) and never reads: the game's other sockets, and
    another game's on the same process, get every event at once; under uvicorn the
    stalled socket is closed (its outbox overflowed) and the server lets go of it. (A
    send queue of 64 KiB instead of 2 MiB, so that a few answers overflow it.)"""
    game, users = await seated_game()
    other = await _second_game(users)
    records = recorded_games()
    await database_sync_to_async(_chatter)(game, users[0], 200)
    small = {"WEBSOCKET_SEND_QUEUE_BYTES": str(64 * 1024)}
    with live_servers(1, tmp_path, kinds=[server], env=small) as (live,):
        watchers = await _watch(live.ws, game.pk, users)
        others = await _watch(live.ws, other, users)
        # Part of a game first, so that every `sync` answer is large.
        assert await _play(live.http, game.pk, users, records[1]["actions"][:40],
                           watchers) == []
        stalled = RawSocket(f"{live.ws}/ws/games/{game.pk}/", receive_buffer=4096)
        # ~60 KB an answer (the events and 200 chat messages): together more than the
        # kernel's buffer, the transport's and the queue hold; paced within the socket's
        # sync budget (games.live.consumers.SYNC_PER_SECOND), so every one is answered.
        let_go = False  # the server closed the stalled socket and then cut it off
        for _ in range(12):
            try:
                await asyncio.to_thread(stalled.send_json,
                                        {"type": "sync", "after": 0, "chat_after": 0})
            except (ConnectionResetError, BrokenPipeError):
                let_go = True
                break
            await asyncio.sleep(0.5)
        # The game goes on, and a whole other game is played on the same process.
        late = await _play(live.http, game.pk, users, records[1]["actions"][40:60], watchers)
        late += await _play(live.http, other, users, records[2]["actions"], others)
        for watcher in watchers + others:
            await watcher.stop()
        # The server closed the stalled socket (1013: its outbox overflowed) and then let
        # go of it: reading what is left ends in a closed connection, not a socket the
        # server still holds (under Daphne too: a burst of answers overflows the bound
        # before Twisted takes them).
        def drained() -> bool:
            stalled.sock.settimeout(15)
            began = time.monotonic()
            try:
                while time.monotonic() - began < 15:
                    if not stalled.sock.recv(1 << 20):
                        return True
            except ConnectionResetError:
                return True
            except TimeoutError:
                return False
            return False

        assert let_go or await asyncio.to_thread(drained)
        stalled.close()
    assert late == []
