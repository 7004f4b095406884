"""WebSocket clients in worker processes, shared by bench/soak.py and bench/fanout.py.

Not a benchmark itself. The clients run in several processes (multiprocessing, spawn) so
one Python event loop does not become the bottleneck; the parent drives them over pipes
with small commands (`open`, `move`, `play`, `collect`, `stats`, `close`). Every time
stamp is `time.monotonic()`, which is CLOCK_MONOTONIC on Linux: one system-wide clock,
so stamps taken in different processes are comparable (`ClientPool` checks this). The
servers they talk to, and the report, are bench/wsbench.py's.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing as mp
import os
import re
import resource
import signal
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import suppress
from multiprocessing.connection import Connection
from typing import Any

import websockets

Key = tuple[int, int]  # (game id, ply)
# A spectator only needs an event's ply: reading it off the text skips decoding the
# ~2 KB game state a thousand times per move, which would make the client the bottleneck.
EVENT_FRAME = re.compile(r'\{"type":\s?"event",')
PLY = re.compile(r'"ply":\s?(\d+)')

# -- the client side: one Worker per process, one Client per socket ---------------------------


class Client:
    """One WebSocket: answers pings, records every event's arrival, plays if it is told to.

    `spec`: {"url", "token" (or None), "game" (id or None), "actions" (players that play:
    the recorded actions, or None)}.
    """

    def __init__(self, worker: Worker, spec: dict[str, Any]) -> None:
        self.worker = worker
        self.spec = spec
        self.game: int | None = spec.get("game")
        self.actions: list[dict[str, Any]] | None = spec.get("actions")
        self.ws: Any = None
        self.seat: int | None = None
        self.turn: int | None = None
        self.ply = 0
        self.status = ""
        self.opened = False
        self.closing = False
        self.alive = False

    async def run(self, opened: asyncio.Future[bool]) -> None:
        url = self.spec["url"]
        origin = url.split("/ws/", 1)[0].replace("ws://", "http://")
        headers = {"Origin": origin}
        if self.spec.get("token"):
            headers["Authorization"] = f"Token {self.spec['token']}"
        worker = self.worker
        try:
            # No client-side protocol pings (browsers send none); max_queue=None: frames
            # are taken off the socket as they come, like load.py.
            async with websockets.connect(url, additional_headers=headers, open_timeout=30,
                                          ping_interval=None, max_queue=None) as ws:
                self.ws = ws
                hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if hello.get("type") != "hello":
                    raise RuntimeError(f"first frame {hello.get('type')} {hello.get('code')}")
                if self.game is not None:
                    self.seat = hello["you"]["seat"]
                    self.ply = hello["game"]["ply"]
                    self.turn = hello["game"]["state"].get("turn")
                self.opened = self.alive = True
                opened.set_result(True)
                async for raw in ws:
                    await self.on_frame(raw)
            if not self.closing:
                worker.closed[str(ws.close_code)] += 1
        except Exception as exc:
            if not opened.done():
                worker.failures.append(f"{self.spec['url']}: {exc!r}"[:300])
                opened.set_result(False)
            elif not self.closing:
                worker.closed[str(getattr(self.ws, "close_code", None) or repr(exc)[:60])] += 1
        finally:
            self.alive = False
            worker.progress.set()

    async def on_frame(self, raw: str | bytes) -> None:
        now = time.monotonic()
        worker = self.worker
        if self.actions is None and self.game is not None and isinstance(raw, str) \
                and EVENT_FRAME.match(raw):
            found = PLY.search(raw, raw.find('"event":'))
            if found:
                worker.frames["event"] += 1
                self.on_event(int(found.group(1)), now)
                return
        frame = json.loads(raw)
        kind = frame.get("type")
        worker.frames[kind] += 1
        if kind == "event":
            game = frame["game"]
            self.turn, self.status = game["state"].get("turn"), game["status"]
            self.on_event(frame["event"]["ply"], now)
            if self.actions is not None and worker.go.is_set():
                await self.act()
        elif kind == "ping":
            worker.pings += 1
            await self.ws.send('{"type": "pong"}')
        elif kind == "notify":
            worker.notes[(frame["game_id"], frame["game"]["ply"])].append(now)
        elif kind == "error":
            worker.errors.append(f"{frame.get('code')}: {frame.get('detail')}"[:200])

    def on_event(self, ply: int, now: float) -> None:
        assert self.game is not None
        if ply != self.ply + 1:
            self.worker.gaps += 1  # the server promises ply order without gaps
        self.ply = ply
        self.worker.arrivals[(self.game, ply)].append(now)
        self.worker.progress.set()

    async def act(self) -> bool:
        """Send the recorded action for the current ply if it is this seat's turn."""
        assert self.actions is not None and self.game is not None
        if self.seat is None or self.turn != self.seat or self.ply >= len(self.actions):
            return False
        self.worker.sent[(self.game, self.ply + 1)] = time.monotonic()
        await self.ws.send(json.dumps({"type": "action", "action": self.actions[self.ply],
                                       "ply": self.ply, "ref": self.ply}))
        return True


