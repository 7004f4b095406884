"""`make run`, the README's first command, starts the whole product: the site and its
background worker, on the embedded defaults (SQLite, in-memory channel layer), and
stops both together."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.live.servers import ROOT, free_port

pytestmark = pytest.mark.slow


def _wait(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.3)
    return False


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def test_make_run_serves_the_site_with_its_worker_and_stops_both(tmp_path: Path):
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in ("REDIS_URL", "CHANNEL_LAYER_PREFIX")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"  # the embedded default
    log = (tmp_path / "make-run.log").open("wb")
    make = subprocess.Popen(["make", "run", f"PORT={port}", "HOST=127.0.0.1"], cwd=ROOT,
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        assert _wait(lambda: _healthy(port), 120), (tmp_path / "make-run.log").read_text()
        check = [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "run_worker", "--check"]

        def worker_alive() -> bool:
            done = subprocess.run(check, cwd=ROOT, env=env, capture_output=True, timeout=60)
            return done.returncode == 0

        assert _wait(worker_alive, 30), "make run started no worker"
    finally:
        os.killpg(make.pid, signal.SIGINT)  # Ctrl-C in the terminal
        make.wait(30)
    # Both stopped: the worker's heartbeat goes stale, so the check now fails.
    time.sleep(11)
    done = subprocess.run(check, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "no worker is running" in done.stderr
    assert "Traceback" not in (tmp_path / "make-run.log").read_text()
