"""The continuous workload of bench/load.py (`--continuous`): a busy evening, not the
steady middle of games started together.

G match slots, each with its own 4 players (signed up over the API beforehand) and S
spectators. A slot creates a game over the API (create + 3 joins), opens its 4 + S
sockets, waits for every `hello`, plays a recorded game to its end, closes its sockets and
at once starts the next game. So games start and end, and sockets open and close, all
through the measured window, as on a real site.

The first games of all G slots start together, a burst no evening has: the warm-up
(`--warmup` seconds) begins once every slot's first game is under way (all its hellos
in, or given up on after 60 s, an error; how long the wave took is reported as
`first_wave_s`), so the window measures the evening that follows, whatever G is. Then
the window opens for `--continuous` seconds: it counts every move whose event reached
every socket of its game inside the window (moves/s, latency from the sender's send
until the last socket has it), every game started and finished in it (a start: from
the create request until every socket has its `hello`), errors, the server processes'
CPU over the window and the load client's own (it shares the machine: a client near a
core's worth would be what limits the figures). `--profile PREFIX` runs py-spy on the
servers over the window. Loopback only; it ends `--continuous` seconds after the window
opens (`--duration` bounds the lockstep mode).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from load import (
    RECORDED,
    GameRun,
    api,
    connection,
    register,
    server_pids,
)
from pacing import Pacer
from processes import Window, budget, pause_collector

# The first wave's bound: past it the window opens anyway, with one more error saying
# so, rather than never (each slot that could not start has its own errors too).
FIRST_WAVE_TIMEOUT_S = 120


@dataclass
class WindowRun(GameRun):
    """A game whose move latencies count only inside the window: [opens, closes], one
    list shared by every game and set when the window opens."""

    window: list[float] = field(default_factory=lambda: [float("inf"), float("inf")])
    timed: list[tuple[float, int]] = field(default_factory=list)  # (sent at, ply) of each latency

    def received(self, ply: int, now: float) -> None:
        count = self.seen.get(ply, 0) + 1
        self.seen[ply] = count
        if count == self.connections:
            if self.window[0] <= now <= self.window[1]:
                self.latencies.append(now - self.sent_at[ply])
                self.timed.append((self.sent_at[ply], ply))
            if ply == len(self.actions):
                self.done.set()


@dataclass
class Tally:
    runs: list[WindowRun] = field(default_factory=list)
    starts: list[tuple[float, float]] = field(default_factory=list)  # (ready at, took)
    finished: list[float] = field(default_factory=list)  # when each game ended
    errors: list[str] = field(default_factory=list)
    # Slots whose first game is not yet under way; `first_wave` is set when none is left.
    first_wave_left: int = 0
    first_wave: asyncio.Event = field(default_factory=asyncio.Event)

    def started(self, ready_at: float, took: float, first: bool) -> None:
        self.starts.append((ready_at, took))
        if first:
            self.first_wave_left -= 1
            if self.first_wave_left <= 0:
                self.first_wave.set()


def create_game(base: str, tokens: list[str]) -> tuple[int, list[Any]]:
    """Our server's set-up of a game, as its clients do it: the first player creates it
    over the API and the 3 others join; what each socket presents (its seat's token)."""
    game = api(base, "POST", "/api/games/", {"kind": "bloqueio"}, tokens[0])
    for token in tokens[1:]:
        api(base, "POST", f"/api/games/{game['id']}/join/", {}, token)
    return int(game["id"]), list(tokens)


# How a slot sets up a game (blocking, run on the pool: `base`, the slot's tokens ->
# the game's id and what each seat's socket presents) and plays one socket of it
# (`load.connection`'s signature); bench/peer_bgio.py passes boardgame.io's.
Create = Callable[[str, list[Any]], tuple[Any, list[Any]]]
Connect = Callable[..., Awaitable[None]]


async def _slot(n: int, base: str, ws_bases: list[str], tokens: list[Any],
                games: list[dict[str, Any]], args: argparse.Namespace, window: list[float],
                stop: asyncio.Event, tally: Tally, pool: ThreadPoolExecutor,
                create: Create, connect: Connect, pacer: Pacer | None) -> None:
    loop = asyncio.get_running_loop()
    ws_base = ws_bases[n % len(ws_bases)]
    played = n
    first = True
    while not stop.is_set():
        record = games[played % len(games)]
        played += args.games
        began = time.perf_counter()
        try:
            game_id, seats = await loop.run_in_executor(pool, create, base, tokens)
        except Exception as exc:
            tally.errors.append(f"set-up: {exc}")
            await asyncio.sleep(1)
            continue
        run = WindowRun(game_id, record["actions"], 4 + args.spectators, pacer=pacer,
                        window=window)
        opened = [asyncio.Event() for _ in range(run.connections)]
        go = asyncio.Event()  # the first move waits for every socket's hello
        tasks = [asyncio.create_task(connect(run, ws_base, seat, stop, event, go))
                 for seat, event in zip([*seats, *([None] * args.spectators)], opened,
                                        strict=True)]
        try:
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 60)
        except TimeoutError:
            tally.errors.append(f"game {run.game_id}: not every socket got its hello")
        go.set()
        tally.started(time.perf_counter(), time.perf_counter() - began, first)
        first = False
        done = asyncio.create_task(run.done.wait())
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait({done, stopped}, return_when=asyncio.FIRST_COMPLETED)
        done.cancel()
        stopped.cancel()
        if run.done.is_set():
            tally.finished.append(time.perf_counter())
        results = await asyncio.gather(*tasks, return_exceptions=True)
        tally.errors += run.errors + [repr(r) for r in results if isinstance(r, BaseException)]
        tally.runs.append(run)