class Worker:
    """The clients of one process and the answers to the parent's commands."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.clients: list[Client] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.go = asyncio.Event()
        self.progress = asyncio.Event()  # set on every event frame and every closed socket
        self.sent: dict[Key, float] = {}
        self.arrivals: defaultdict[Key, list[float]] = defaultdict(list)
        self.notes: defaultdict[Key, list[float]] = defaultdict(list)
        self.frames: Counter[str] = Counter()
        self.closed: Counter[str] = Counter()
        self.failures: list[str] = []
        self.errors: list[str] = []
        self.pings = 0
        self.gaps = 0

    async def serve(self) -> None:
        while True:
            try:
                command, kwargs = await asyncio.to_thread(self.conn.recv)
            except (EOFError, OSError):
                return
            try:
                result = await getattr(self, f"cmd_{command}")(**kwargs)
            except Exception as exc:
                result = {"error": repr(exc)}
            self.conn.send(result)
            if command == "exit":
                return

    async def cmd_clock(self) -> float:
        return time.monotonic()

    async def until(self, done: Callable[[], bool], seconds: float) -> bool:
        """Wait until `done()` (checked after each event frame) or `seconds` pass."""
        deadline = time.monotonic() + seconds
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.progress.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self.progress.wait(), min(left, 0.5))
        return True

    async def cmd_open(self, specs: list[dict[str, Any]], ramp: int,
                       wait: float) -> dict[str, Any]:
        """Open `specs` in batches of `ramp`, each batch waiting for its hellos."""
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        for i in range(0, len(specs), ramp):
            batch = []
            for spec in specs[i:i + ramp]:
                client = Client(self, spec)
                opened: asyncio.Future[bool] = loop.create_future()
                self.clients.append(client)
                self.tasks.append(asyncio.create_task(client.run(opened)))
                batch.append(opened)
            await asyncio.wait(batch, timeout=wait)
        return {"opened": sum(c.opened for c in self.clients), "failed": len(self.failures),
                "seconds": time.monotonic() - started}

    async def cmd_move(self, games: list[int]) -> dict[Key, float]:
        """For each game, the player whose turn it is (if held here) sends its action."""
        wanted, sent = set(games), {}
        for client in self.clients:
            if client.game in wanted and client.alive and client.actions is not None \
                    and await client.act():
                key = (client.game, client.ply + 1)
                sent[key] = self.sent[key]
        return sent

    async def cmd_play(self, wait: float) -> dict[str, Any]:
        """Let the players play their recorded games to the end (or for `wait` s)."""
        players = [c for c in self.clients if c.actions is not None and c.alive]
        self.go.set()
        for client in players:
            await client.act()
        await self.until(lambda: not any(
            c.alive and c.status != "finished" and c.ply < len(c.actions or ())
            for c in players), wait)
        return {"sent": self.sent, "finished": sum(c.status == "finished" for c in players)}

    def lacking(self, key: Key) -> tuple[int, int]:
        """Sockets of the key's game without that ply: (still open, closed since)."""
        behind = [c for c in self.clients
                  if c.opened and c.game == key[0] and c.ply < key[1]]
        alive = sum(c.alive for c in behind)
        return alive, len(behind) - alive

    async def cmd_collect(self, keys: list[Key], wait: float) -> dict[str, Any]:
        """Arrival stamps of `keys`, once every open socket of their games here has them
        (or after `wait`), with how many sockets lack each: (still open, closed)."""
        await self.until(lambda: not any(self.lacking(k)[0] for k in keys), wait)
        return {"arrivals": {k: self.arrivals.get(k, []) for k in keys},
                "lacking": {k: self.lacking(k) for k in keys},
                "sockets": Counter(c.game for c in self.clients if c.opened),
                "notes": {k: self.notes.get(k, []) for k in keys}}

    async def cmd_stats(self) -> dict[str, Any]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {"sockets": len(self.clients), "opened": sum(c.opened for c in self.clients),
                "open": sum(c.alive for c in self.clients), "failed": len(self.failures),
                "failure_samples": self.failures[:3], "closed": dict(self.closed),
                "errors": len(self.errors), "error_samples": self.errors[:3],
                "pings": self.pings, "gaps": self.gaps, "frames": dict(self.frames),
                "cpu_s": usage.ru_utime + usage.ru_stime, "peak_rss_mib": usage.ru_maxrss / 1024}

    async def cmd_close(self, wait: float) -> int:
        live = [c for c in self.clients if c.alive]
        for client in live:
            client.closing = True
        await asyncio.wait([asyncio.create_task(c.ws.close()) for c in live] or
                           [asyncio.create_task(asyncio.sleep(0))], timeout=wait)
        return len(live)

    async def cmd_exit(self) -> bool:
        for task in self.tasks:
            task.cancel()
        return True


