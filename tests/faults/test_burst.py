"""A surge of users against one production-configured server: it holds the surge by
queueing on its bounded connection pool, and sign-ups by refusing at once, with
Retry-After, the hashes it cannot start soon; it never drops anyone or leaves a client
waiting without an answer.

PostgreSQL is a private cluster with `max_connections=40`, so a server that opened a
connection per request in flight would run out (FATAL "too many clients") long before
the surge ends. Each phase is sent all at once, well above the pool's 8 connections:
48 sign-ups, 64 game creations, the 192 joins that fill them, 160 game sockets. Every
request but a sign-up must succeed (201/200) and every socket get its `hello`: the pool
timeout (30 s) is longer than any phase takes here, so a 503 `unavailable` would mean
requests were refused rather than queued.

Sign-ups get one hash slot and no wait for it (`PASSWORD_HASH_CONCURRENCY=1`,
`PASSWORD_HASH_MAX_WAIT=0`), so 48 at once are more than it takes: the promise is that
each client gets an answer, either its 201 or a 503 `unavailable` with `Retry-After`
(never a timeout, a dropped connection or a 5xx it cannot act on), and that every client
that honours Retry-After (bench/burst.py's client does) is signed up in the end. The
same surge, full size, is bench/burst.py (docs/performance.md, "Surge").
"""

from __future__ import annotations

import asyncio
import importlib
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.faults.private_postgres import PrivatePostgres
from tests.live.servers import ROOT

pytestmark = pytest.mark.slow

POOL_MAX = 8
# The event loop's own connections (bloqueio_site/loop_db.py): a socket's open reads on
# them, so a surge of opens fills them too. The budget is the two together.
LOOP_MAX = 4
# Longer than the surge takes: a request that waited this long would be a 503.
POOL_TIMEOUT = 30
MAX_CONNECTIONS = 40
# Above the pool in every phase, and sign-ups above the one hash slot.
USERS, GAMES, SOCKETS = 48, 64, 160
# How long a sign-up client keeps retrying: far longer than 48 hashes take, even on a
# crowded machine; a client still refused then would be starved, not served late.
SIGNUP_RETRY_FOR = 180


