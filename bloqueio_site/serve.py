"""Start Daphne the way production runs it: ``python -m bloqueio_site.serve [HOST] [PORT]``.

One place for the server's command line, used by `make run`, the Docker image, compose,
the tests' live servers and the benchmarks, so they all run what docs/operations.md
deploys. Two of Daphne's defaults do not hold a surge of sockets (docs/operations.md,
"Connect storms"):

- Twisted listens with a backlog of 50: past 50 connections waiting to be accepted the
  kernel drops new SYNs, and clients wait a 1 s, 3 s, ... retransmission. We ask for
  `SERVER_BACKLOG` (the kernel caps it at net.core.somaxconn).
- A WebSocket handshake must finish within 5 s, the consumer's connect (token lookup,
  ban check, the game's hello) included; with hundreds of sockets opening at once on a
  bounded database pool the last ones need longer. We allow
  `WEBSOCKET_HANDSHAKE_TIMEOUT` seconds.

Anything after HOST and PORT is passed to Daphne as it is (e.g. ``--proxy-headers``).
"""

from __future__ import annotations

import os
import sys

from django.core.exceptions import ImproperlyConfigured

from bloqueio_site.env import env_int

APPLICATION = "bloqueio_site.asgi:application"


def daphne_args(host: str = "127.0.0.1", port: int = 8000) -> list[str]:
    """Daphne's arguments (after the program name) for a server on host:port."""
    backlog = env_int("SERVER_BACKLOG", 1024, minimum=16)
    handshake = env_int("WEBSOCKET_HANDSHAKE_TIMEOUT", 20, minimum=1)
    interface = host.strip("[]").replace(":", r"\:")
    return ["-e", f"tcp:port={port}:interface={interface}:backlog={backlog}",
            "--websocket_connect_timeout", str(handshake), APPLICATION]


def main(argv: list[str]) -> None:
    host = argv[0] if argv else "127.0.0.1"
    try:
        port = int(argv[1]) if len(argv) > 1 else 8000
        args = daphne_args(host, port)
    except (ValueError, ImproperlyConfigured) as exc:
        raise SystemExit(f"bloqueio_site.serve: {exc}") from None
    # Extra options go before the application path, where Daphne's parser wants them.
    command = [sys.executable, "-m", "daphne", *args[:-1], *argv[2:], args[-1]]
    os.execv(sys.executable, command)


if __name__ == "__main__":
    main(sys.argv[1:])
