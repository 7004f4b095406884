"""A PostgreSQL cluster of the test's own (initdb + pg_ctl), to stop and restart at will."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from tests.live.servers import free_port


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed")
    return path


class PrivatePostgres:
    """`settings`: extra server settings (`-c name=value`), e.g. {"max_connections": 40}
    to make a connection storm hit the server's limit quickly."""

    def __init__(self, settings: Mapping[str, str | int] | None = None) -> None:
        self.settings = dict(settings or {})
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pgfault-"))
        self.data = self.dir / "data"
        os.chmod(self.dir, 0o777)

    def _run(self, *args: str) -> None:
        command = list(args)
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/bloqueio"

    def init(self) -> None:
        self._run(_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--no-sync")
        self.start()
        self._run(_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                  "postgres", "bloqueio")

    def start(self) -> None:
        extra = "".join(f" -c {name}={value}" for name, value in self.settings.items())
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-w", "-l", str(self.dir / "log"),
                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1{extra}",
                  "start")

    def stop(self, mode: str = "immediate") -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