@pytest.fixture(scope="module")
def burst() -> Any:
    """bench/burst.py, so the test and the benchmark run the very same surge."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        return importlib.import_module("burst")
    finally:
        sys.path.remove(str(ROOT / "bench"))


@pytest.fixture
def cluster() -> Iterator[PrivatePostgres]:
    # No skip when PostgreSQL's binaries are missing: PrivatePostgres raises, the test fails.
    pg = PrivatePostgres(settings={"max_connections": MAX_CONNECTIONS})
    try:
        pg.init()
        env = dict(os.environ, DATABASE_URL=pg.url)
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                       check=True, timeout=180)
        yield pg
    finally:
        pg.destroy()


def test_server_holds_a_surge(burst: Any, cluster: PrivatePostgres, tmp_path: Path) -> None:
    prefix = f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}-burst-" \
             f"{secrets.token_hex(3)}"  # game ids restart with each cluster: keys of our own
    env = {
        "DATABASE_URL": cluster.url,
        "REDIS_URL": settings.REDIS_URL,
        "CHANNEL_LAYER_PREFIX": prefix,
        "CACHE_PREFIX": prefix,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_POOL_MIN_SIZE": "2",
        "DATABASE_POOL_MAX_SIZE": str(POOL_MAX),
        "DATABASE_LOOP_CONNECTIONS": str(LOOP_MAX),
        "DATABASE_POOL_TIMEOUT": str(POOL_TIMEOUT),
        "PASSWORD_HASH_CONCURRENCY": "1",
        "PASSWORD_HASH_MAX_WAIT": "0",
        "LOG_LEVEL": "warning",
        # Every synthetic user comes from 127.0.0.1, and 12 of them create 64 games at
        # once: the per-address and per-user limits (bloqueio_site.limits) are not what
        # this surge measures.
        "RATE_LIMIT_SCALE": "1000",
    }
    # Production configuration (DJANGO_ENV=production, allowed hosts 127.0.0.1 and
    # localhost, no SSL redirect on plain-HTTP loopback) and the deployed command
    # (`python -m bloqueio_site.serve`: Daphne with its backlog and handshake timeout).
    try:
        [(base, process)] = burst.load.spawn(1, tmp_path, env)
    except SystemExit as exc:  # load.spawn's way to say the server did not come up
        pytest.fail(str(exc))
    log = tmp_path / f"daphne-{base.rsplit(':', 1)[1]}.log"
    monitor = burst.BackendMonitor(cluster.url, interval=0.005)
    surge_log_end = [0]  # how much of the log the surge wrote, before sockets close

    def all_open() -> None:
        surge_log_end[0] = log.stat().st_size

    try:
        phases = asyncio.run(asyncio.wait_for(
            burst.surge(base, USERS, GAMES, SOCKETS, limit=POOL_TIMEOUT + 30, monitor=monitor,
                        log=lambda *a: None, all_open=all_open, retry_for=SIGNUP_RETRY_FOR),
            timeout=SIGNUP_RETRY_FOR + 240))
    finally:
        monitor.close()
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
    text = log.read_bytes().decode(errors="replace")
    surge_text = log.read_bytes()[:surge_log_end[0]].decode(errors="replace")
    problems = burst.server_log_problems(log)
    figures = "\n".join(f"{p.name}: {p.summary()}" for p in phases)
    figures += f"\npeak backends {monitor.peaks}, {monitor.samples} samples\n"
    figures += "server log:\n" + "\n".join(problems[:20])
    signup, create, join, opening = phases

    # Every sign-up answered, each answer a 201 or a refusal saying when to come back,
    # and every client signed up in the end, one account each. More came at once than
    # the one slot takes, so some were refused: the promise was put to the test.
    assert (signup.sent, create.sent, join.sent, opening.sent) == \
        (USERS, GAMES, 3 * GAMES, SOCKETS), figures
    assert signup.ok == USERS and signup.outcomes["201"] == USERS, figures
    assert set(signup.outcomes) <= {"201", "503 unavailable"}, figures
    assert signup.refused == signup.outcomes["503 unavailable"] > 0, figures
    assert signup.timeouts == 0 and signup.bare_5xx == 0, figures
    # Every other request answered, and answered with success: no 5xx (503 included),
    # no connection reset or closed without an answer, no timeout.
    assert dict(create.outcomes) == {"201": GAMES}, figures
    assert dict(join.outcomes) == {"200": 3 * GAMES}, figures
    # Every socket got its `hello`, of a game with every seat taken.
    assert dict(opening.outcomes) == {"hello": SOCKETS}, figures

    # The server never held more backends than its budget allows. Nothing else connects
    # to this cluster meanwhile: migrate has finished (and disconnected) before Daphne
    # starts, no worker runs, the monitor's own connection is excluded by pid, and the
    # test process's Django uses the shared test database, not this cluster. Every
    # database call of the server borrows from the one pool (HTTP views, middleware,
    # consumers' off-loop calls, /healthz) or, for a socket's reads as it opens, from the
    # event loop's own connections, so the bound is their two sizes, exactly
    # (docs/operations.md's connection budget).
    assert monitor.samples > 100 and not monitor.failures, figures
    assert 0 < monitor.peak <= POOL_MAX + LOOP_MAX, figures

    # Nothing went wrong on the server's side while the surge was on: no error, no
    # traceback, no refused database connection. When the 160 sockets close at once,
    # messages to sockets closing meanwhile can still fail (logged as warnings); errors
    # are never acceptable.
    for word in ("Traceback", "ERROR", "CRITICAL", "too many clients"):
        assert word not in surge_text, figures
    for word in (" ERROR ", " CRITICAL ", "too many clients"):
        assert word not in text, figures
