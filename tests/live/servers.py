"""Real Daphne processes for end-to-end tests, sharing the test database and Redis."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection

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


def server_env() -> dict[str, str]:
    """The test database (not the dev one) and the test channel-layer prefix."""
    db = connection.settings_dict
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
                        f"{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CHANNEL_LAYER_PREFIX": settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
        "DJANGO_ENV": "development",
        "DJANGO_DEBUG": "false",
        "LOG_LEVEL": "warning",
    })
    return env


def _wait_healthy(server: Server, deadline: float) -> None:
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"daphne exited: {server.log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{server.http}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne on {server.port} did not become healthy")


def start(tmp: Path) -> Server:
    port = free_port()
    log = tmp / f"daphne-{port}.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "bloqueio_site.asgi:application"],
        cwd=ROOT, env=server_env(), stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    server = Server(port, process, log)
    _wait_healthy(server, time.monotonic() + 60)
    return server


def stop(server: Server) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(10)


@contextmanager
def daphnes(count: int, tmp: Path) -> Iterator[list[Server]]:
    servers: list[Server] = []
    try:
        for _ in range(count):
            servers.append(start(tmp))
        yield servers
    finally:
        for server in servers:
            stop(server)