def worker_main(conn: Connection, lifetime: float) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us, also on ctrl-C
    # Bounded even if the parent is killed without a word.
    threading.Timer(lifetime, os._exit, (3,)).start()
    asyncio.run(Worker(conn).serve())
    os._exit(0)


class ClientPool:
    """`count` client processes, driven over pipes; `call_all` waits with a deadline."""

    def __init__(self, count: int, lifetime: float) -> None:
        ctx = mp.get_context("spawn")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        for _ in range(count):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=worker_main, args=(child, lifetime), daemon=True)
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)

    def call(self, indexes: list[int], command: str, timeout: float,
             kwargs: list[dict[str, Any]] | None = None) -> list[Any]:
        for n, i in enumerate(indexes):
            self.conns[i].send((command, kwargs[n] if kwargs else {}))
        deadline = time.monotonic() + timeout
        results = []
        for i in indexes:
            if not self.conns[i].poll(max(0.0, deadline - time.monotonic())):
                raise TimeoutError(f"client process {i} did not answer {command!r} in time")
            result = self.conns[i].recv()
            if isinstance(result, dict) and "error" in result:
                raise RuntimeError(f"client process {i}, {command}: {result['error']}")
            results.append(result)
        return results

    def call_all(self, command: str, timeout: float, **kwargs: Any) -> list[Any]:
        every = range(len(self.conns))
        return self.call(list(every), command, timeout, [kwargs for _ in every])

    def check_clock(self) -> str:
        """Each process's monotonic stamp falls between the parent's send and receive."""
        for i in range(len(self.conns)):
            before = time.monotonic()
            (stamp,) = self.call([i], "clock", 30)
            after = time.monotonic()
            if not before <= stamp <= after:
                raise SystemExit(f"time.monotonic() is not shared across processes "
                                 f"({before} <= {stamp} <= {after} fails)")
        info = time.get_clock_info("monotonic")
        return f"{info.implementation}, shared by all client processes (checked)"

    def cpu_seconds(self) -> float:
        return sum(s["cpu_s"] for s in self.call_all("stats", 60))

    def close(self) -> None:
        for conn in self.conns:
            with suppress(OSError):
                conn.send(("exit", {}))
        for proc in self.procs:
            proc.join(5)
            if proc.is_alive():
                proc.terminate()
                proc.join(5)


def spread(items: list[Any], count: int) -> list[list[Any]]:
    """Round-robin `items` into `count` lists."""
    return [items[i::count] for i in range(count)]


def percentiles(values: list[float], prefix: str = "") -> dict[str, float | None]:
    """p50/p95/p99/max/mean in ms of seconds `values` (None when empty)."""
    xs = sorted(values)

    def pct(p: float) -> float | None:
        return round(xs[min(len(xs) - 1, int(p * len(xs)))] * 1000, 2) if xs else None

    return {f"{prefix}p50_ms": pct(0.50), f"{prefix}p95_ms": pct(0.95),
            f"{prefix}p99_ms": pct(0.99), f"{prefix}max_ms": pct(1.0),
            f"{prefix}mean_ms": round(sum(xs) / len(xs) * 1000, 2) if xs else None}


def deliveries(sent: dict[Key, float], collected: list[dict[str, Any]]) -> dict[str, Any]:
    """Per move (key), combining the arrival stamps of every client process: the time from
    the send until the LAST socket of its game had it (`every`) and until the first;
    sockets that never got it while open (`lost`) or had closed before (`dropped`)."""
    arrivals: defaultdict[Key, list[float]] = defaultdict(list)
    lost = dropped = 0
    incomplete: set[Key] = set()
    for part in collected:
        for key, stamps in part["arrivals"].items():
            arrivals[key].extend(stamps)
        for key, (alive, closed) in part["lacking"].items():
            lost += alive
            dropped += closed
            if alive or closed:
                incomplete.add(key)
    got = [(arrivals[k], at) for k, at in sent.items() if arrivals.get(k)]
    return {"every": [max(a) - at for a, at in got], "first": [min(a) - at for a, at in got],
            "lost": lost, "dropped": dropped, "incomplete": len(incomplete)}
