"""Real server processes (Daphne or uvicorn, as bloqueio_site.serve runs them) for
end-to-end tests, sharing the test database and Redis."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection

from bloqueio_site.serve import command, process_env

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def server_env(redis_url: str | None = None) -> dict[str, str]:
    """The test database (not the dev one) and the test channel-layer prefix."""
    db = connection.settings_dict
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
                        f"{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": redis_url or settings.REDIS_URL,
        "CHANNEL_LAYER_PREFIX": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
        "DJANGO_ENV": "development",
        "DJANGO_DEBUG": "false",
        "LOG_LEVEL": "warning",
    })
    return env


def _wait_healthy(server: Server, deadline: float, probe: str = "/healthz") -> None:
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server exited: {server.log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{server.http}{probe}", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server on {server.port} did not become healthy")


def start(tmp: Path, redis_url: str | None = None, server: str | None = None,
          env: dict[str, str] | None = None, probe: str = "/healthz",
          port: int | None = None) -> Server:
    """A server process as `python -m bloqueio_site.serve` runs it: `server` (daphne or
    uvicorn), by default the one production runs (`SERVER`, else serve's default);
    `env` adds to (or replaces) server_env's variables; ready once `probe` answers 200.
    `port`: a dead server's again (a balancer knows it by it), else a free one."""
    port = port or free_port()
    log = tmp / f"server-{port}.log"
    process = subprocess.Popen(
        command(["127.0.0.1", str(port)], server),
        cwd=ROOT, env=process_env({**server_env(redis_url), **(env or {})}), stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    found = Server(port, process, log)
    _wait_healthy(found, time.monotonic() + 60, probe)
    return found


def halt(process: subprocess.Popen[bytes]) -> None:
    """Stop `process` if it still runs: SIGTERM, then SIGKILL after 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def stop(server: Server) -> None:
    halt(server.process)


@contextmanager
def worker(tmp: Path, name: str = "worker", env: dict[str, str] | None = None,
           hold: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """The background worker (`manage.py run_worker`, as `make run` starts it) on the
    test database and Redis, logging to `tmp`/`name`.log (its path as `.log`); `env`
    adds to its environment (where e-mail goes, say). With `hold`, its bots wait in that
    folder for the test before each thought (tests/live/held_worker.py)."""
    log = tmp / f"{name}.log"
    start = (["manage.py"] if hold is None
             else ["-m", "tests.live.held_worker", str(hold)])
    process = subprocess.Popen(
        [sys.executable, *start, "run_worker", "--tick", "0.1"],
        cwd=ROOT, env={**server_env(), **(env or {})}, stdout=log.open("ab"),
        stderr=subprocess.STDOUT)
    process.log = log  # type: ignore[attr-defined]  # for the tests' failure messages
    try:
        yield process
    finally:
        halt(process)


@contextmanager
def live_servers(count: int, tmp: Path, redis_url: str | None = None,
                 kinds: Sequence[str | None] = (), env: dict[str, str] | None = None
                 ) -> Iterator[list[Server]]:
    """`count` server processes; `kinds` names each one's server (default: the default);
    `env` adds to their environment."""
    servers: list[Server] = []
    try:
        for n in range(count):
            servers.append(start(tmp, redis_url, kinds[n] if n < len(kinds) else None,
                                 env))
        yield servers
    finally:
        for server in servers:
            stop(server)


class PrivateRedis:
    """A Redis server of the test's own on a free port, to stop and restart at will."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=(self.tmp / f"redis-{self.port}.log").open("ab"), stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("private redis did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def http_json(method: str, url: str, body: object = None,
              token: str | None = None) -> tuple[int, object]:
    """(status, JSON body) of one request to a live server; HTTP errors are answers too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, method=method, data=data)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
