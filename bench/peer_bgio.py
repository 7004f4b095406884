"""The peer of bench/load.py (`--peer bgio`): boardgame.io 0.50 (bench/bgio) serving the
same recorded games to the same continuous evening.

`run(args)` starts one `node bench/bgio/server.js` (in memory; `--peer bgio-postgres`:
its PostgreSQL adapter on DATABASE_URL), plays bench/continuous.py's slots against it
and returns continuous.py's report, the node process as `servers`. What differs from
our server's run, and why:

- Set-up is boardgame.io's lobby API, as its clients use it: a slot's game is
  `POST /games/bloqueio/create {numPlayers: 4}` and four `POST .../join` (each returns
  the seat's credentials). boardgame.io has no accounts, so there are no sign-ups.
- Sockets speak socket.io (Engine.IO 4) over a plain WebSocket, with the same
  `websockets` library and JSON decoder as our client, so the load client's CPU is
  comparable between the two runs: the handful of socket.io frames a game needs is
  written here (`SocketIO`) rather than through python-socketio's client. A socket
  joins its match with `sync` (spectators with no seat), a player sends its move as
  boardgame.io's client does (`update` with a `MAKE_MOVE` action, its credentials and
  the state id it saw) and every socket counts the `update` the server broadcasts with
  the new `G.ply`; the latency of a move runs from its send until the last socket of
  its game has that update, as for ours.
- One process: boardgame.io's in-memory store lives in one process (as in issue 46's
  table); `server CPU` is that node process's, from /proc.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import time
import urllib.parse
import urllib.request
from typing import Any

import continuous
import orjson
import websockets
from load import LOCAL_HOSTS, GameRun
from processes import ROOT, describe_work_tree, free_port, stop_all

BGIO = ROOT / "bench" / "bgio"
GAME = "bloqueio"
NAMESPACE = f"/{GAME}"
EVENT = f"42{NAMESPACE},"  # a socket.io event frame in our namespace


def _post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(),
                                     method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def create_match(base: str, names: list[Any]) -> tuple[str, list[tuple[str, str]]]:
    """A match over boardgame.io's lobby API and its 4 seats taken: (match id, each
    seat's (player id, credentials))."""
    match = _post(base, f"/games/{GAME}/create", {"numPlayers": 4})["matchID"]
    seats = []
    for seat, name in enumerate(names):
        joined = _post(base, f"/games/{GAME}/{match}/join",
                       {"playerID": str(seat), "playerName": name})
        seats.append((str(joined.get("playerID", seat)), joined["playerCredentials"]))
    return match, seats


def _move(action: dict[str, Any]) -> tuple[str, list[Any]]:
    """bench/bgio/game.js's move name and arguments of a recorded action."""
    if action["type"] == "move":
        return "move", [action["to"]]
    if action["type"] == "barrier":
        return "barrier", [action["at"], action["orientation"]]
    return action["type"], []


