"""Surge benchmark: a crowd arriving at once, as after a link is shared.

Four phases, each sent all at once (no ramp, no client-side limit) and each waiting for
every answer before the next starts:

1. `--users` sign-ups (POST /api/auth/register/, Argon2id on the server), each client
   honouring `Retry-After` as a well-behaved one does: on a 429 or 503 that carries it,
   it waits that long plus up to a second (jitter: the header counts whole seconds, and
   those given the same number should not all come back in the same instant) and tries
   again, until it is signed up or `--signup-deadline` passes;
2. `--games` four-seat Bloqueio games created (POST /api/games/) by those users;
3. the joins that fill every game (POST /api/games/{id}/join/, 3 a game);
4. `--sockets` game sockets opened (/ws/games/{id}/, `Authorization: Token`): first every
   seat's player, then anonymous spectators, spread over the games.

A user may sit in several games when there are fewer than 4 per game (casual games allow
it). Reported per phase: its wall time (for sign-ups: until the last one is signed up),
p50/p99/max latency of every answer (to the full answer, or to `hello` for sockets; each
try of a sign-up counts), answers by status and code, refusals with `Retry-After`,
timeouts, 5xx without `Retry-After`, and the peak number of
PostgreSQL backends on the server's database (pg_stat_activity, sampled every 10 ms from a
connection of its own to DATABASE_URL, not counted). A request that got no answer at all
(connection reset or closed without a response) is reported as `dropped`.

    python bench/burst.py --spawn                              # one server, production config
    python bench/burst.py --base http://127.0.0.1:8000         # a server already running
    python bench/burst.py --spawn --users 20 --games 5 --sockets 40   # a quick smoke run

`--spawn` starts one server the way bench/load.py does: the production configuration
(DJANGO_ENV=production, a random secret key, no SSL redirect on loopback) and the
command docs/operations.md deploys (`python -m bloqueio_site.serve`, uvicorn unless
SERVER says otherwise), with DATABASE_URL, REDIS_URL and any DATABASE_POOL_* and
PASSWORD_HASH_* from the environment, and RATE_LIMIT_SCALE 1000 unless set: the crowd
comes from one address, which the per-address limits would otherwise stop (a surge of
many addresses is what is measured here, not the limits). Loopback only, and bounded by
`--timeout`. tests/faults/test_burst.py runs the same surge, smaller, against a
PostgreSQL with few connections.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # bench/ is not a package: found through sys.path
from surge_client import Answer, Gate, Opened, http, open_socket

SIGNUP_PASSWORD = "surge-{}-Pass!"  # unique per user, passes the password validators


# -- PostgreSQL backends ------------------------------------------------------------------


class BackendMonitor:
    """Samples the client backends on DATABASE_URL's database every `interval` s, from a
    thread of its own (an event loop busy with hundreds of clients must not thin the
    samples), excluding its own connection. Counts every client of that database: on a
    dedicated database that is the server's pool."""

    QUERY = ("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
             " AND backend_type = 'client backend' AND pid <> pg_backend_pid()")

    def __init__(self, url: str, interval: float = 0.01) -> None:
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True, application_name="burst-monitor",
                                    connect_timeout=10)
        row = self.conn.execute("SHOW max_connections").fetchone()
        self.max_connections = int(row[0]) if row else 0
        self.interval = interval
        self.phase = "start"
        self.peaks: dict[str, int] = {}
        self.samples = 0
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="backend-monitor", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                row = self.conn.execute(self.QUERY).fetchone()
            except Exception as exc:  # report it, never kill the benchmark
                self.failures.append(repr(exc)[:200])
                if len(self.failures) > 50:
                    return
            else:
                count = int(row[0]) if row else 0
                self.samples += 1
                self.peaks[self.phase] = max(self.peaks.get(self.phase, 0), count)
            self._stop.wait(self.interval)

    @property
    def peak(self) -> int:
        return max(self.peaks.values(), default=0)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)
        with suppress(Exception):
            self.conn.close()


# -- the surge ----------------------------------------------------------------------------


