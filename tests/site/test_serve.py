"""bloqueio_site.serve starts the server with our allocator setting (a sign-up surge's
Argon2 buffers are returned to the system, not kept in every thread's arena)."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bloqueio_site.serve import MALLOC_ENV, process_env
from tests.live.servers import ROOT, free_port, server_env


def test_the_allocator_setting_is_added_unless_the_operator_set_one():
    assert process_env({"A": "1"}) == {"A": "1", **MALLOC_ENV}
    assert process_env({"MALLOC_MMAP_THRESHOLD_": "65536"})["MALLOC_MMAP_THRESHOLD_"] == "65536"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_served_process_runs_with_it(tmp_path: Path):
    """The entry point every deployment uses (`python -m bloqueio_site.serve`) execs the
    server with the setting in its environment, where glibc reads it at start."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "bloqueio_site.serve", "127.0.0.1",
                                str(port)], cwd=ROOT, env=server_env(),
                               stdout=(tmp_path / "serve.log").open("wb"),
                               stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        environ = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
        assert b"MALLOC_MMAP_THRESHOLD_=1048576" in environ
    finally:
        process.terminate()
        process.wait(15)