async def connection(run: GameRun, ws_base: str, seat: tuple[str, str] | None,
                     stop: asyncio.Event, opened: asyncio.Event,
                     go: asyncio.Event) -> None:
    """One socket.io client of `run`'s match (bench/load.py's `connection` for
    boardgame.io): after its `sync` and `go`, act whenever it is this seat's turn,
    count every update, until the game's last ply or `stop`."""
    player, credentials = seat if seat else (None, None)
    match = run.game_id
    async with websockets.connect(f"{ws_base}/socket.io/?EIO=4&transport=websocket",
                                  open_timeout=60, max_queue=None) as ws:
        if not str(await ws.recv()).startswith("0"):  # Engine.IO's open packet
            raise RuntimeError("no Engine.IO open packet")
        await ws.send(f"40{NAMESPACE},")
        state: dict[str, Any] = {}
        while not state:  # the namespace's connect (then ask for the sync), the sync
            text = str(await ws.recv())
            if text == "2":
                await ws.send("3")
            elif text.startswith(f"40{NAMESPACE},"):  # events before it would be dropped
                await ws.send(EVENT + json.dumps(["sync", match, player, credentials, 4]))
            elif text.startswith(EVENT):
                name, *rest = orjson.loads(text[len(EVENT):])
                if name == "sync":
                    state = rest[1]["state"]
            elif text.startswith(f"44{NAMESPACE}"):
                raise RuntimeError(f"namespace refused: {text[:200]}")
        opened.set()
        ply = state["G"]["ply"]
        turn = state["G"]["turn"]
        state_id = state["_stateID"]
        await go.wait()

        async def act() -> None:
            if player is not None and turn == int(player) and ply < len(run.actions):
                if run.pacer:
                    await run.pacer.wait()
                name, args = _move(run.actions[ply])
                run.sent_at[ply + 1] = time.perf_counter()
                action = {"type": "MAKE_MOVE", "payload": {
                    "type": name, "args": args, "playerID": player,
                    "credentials": credentials}}
                await ws.send(EVENT + json.dumps(["update", action, state_id, match, player]))

        async def close_on_stop() -> None:
            await stop.wait()
            await ws.close()

        closer = asyncio.create_task(close_on_stop())
        try:
            await act()
            while ply < len(run.actions):
                try:
                    text = str(await ws.recv())
                except websockets.ConnectionClosedOK:
                    break
                now = time.perf_counter()
                if text == "2":  # Engine.IO's ping
                    await ws.send("3")
                    continue
                if not text.startswith(EVENT):
                    continue
                name, *rest = orjson.loads(text[len(EVENT):])
                if name != "update":
                    continue  # matchData: who is connected
                new = rest[1]
                new_ply = new["G"]["ply"]
                if new_ply <= ply:  # boardgame.io answers a refused move with the same state
                    if player is not None and turn == int(player):
                        run.errors.append(f"match {match}: move at ply {ply + 1} not taken")
                    continue
                ply, turn, state_id = new_ply, new["G"]["turn"], new["_stateID"]
                run.received(ply, now)
                await act()
        except websockets.ConnectionClosedOK:
            if not stop.is_set():
                raise
        finally:
            closer.cancel()


def spawn_server(port: int, postgres: str | None) -> subprocess.Popen[bytes]:
    """`node bench/bgio/server.js` on `port`, once it says it listens."""
    if not (BGIO / "node_modules" / "boardgame.io").is_dir():
        raise SystemExit("bench/bgio has no node_modules: run `npm ci` in bench/bgio first")
    log_dir = ROOT / "test-artifacts"
    log_dir.mkdir(exist_ok=True)
    log = open(log_dir / f"bgio-{port}.log", "wb")  # noqa: SIM115 (the server's lifetime)
    command = ["node", str(BGIO / "server.js"), "--port", str(port)]
    if postgres:
        command += ["--postgres", postgres]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log,
                            env={**os.environ, "NODE_ENV": "production"})
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    if not line.startswith("listening"):
        proc.kill()
        raise SystemExit(f"bench/bgio/server.js did not start (see {log.name}): {line!r}")
    return proc


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The continuous evening against a spawned boardgame.io server (or `--base`)."""
    if not args.continuous:
        raise SystemExit("--peer measures the continuous evening only: add --continuous")
    if args.profile or args.server_commit:
        raise SystemExit("--peer: --profile and --server-commit are for our server")
    if args.spawn > 1 or args.haproxy:
        raise SystemExit("--peer: boardgame.io's in-memory store is one process (--spawn 1)")
    postgres = None
    if args.peer == "bgio-postgres":
        postgres = os.environ.get("DATABASE_URL")
        if not postgres:
            raise SystemExit("--peer bgio-postgres needs DATABASE_URL (a database of its own)")
    proc = None
    if args.spawn:
        first, _, last = args.ports.partition("-")
        port = free_port(int(first), int(last or first)) if first else free_port()
        proc = spawn_server(port, postgres)
        base = f"http://127.0.0.1:{port}"
        pids = [proc.pid]
    elif args.base and len(args.base) == 1:
        base = args.base[0]
        pids = [int(p) for p in os.environ.get("BGIO_PID", "").split() if p]
        if not pids:
            raise SystemExit("--peer with --base: set BGIO_PID to the node server's pid")
    else:
        raise SystemExit("--peer needs --spawn 1, or one --base and BGIO_PID")
    if urllib.parse.urlparse(base).hostname not in LOCAL_HOSTS:
        raise SystemExit(f"refusing non-loopback target {base}")
    tag = secrets.token_hex(3)
    names = [[f"p{tag}g{g}s{s}" for s in range(4)] for g in range(args.games)]
    try:
        report = asyncio.run(continuous.play_slots(args, [base], pids, names, create_match,
                                                   connection))
    finally:
        if proc:
            stop_all([proc], 10)
    report.update(server=f"boardgame.io 0.50 ({'PostgreSQL' if postgres else 'in memory'})",
                  commit=describe_work_tree())
    return report