@dataclass
class Phase:
    """One phase's figures."""

    name: str
    sent: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    ok: int = 0
    peak_backends: int | None = None
    refused: int = 0  # answers that said when to retry (429/503 with Retry-After)
    timeouts: int = 0  # requests with no answer within the limit
    bare_5xx: int = 0  # 5xx answers without Retry-After: the client cannot act on them
    slowest: dict[str, float] = field(default_factory=dict)  # by outcome, seconds

    def record(self, answer: Answer) -> None:
        self.outcomes[answer.outcome] += 1
        if answer.status is None:
            self.timeouts += answer.failure == "timeout"
            return
        self.latencies.append(answer.seconds)
        self.slowest[answer.outcome] = max(self.slowest.get(answer.outcome, 0), answer.seconds)
        self.refused += answer.retry_in is not None
        self.bare_5xx += answer.status >= 500 and not answer.retry_after

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies)

        def pct(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

        return {"sent": self.sent, "ok": self.ok, "seconds": round(self.seconds, 2),
                "answers": len(lat), "p50_ms": pct(0.50), "p99_ms": pct(0.99),
                "max_ms": round(lat[-1] * 1000, 1) if lat else None,
                "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
                "outcomes": dict(self.outcomes.most_common()),
                "slowest_ms": {k: round(v * 1000, 1) for k, v in self.slowest.items()},
                "refused_with_retry_after": self.refused, "timeouts": self.timeouts,
                "5xx_without_retry_after": self.bare_5xx,
                "peak_backends": self.peak_backends}


async def _requests(phase: Phase, calls: list[Any], ok_status: int,
                    monitor: BackendMonitor | None) -> list[Answer]:
    if monitor:
        monitor.phase = phase.name
    phase.sent = len(calls)
    started = time.perf_counter()
    answers: list[Answer] = await asyncio.gather(*calls)
    phase.seconds = time.perf_counter() - started
    for answer in answers:
        phase.record(answer)
        phase.ok += answer.status == ok_status
    if monitor:
        phase.peak_backends = monitor.peaks.get(phase.name)
    return answers


async def sign_up(base: str, name: str, phase: Phase, limit: float,
                  deadline: float) -> str | None:
    """Sign `name` up as a well-behaved client: each refusal that says when to come back
    is retried that much later plus up to a second (jitter), until `deadline`
    (perf_counter). Every answer is recorded in `phase`; the token once signed up."""
    body = {"username": name, "password": SIGNUP_PASSWORD.format(secrets.token_hex(6))}
    while True:
        answer = await http(base, "POST", "/api/auth/register/", body, limit=limit)
        phase.record(answer)
        wait = answer.retry_in
        if wait is None or time.perf_counter() + wait > deadline:
            return str(answer.body["token"]) if answer.status == 201 else None
        await asyncio.sleep(wait + random.uniform(0.0, 1.0))


async def signups(base: str, names: list[str], phase: Phase, limit: float,
                  retry_for: float, monitor: BackendMonitor | None) -> list[str]:
    """Every sign-up at once, each retried as `sign_up` does; the phase's time is until
    the last client had its final answer (its 201, for a surge that succeeds)."""
    if monitor:
        monitor.phase = phase.name
    phase.sent = len(names)
    started = time.perf_counter()
    found = await asyncio.gather(*[
        sign_up(base, name, phase, limit, started + retry_for) for name in names])
    phase.seconds = time.perf_counter() - started
    tokens = [token for token in found if token]
    phase.ok = len(tokens)
    if monitor:
        phase.peak_backends = monitor.peaks.get(phase.name)
    return tokens


async def surge(base: str, users: int, games: int, sockets: int, limit: float = 60,
                monitor: BackendMonitor | None = None, log: Any = print,
                all_open: Callable[[], None] | None = None,
                retry_for: float = 300) -> list[Phase]:
    """Run the four phases against `base`; `limit` (s) bounds each request and socket,
    `retry_for` (s) how long sign-ups retry. `all_open` is called once every socket has
    had its answer, before any closes."""
    tag = secrets.token_hex(3)
    phases = [Phase("signup"), Phase("create"), Phase("join"), Phase("sockets")]
    signup, create, join, opening = phases

    log(f"{users} sign-ups at once, honouring Retry-After ...")
    names = [f"s{tag}u{i}" for i in range(users)]
    tokens = await signups(base, names, signup, limit, retry_for, monitor)
    if len(tokens) < 4:
        log(f"only {len(tokens)} users signed up: stopping")
        return phases

    # Game g seats tokens[(4g + k) % n], k = 0..3: four different users while n >= 4.
    seats = [[tokens[(4 * g + k) % len(tokens)] for k in range(4)] for g in range(games)]
    log(f"{games} games created at once ...")
    answers = await _requests(create, [
        http(base, "POST", "/api/games/", {"kind": "bloqueio"}, s[0], limit=limit)
        for s in seats], 201, monitor)
    created = [(int(a.body["id"]), s) for a, s in zip(answers, seats, strict=True)
               if a.status == 201]

    log(f"{3 * len(created)} joins at once ...")
    await _requests(join, [
        http(base, "POST", f"/api/games/{gid}/join/", {}, token, limit=limit)
        for gid, s in created for token in s[1:]], 200, monitor)

    if not created:
        return phases
    log(f"{sockets} sockets opened at once ...")
    if monitor:
        monitor.phase = opening.name
    ws_base = base.replace("http://", "ws://")
    release = asyncio.Event()
    specs = []
    for i in range(sockets):
        gid, s = created[i % len(created)]
        k = i // len(created)
        specs.append((gid, s[k] if k < 4 else None))
    opening.sent = len(specs)
    gate = Gate(len(specs))
    started = time.perf_counter()
    tasks = [asyncio.create_task(open_socket(ws_base, gid, token, gate, release, limit))
             for gid, token in specs]
    await gate.event.wait()  # bounded: every socket answers or fails within `limit`
    opening.seconds = time.perf_counter() - started
    if monitor:
        opening.peak_backends = monitor.peaks.get(opening.name)
    if all_open:
        all_open()
    release.set()
    results: list[Opened] = await asyncio.gather(*tasks)
    for result in results:
        if result.hello:
            opening.latencies.append(result.seconds)
            opening.ok += 1
        opening.outcomes["hello" if result.hello else str(result.failure)] += 1
        if result.hello and not result.active:
            opening.outcomes["hello, game not full"] += 1
    return phases


# -- the command --------------------------------------------------------------------------


def server_log_problems(log: Path) -> list[str]:
    """Lines of a server log that say something went wrong (errors, tracebacks)."""
    words = ("ERROR", "CRITICAL", "Traceback", "FATAL", "Exception")
    with suppress(OSError):
        return [line for line in log.read_text(errors="replace").splitlines()
                if any(word in line for word in words)]
    return []


def report(phases: list[Phase], monitor: BackendMonitor | None) -> dict[str, Any]:
    out: dict[str, Any] = {p.name: p.summary() for p in phases}
    if monitor:
        out["peak_backends"] = monitor.peak
        out["max_connections"] = monitor.max_connections
        out["monitor_samples"] = monitor.samples
        if monitor.failures:
            out["monitor_failures"] = monitor.failures[:3]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="a running server's URL (loopback only)")
    parser.add_argument("--spawn", action="store_true",
                        help="start one server (uvicorn) in the production configuration")
    parser.add_argument("--users", type=int, default=300, help="sign-ups at once")
    parser.add_argument("--games", type=int, default=75, help="4-seat games created at once")
    parser.add_argument("--sockets", type=int, default=400, help="game sockets opened at once")
    parser.add_argument("--request-timeout", type=float, default=60,
                        help="seconds one request or socket may take")
    parser.add_argument("--signup-deadline", type=float, default=300,
                        help="seconds a sign-up client keeps retrying after Retry-After")
    parser.add_argument("--timeout", type=float, default=600, help="hard stop, seconds")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    args = parser.parse_args()
    if args.spawn == bool(args.base):
        parser.error("give exactly one of --spawn and --base")
    if args.users < 4:
        parser.error("--users must be at least 4 (a game has 4 seats)")

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(f"stopped by {'the time limit' if signum == signal.SIGALRM else signum}")

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGALRM, stop)
    signal.alarm(int(args.timeout))
    spawned: list[tuple[str, subprocess.Popen[bytes]]] = []
    log_path: Path | None = None
    monitor: BackendMonitor | None = None
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    try:
        if args.spawn:
            log_dir = load.ROOT / "test-artifacts"
            log_dir.mkdir(exist_ok=True)
            spawned = load.spawn(1, log_dir, {
                "RATE_LIMIT_SCALE": os.environ.get("RATE_LIMIT_SCALE", "1000")})
            base = spawned[0][0]
            log_path = log_dir / f"daphne-{urlparse(base).port}.log"
            say(f"server {base}, log {log_path.relative_to(load.ROOT)}")
        else:
            base = args.base.rstrip("/")
        if urlparse(base).hostname not in load.LOCAL_HOSTS:
            raise SystemExit(f"refusing non-loopback target {base}")
        if os.environ.get("DATABASE_URL", "").startswith("postgres"):
            monitor = BackendMonitor(os.environ["DATABASE_URL"])
        else:
            say("DATABASE_URL is not PostgreSQL: backends not sampled")
        phases = asyncio.run(surge(base, args.users, args.games, args.sockets,
                                   args.request_timeout, monitor, say,
                                   retry_for=args.signup_deadline))
        result = report(phases, monitor)
    finally:
        signal.alarm(0)
        if monitor:
            monitor.close()
        for _, proc in spawned:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
    if log_path is not None:
        problems = server_log_problems(log_path)
        result["server_log_problem_lines"] = len(problems)
        result["server_log_samples"] = problems[:5]
    result["pool_env"] = {k: v for k, v in os.environ.items()
                          if k.startswith(("DATABASE_POOL_", "PASSWORD_HASH_", "SERVER"))}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=load.ROOT,
                            capture_output=True, text=True).stdout.strip()
    result["commit"] = commit
    if args.json:
        print(json.dumps(result))
        return
    for name in ("signup", "create", "join", "sockets"):
        p = result[name]
        print(f"{name:>8}: {p['ok']}/{p['sent']} ok in {p['seconds']} s; {p['answers']} "
              f"answers, p50 {p['p50_ms']} ms, p99 {p['p99_ms']} ms, max {p['max_ms']} ms; "
              f"{p['refused_with_retry_after']} refused with Retry-After, {p['timeouts']} "
              f"timeouts, {p['5xx_without_retry_after']} 5xx without Retry-After; peak "
              f"backends {p['peak_backends']}; {p['outcomes']}")
    s = result["signup"]
    print(f"  sign-ups: {s['ok']} of {s['sent']} signed up, the last after {s['seconds']} s; "
          f"slowest answer {s['max_ms']} ms")
    for key, value in result.items():
        if key not in ("signup", "create", "join", "sockets"):
            print(f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
