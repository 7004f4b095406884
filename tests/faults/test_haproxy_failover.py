"""HAProxy routes a game to one of two servers; kill -9 that one and the game plays on.

Two real server processes behind a real HAProxy running deploy/haproxy.cfg (rendered by
deploy/haproxy_config.py for their ports). Every socket and REST call of the game must
land on the same process (the `X-Served-By` header names it). That process is killed
mid-game; the clients reconnect through HAProxy, which must send them to the survivor,
and every client must see every event exactly once, in order; when the dead process is
back, the game stays on the survivor. Besides: new games go to the less loaded process,
and two balancers that are peers send a game to the same process.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async

from deploy.haproxy_config import render
from games import engine, services
from games.models import Event
from tests.conftest import make_user, recorded_games
from tests.live.servers import Server, free_port, halt, live_servers, start
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
def haproxy(servers: list[Server], tmp: Path, config: Path | None = None,
            name: str = "") -> Iterator[Proxy]:
    """HAProxy on a free port in front of `servers` (web1, web2, ... in that order);
    `config` (rendered for them) and `name` (its peer name, -L) for one of several."""
    if not HAPROXY.exists():
        pytest.fail(f"{HAPROXY} is missing: apt-get install haproxy (.ci/run does)")
    if config is None:
        config = tmp / "haproxy.cfg"
        config.write_text(render([f"127.0.0.1:{s.port}" for s in servers]))
    local = ["-L", name] if name else []
    port, stats_port = free_port(), free_port()
    env = {**os.environ, "HAPROXY_BIND": f"127.0.0.1:{port}",
           "HAPROXY_STATS_BIND": f"127.0.0.1:{stats_port}", "HAPROXY_MAXCONN": "2000"}
    checked = subprocess.run([str(HAPROXY), "-c", "-q", *local, "-f", str(config)], env=env,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    log = tmp / f"haproxy{name}.log"
    process = subprocess.Popen([str(HAPROXY), "-db", *local, "-f", str(config)], env=env,
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


def served_by(url: str, token: str = "") -> str:
    """The process that answered a GET of `url` (anonymous without `token`)."""
    request = urllib.request.Request(
        url, headers={"Authorization": f"Token {token}"} if token else {})
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

        # The dead process comes back on its port: it takes new games, and this one
        # stays where it moved (nothing is split between two processes, nothing moves
        # twice).
        back = await asyncio.to_thread(start, tmp_path, port=doomed.port)
        servers[servers.index(doomed)] = back  # stopped with the others
        await asyncio.to_thread(
            wait_for, lambda: proxy.states()[home] == "UP", 30, f"{home} up again")
        rest = await asyncio.to_thread(served_by, f"{proxy.http}/api/games/{game.pk}/", token)
        assert rest == other

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


async def spectate(proxy: Proxy, game_id: int) -> Any:
    """An anonymous socket on `game_id` through `proxy`, past its hello."""
    ws = await websockets.connect(f"{proxy.ws}/ws/games/{game_id}/", open_timeout=10,
                                  additional_headers={"Origin": proxy.http})
    assert json.loads(await ws.recv())["type"] == "hello"
    return ws


async def open_games(count: int) -> list[int]:
    """`count` public games waiting for players (one creator each: a user may keep only
    a few waiting)."""
    def make(n: int) -> int:
        return services.create_game(user=make_user(f"host{n}"), kind="bloqueio").pk

    return [await database_sync_to_async(make)(n) for n in range(count)]


async def test_a_game_goes_to_the_least_loaded_process_and_stays_there(tmp_path):
    """Placed by load, then sticky (deploy/haproxy.cfg, backend `game`): each new game's
    first connection goes to the process with fewer game connections, and every later
    socket and call of the game follows it, while the sockets stay open. Six games of
    two sockets each, one after the other: every second game goes to the other process
    than the one before it (a hash of the id would ignore the load), three each."""
    games = await open_games(6)
    with live_servers(2, tmp_path) as servers, haproxy(servers, tmp_path) as proxy:
        homes, held = [], []
        for game_id in games:
            first = await spectate(proxy, game_id)
            second = await spectate(proxy, game_id)
            held += [first, second]
            rest = await asyncio.to_thread(served_by, f"{proxy.http}/api/games/{game_id}/")
            places = {first.response.headers["X-Served-By"],
                      second.response.headers["X-Served-By"], rest}
            assert len(places) == 1, (game_id, places)
            homes.append(places.pop())
        assert all(homes[n] != homes[n + 1] for n in range(0, 6, 2)), homes
        assert sorted(homes) == ["web1"] * 3 + ["web2"] * 3, homes
        for ws in held:
            await ws.close()


def show_table(proxy: Proxy) -> dict[int, str]:
    """The balancer's game table (its runtime API): game id -> server name."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(proxy.log.with_suffix(".sock")))
        sock.sendall(b"show table game\n")
        text = b"".join(iter(lambda: sock.recv(65536), b"")).decode()
    return {int(key): server for key, server in re.findall(r"key=(\d+) .*server_key=(\w+)", text)}


async def test_balancers_that_are_peers_agree_on_every_games_process(tmp_path):
    """Two balancers in front of the same processes (`haproxy_config.py --peer`, as
    docs/scaling.md runs several): a game placed by one is known to the other, which
    sends its sockets and calls to the same process, whatever its own load says."""
    games = await open_games(3)
    peers = [("lb1", f"127.0.0.1:{free_port()}"), ("lb2", f"127.0.0.1:{free_port()}")]
    with live_servers(2, tmp_path) as servers:
        text = render([f"127.0.0.1:{s.port}" for s in servers], peers=peers)
        configs = []
        for name, _ in peers:  # each with a runtime API socket, to read its table
            config = tmp_path / f"haproxy{name}.cfg"
            config.write_text(text.replace(
                "global\n", f"global\n    stats socket {tmp_path}/haproxy{name}.sock\n", 1))
            configs.append(config)
        with haproxy(servers, tmp_path, configs[0], "lb1") as one, \
                haproxy(servers, tmp_path, configs[1], "lb2") as two:
            held = []
            for game_id in games:
                held.append(await spectate(one, game_id))
                home = held[-1].response.headers["X-Served-By"]
                await asyncio.to_thread(wait_for, lambda g=game_id: g in show_table(two),
                                        10, f"lb2 to learn game {game_id}")
                assert show_table(two)[game_id] == home
                held.append(await spectate(two, game_id))
                assert held[-1].response.headers["X-Served-By"] == home
                rest = await asyncio.to_thread(served_by, f"{two.http}/api/games/{game_id}/")
                assert rest == home
            for ws in held:
                await ws.close()
