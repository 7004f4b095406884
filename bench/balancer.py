"""HAProxy in front of spawned servers, for the benchmarks (bench/load.py, bench/soak.py).

The proxies run deploy/haproxy.cfg rendered for the servers (deploy/haproxy_config.py),
as docs/scaling.md deploys it: every socket and REST call of one game reaches one server
process, the one its first request was placed on. Ports come from a range of their own
(`Ports`), so benchmarks sharing a machine with the test suite never race it for a port.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
# deploy/ is a directory of scripts, not a package.
sys.path.insert(0, str(ROOT / "deploy"))
import haproxy_config  # noqa: E402
from processes import stop_all, wait_healthy  # noqa: E402

HAPROXY = Path("/usr/sbin/haproxy")


class Ports:
    """Free loopback ports from [first, last], each handed out once."""

    def __init__(self, first: int, last: int) -> None:
        self.candidates = iter(range(first, last + 1))
        self.span = f"{first}-{last}"

    def take(self, *_: Any) -> int:
        for port in self.candidates:
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise SystemExit(f"no free port left in {self.span}")


@contextmanager
def proxies(count: int, servers: list[str], ports: Ports, per_proxy: int
            ) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    """`count` HAProxy processes running deploy/haproxy.cfg for `servers`: (URL, process).
    Several share the game table as peers (docs/scaling.md), as a deployment runs them."""
    if not HAPROXY.exists():
        raise SystemExit(f"{HAPROXY} is missing: apt-get install haproxy")
    log_dir = ROOT / "test-artifacts"
    log_dir.mkdir(exist_ok=True)
    config = log_dir / "bench-haproxy.cfg"
    peers = ([(f"lb{n}", f"127.0.0.1:{ports.take()}") for n in range(1, count + 1)]
             if count > 1 else [])
    config.write_text(haproxy_config.render([s.removeprefix("http://") for s in servers],
                                            peers=peers))
    started: list[tuple[str, subprocess.Popen[bytes]]] = []
    try:
        for n in range(count):
            port, stats = ports.take(), ports.take()
            env = {**os.environ, "HAPROXY_BIND": f"127.0.0.1:{port}",
                   "HAPROXY_STATS_BIND": f"127.0.0.1:{stats}",
                   "HAPROXY_MAXCONN": str(per_proxy + 100)}
            log = (log_dir / f"haproxy-{port}.log").open("wb")
            local = ["-L", peers[n][0]] if peers else []
            started.append((f"http://127.0.0.1:{port}", subprocess.Popen(
                [str(HAPROXY), "-db", *local, "-f", str(config)], env=env, stdout=log,
                stderr=subprocess.STDOUT)))
        for base, proc in started:
            wait_healthy(base, proc, 30, log_dir / f"haproxy-{urlparse(base).port}.log")
        yield started
    finally:
        stop_all([proc for _, proc in started], 10)
