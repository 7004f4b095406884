"""Start the ASGI server the way production runs it:
``python -m bloqueio_site.serve [HOST] [PORT] [server options]``.

`SERVER` picks the server: ``uvicorn`` (the default: uvloop, httptools and websockets)
or ``daphne``; Channels runs unchanged on both, and the test suite runs both
(docs/operations.md, "The ASGI server"; docs/performance.md for why uvicorn). One place
for the server's command line, used by `make run`, the Docker image, compose, the tests'
live servers and the benchmarks, so they all run what docs/operations.md deploys. Both
listen with a backlog of `SERVER_BACKLOG` (1024; the kernel caps it at
net.core.somaxconn) instead of Twisted's 50, past which the kernel drops new SYNs and
clients wait a 1 s, 3 s, ... retransmission (docs/operations.md, "Connect storms").
Daphne also gets `WEBSOCKET_HANDSHAKE_TIMEOUT` (20 s) for a handshake instead of its
5 s: with hundreds of sockets opening at once on a bounded database pool the consumer's
connect (token lookup, ban check, the game's hello) needs longer; uvicorn has no such
timeout. uvicorn gets our HTTP protocol (bloqueio_site.uvicorn_http: a close after an
early answer, a 413, lingers until the client has it), Daphne's 1 MiB message cap, our
WebSocket protocol
(bloqueio_site.uvicorn_ws: frames written once, closes that never wait on a stuck peer, a
stop that drains), at most GRACEFUL_SECONDS for a SIGTERM, no per-message compression
(Daphne offers none) and, as Daphne, no proxy headers unless asked.

Anything after HOST and PORT is passed to the server as it is (e.g. ``--proxy-headers``,
which both accept; uvicorn also needs `FORWARDED_ALLOW_IPS` naming the proxy).
"""

from __future__ import annotations

import os
import sys

from django.core.exceptions import ImproperlyConfigured

from bloqueio_site.env import env_choice, env_int

APPLICATION = "bloqueio_site.asgi:application"
SERVERS = ("daphne", "uvicorn")
DEFAULT_SERVER = "uvicorn"  # docs/performance.md, "Live play": faster than Daphne
GRACEFUL_SECONDS = 8


def daphne_args(host: str = "127.0.0.1", port: int = 8000) -> list[str]:
    """Daphne's arguments (after the program name) for a server on host:port."""
    backlog = env_int("SERVER_BACKLOG", 1024, minimum=16)
    handshake = env_int("WEBSOCKET_HANDSHAKE_TIMEOUT", 20, minimum=1)
    interface = host.strip("[]").replace(":", r"\:")
    return ["-e", f"tcp:port={port}:interface={interface}:backlog={backlog}",
            "--websocket_connect_timeout", str(handshake), APPLICATION]


def uvicorn_args(host: str = "127.0.0.1", port: int = 8000) -> list[str]:
    """uvicorn's arguments (after the program name) for a server on host:port."""
    backlog = env_int("SERVER_BACKLOG", 1024, minimum=16)
    return [APPLICATION, "--host", host.strip("[]"), "--port", str(port),
            "--backlog", str(backlog), "--loop", "uvloop",
            # httptools, closing after an early answer only once the client has it
            # (bloqueio_site.uvicorn_http: a lingering close, not a reset).
            "--http", "bloqueio_site.uvicorn_http:LingeringHttpToolsProtocol",
            "--ws", "bloqueio_site.uvicorn_ws:BloqueioWebSocketProtocol",
            "--ws-max-size", str(1024 * 1024),
            "--ws-per-message-deflate", "false", "--lifespan", "off", "--no-access-log",
            # The last resort of a stop (docs/operations.md, "Stopping"): sockets drain
            # and close with 1012 well within it; orchestrators SIGKILL at 10 s.
            "--timeout-graceful-shutdown", str(GRACEFUL_SECONDS),
            # As Daphne: X-Forwarded-For is believed only with --proxy-headers given.
            "--no-proxy-headers",
            "--log-level", os.environ.get("LOG_LEVEL", "info").lower()]


def command(argv: list[str], server: str | None = None) -> list[str]:
    """The full command line of `server` (default: `SERVER`, else DEFAULT_SERVER) for
    `argv` (HOST PORT extra options)."""
    host = argv[0] if argv else "127.0.0.1"
    port = int(argv[1]) if len(argv) > 1 else 8000
    if (server or env_choice("SERVER", SERVERS, DEFAULT_SERVER)) == "uvicorn":
        return [sys.executable, "-m", "uvicorn", *uvicorn_args(host, port), *argv[2:]]
    args = daphne_args(host, port)
    # Extra options go before the application path, where Daphne's parser wants them.
    return [sys.executable, "-m", "daphne", *args[:-1], *argv[2:], args[-1]]


# glibc returns a freed block to the system only if it was mmap'ed, and after the first
# large free it raises its mmap threshold (up to 32 MiB), so the next blocks come from a
# per-thread arena and are kept. Argon2id's 19 MiB buffers, hashed on whichever worker
# thread serves a sign-up, then stay in every thread's arena: a sign-up surge left one
# process at 551 MiB peak instead of 171 MiB (docs/performance.md, "Live play").
# A fixed threshold keeps such blocks mmap'ed and returned at once.
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": str(1024 * 1024)}


def process_env(env: dict[str, str]) -> dict[str, str]:
    """The server's environment: `env` with our allocator setting unless it names one."""
    return {**MALLOC_ENV, **env}


def main(argv: list[str]) -> None:
    try:
        found = command(argv)
    except (ValueError, ImproperlyConfigured) as exc:
        raise SystemExit(f"bloqueio_site.serve: {exc}") from None
    # glibc reads it when the process starts: hence set here, for the exec'd server.
    os.execve(sys.executable, found, process_env(dict(os.environ)))


if __name__ == "__main__":
    main(sys.argv[1:])