def _dump(path: str, tally: Tally, opens: float) -> None:
    """`--latencies PATH`: one line a timed move, `sent latency game ply` (seconds after
    the window opened, ms), sorted by send time: where the slow moves cluster. The first
    line gives the window's opening on the monotonic clock that other processes' logs
    (a collector's, `time.perf_counter()`) can be lined up with; lines `# start B R`
    each game start (its create sent, every hello in; seconds after the opening)."""
    rows = sorted((sent - opens, 1000 * took, r.game_id, ply) for r in tally.runs
                  for took, (sent, ply) in zip(r.latencies, r.timed, strict=True))
    with open(path, "w") as out:
        out.write(f"# window opened at {opens:.4f} (time.perf_counter)\n")
        out.writelines(f"# start {ready - took - opens:.4f} {ready - opens:.4f}\n"
                       for ready, took in sorted(tally.starts))
        out.writelines(f"{sent:.4f} {took:.2f} {game} {ply}\n" for sent, took, game, ply in rows)


async def main_async(args: argparse.Namespace, bases: list[str],
                     pids: list[int] | None = None) -> dict[str, Any]:
    base0 = bases[0]
    loop = asyncio.get_running_loop()
    tag = secrets.token_hex(3)
    print(f"signing up {4 * args.games} players ...", flush=True)
    with ThreadPoolExecutor(max(args.setup_concurrency, args.games)) as pool:
        tokens = await asyncio.gather(*[
            loop.run_in_executor(pool, register, base0, f"c{tag}g{g}s{s}")
            for g in range(args.games) for s in range(4)])
    seats = [list(tokens[4 * g:4 * g + 4]) for g in range(args.games)]
    return await play_slots(args, bases, pids, seats, create_game, connection)


async def play_slots(args: argparse.Namespace, bases: list[str], pids: list[int] | None,
                     seats: list[list[Any]], create: Create, connect: Connect
                     ) -> dict[str, Any]:
    """The evening itself: `args.games` slots, slot n with the players `seats[n]`, each
    game set up by `create` and each socket played by `connect`."""
    games = [json.loads(line) for line in RECORDED.read_text().splitlines() if line.strip()]
    pacer = Pacer(args.rate) if args.rate else None
    with ThreadPoolExecutor(max(args.setup_concurrency, args.games)) as pool:
        ws_bases = [b.replace("http://", "ws://") for b in bases]
        window = [float("inf"), float("inf")]  # set when the window opens
        stop = asyncio.Event()
        tally = Tally(first_wave_left=args.games)
        slots = [asyncio.create_task(_slot(n, bases[n % len(bases)], ws_bases, seats[n],
                                           games, args, window, stop, tally, pool,
                                           create, connect, pacer))
                 for n in range(args.games)]
        began = time.perf_counter()
        try:
            await asyncio.wait_for(tally.first_wave.wait(), FIRST_WAVE_TIMEOUT_S)
        except TimeoutError:
            tally.errors.append(f"the first games of all {args.games} slots were not under "
                                f"way after {FIRST_WAVE_TIMEOUT_S} s")
        first_wave = time.perf_counter() - began
        print(f"{args.games} slots playing (their first games under way in "
              f"{first_wave:.1f} s); window opens in {args.warmup} s", flush=True)
        # The client's own collection (processes.Window) ends a second before the window
        # opens: moves it held up are answered before the window counts them.
        await asyncio.sleep(max(args.warmup - 1, 0))
        pause_collector()
        await asyncio.sleep(min(args.warmup, 1))
        pids = pids or server_pids()
        measured = Window(pids, args).open()
        window[:] = [time.perf_counter(), time.perf_counter() + args.continuous]
        await asyncio.sleep(args.continuous)
        usage = measured.close()
        cpu, rss, services_cpu, client_cpu = (usage.cpu, usage.rss, usage.services_cpu,
                                              usage.client_cpu)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*slots, return_exceptions=True), 30)
    opens, closes = window
    if args.latencies:
        _dump(args.latencies, tally, opens)
    latencies = sorted(x for r in tally.runs for x in r.latencies)
    starts = sorted(took for at, took in tally.starts if opens <= at <= closes)
    moves = len(latencies)

    def pct(values: list[float], p: float) -> float | None:
        return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2) \
            if values else None

    return {
        "mode": "continuous", "slots": args.games, "offered_moves_per_s": args.rate or None,
        "spectators": args.spectators,
        "servers": len(bases), "window_s": args.continuous, "moves": moves,
        "moves_per_s": round(moves / args.continuous, 1),
        "p50_ms": pct(latencies, 0.50), "p95_ms": pct(latencies, 0.95),
        "p99_ms": pct(latencies, 0.99),
        "max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2) if latencies else None,
        "games_started": len(starts),
        "games_finished": sum(opens <= at <= closes for at in tally.finished),
        "start_p50_ms": pct(starts, 0.50), "start_p99_ms": pct(starts, 0.99),
        "first_wave_s": round(first_wave, 2),
        "errors": len(tally.errors), "error_samples": tally.errors[:5],
        "server_cpu_s": round(sum(cpu.values()), 2),
        "server_cpu_ms_per_move": round(1000 * sum(cpu.values()) / moves, 2) if moves else None,
        "client_cpu_s": round(client_cpu, 2),
        "postgres_redis_cpu_s": round(services_cpu, 2),
        "server_peak_rss_mib": [round(v, 1) for v in rss.values()],
        **budget(usage, moves),
    }

