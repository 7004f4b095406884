"""HAProxy routes a game to one of two servers; kill -9 that one and the game plays on.

Two real Daphne processes behind a real HAProxy running deploy/haproxy.cfg (rendered by
deploy/haproxy_config.py for their ports). Every socket and REST call of the game must
land on the same process (the `X-Served-By` header names it). That process is killed
mid-game; the clients reconnect through HAProxy, which must send them to the survivor,
and every client must see every event exactly once, in order.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async

from deploy.haproxy_config import render
from games import engine
from games.models import Event
from tests.conftest import recorded_games
from tests.live.servers import Server, free_port, halt, live_servers
from tests.live.ws_client import Client, play_through_failover, seated_game, seen

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

HAPROXY = Path("/usr/sbin/haproxy")


@dataclass
class Proxy(Server):
    """An HAProxy process: a Server (port, process, log) with its stats page's port."""

    stats_port: int = 0

    def states(self) -> dict[str, str]:
        """Backend `game`'s servers and their state (UP, DOWN, ...) from the stats page."""
        url = f"http://127.0.0.1:{self.stats_port}/haproxy-stats;csv"
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode().removeprefix("# ")
        return {row["svname"]: row["status"] for row in csv.DictReader(io.StringIO(text))
                if row["pxname"] == "game" and row["svname"].startswith("web")}


def wait_for(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@contextmanager
def haproxy(servers: list[Server], tmp: Path) -> Iterator[Proxy]:
    """HAProxy on a free port in front of `servers` (web1, web2, ... in that order)."""
    if not HAPROXY.exists():
        pytest.fail(f"{HAPROXY} is missing: apt-get install haproxy (.ci/run does)")
    config = tmp / "haproxy.cfg"
    config.write_text(render([f"127.0.0.1:{s.port}" for s in servers]))
    port, stats_port = free_port(), free_port()
    env = {**os.environ, "HAPROXY_BIND": f"127.0.0.1:{port}",
           "HAPROXY_STATS_BIND": f"127.0.0.1:{stats_port}", "HAPROXY_MAXCONN": "2000"}
    checked = subprocess.run([str(HAPROXY), "-c", "-q", "-f", str(config)], env=env,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    log = tmp / "haproxy.log"
    process = subprocess.Popen([str(HAPROXY), "-db", "-f", str(config)], env=env,
                               stdout=log.open("wb"), stderr=subprocess.STDOUT)
    proxy = Proxy(port, process, log, stats_port)
    try:
        def all_up() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"haproxy exited: {log.read_text()[-2000:]}")
            try:
                states = proxy.states()
            except OSError:
                return False
            return len(states) == len(servers) and set(states.values()) == {"UP"}

        wait_for(all_up, 30, "haproxy to see every server up")
        yield proxy
    finally:
        halt(process)


def served_by(url: str, token: str) -> str:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(request, timeout=15) as response:
        return str(response.headers["X-Served-By"])


class Recorder:
    """Wraps a connection: notes each event/events frame's plies, in arrival order."""

    def __init__(self, ws: Any, frames: list[tuple[str, list[int]]]) -> None:
        self._ws = ws
        self._frames = frames

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)

    async def recv(self) -> str:
        raw = await self._ws.recv()
        frame = json.loads(raw)
        if frame["type"] == "event":
            self._frames.append(("event", [frame["event"]["ply"]]))
        elif frame["type"] == "events":
            self._frames.append(("events", [e["ply"] for e in frame["events"]]))
        return str(raw)


@dataclass
class RoutedClient(Client):
    """A Client that notes, per connection, the process HAProxy chose and the frames."""

    served_by: list[str] = field(default_factory=list)
    connections: list[tuple[int, list[tuple[str, list[int]]]]] = field(default_factory=list)

    async def connect(self, base: str | None = None) -> None:
        await super().connect(base)
        self.served_by.append(self.ws.response.headers["X-Served-By"])
        assert self.game is not None
        frames: list[tuple[str, list[int]]] = []
        self.connections.append((self.game["ply"], frames))  # (hello's ply, frames)
        self.ws = Recorder(self.ws, frames)

    def duplicates_and_gaps(self) -> list[str]:
        """The server's per-connection promise (docs/realtime.md): after `hello` at ply
        P, live `event` frames come P+1, P+2, ... with none repeated or skipped; an
        `events` frame (a `sync` answer or a catch-up) is contiguous and live events go
        on after its last ply."""
        wrong = []
        for n, (ply, frames) in enumerate(self.connections):
            cursor = ply
            for kind, plies in frames:
                if kind == "event":
                    if plies[0] != cursor + 1:
                        wrong.append(f"connection {n}: event {plies[0]} after {cursor}")
                    cursor = plies[0]
                elif plies:
                    if plies != list(range(plies[0], plies[-1] + 1)):
                        wrong.append(f"connection {n}: events {plies}")
                    cursor = max(cursor, plies[-1])
        return wrong


async def test_a_game_fails_over_to_the_surviving_server(tmp_path):
    record = recorded_games()[5]
    actions = record["actions"]
    game, users = await seated_game()

    with live_servers(2, tmp_path) as servers, haproxy(servers, tmp_path) as proxy:
        names = {f"web{n}": server for n, server in enumerate(servers, start=1)}
        clients = [RoutedClient(u.username, proxy.ws, game.pk, u.auth_token.key, actions)
                   for u in users]
        clients += [RoutedClient(f"spectator-{n}", proxy.ws, game.pk) for n in (1, 2)]
        for client in clients:
            await client.connect()

        # One process holds every socket of the game and answers its REST calls.
        (home,) = {c.served_by[0] for c in clients}
        token = users[0].auth_token.key
        rest = await asyncio.to_thread(served_by, f"{proxy.http}/api/games/{game.pk}/", token)
        assert rest == home
        doomed = names[home]
        (other,) = set(names) - {home}

        tasks = [asyncio.create_task(play_through_failover(c, proxy.ws, 150, 0.2))
                 for c in clients]
        await seen(clients[-1], record["plies"] // 2)
        doomed.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(doomed.process.wait, 10)
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=120)

        # The game (sockets and REST alike) now lives on the survivor, and HAProxy's
        # health checks have taken the dead process out.
        rest = await asyncio.to_thread(served_by, f"{proxy.http}/api/games/{game.pk}/", token)
        assert rest == other
        await asyncio.to_thread(
            wait_for, lambda: proxy.states()[home] == "DOWN", 30, f"{home} marked down")
        assert proxy.states()[other] == "UP"
        for client in clients:
            await client.close()

    rules = engine.get("bloqueio")
    final = rules.replay(actions)
    plies = await database_sync_to_async(
        lambda: list(Event.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    )()
    assert plies == list(range(1, record["plies"] + 1))  # no gap, no duplicate
    for client in clients:
        assert len(client.served_by) >= 2, client.name  # it did lose its connection
        assert client.served_by[0] == home, client.name
        assert set(client.served_by[1:]) == {other}, (client.name, client.served_by)
        assert [e["ply"] for e in client.events] == plies, client.name
        assert [e["action"] for e in client.events] == actions, client.name
        assert client.duplicates_and_gaps() == [], client.name
        assert client.game["state"] == final.to_json(), client.name
        assert client.game["result"] == rules.result(final).to_json(), client.name
