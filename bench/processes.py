"""Child processes of the benchmarks (servers, proxies): waiting for them, stopping them."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable
from pathlib import Path


def wait_healthy(base: str, proc: subprocess.Popen[bytes], seconds: float, log: Path) -> None:
    """Return once `base`/healthz answers; stop the benchmark, with the tail of `log`, if
    `proc` exits or `seconds` pass first."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise SystemExit(f"{base} did not start:\n{tail}") from None
            time.sleep(0.2)


def stop_all(processes: Iterable[subprocess.Popen[bytes]], grace: float) -> None:
    """SIGTERM every process, then SIGKILL whichever has not exited `grace` s later
    (uvicorn waits for its sockets to close)."""
    processes = list(processes)
    for proc in processes:
        if proc.poll() is None:
            proc.terminate()
    for proc in processes:
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(grace)


_collected: dict[str, str] = {}


def production_static(root: Path) -> str:
    """A folder holding the static files collected as a deploy collects them
    (deploy/collect_static.sh, DJANGO_ENV=production: hashed names and the manifest a
    production server needs for every page, and which its /healthz checks); collected
    once per run of the calling program, in a temporary folder. "" for a tree from
    before that script (an older revision measured side by side), which needs none."""
    if not (root / "deploy" / "collect_static.sh").exists():
        return ""
    found = _collected.get(str(root))
    if found is None:
        found = tempfile.mkdtemp(prefix="bloqueio-static-")
        env = dict(os.environ, DJANGO_STATIC_ROOT=found,
                   PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        subprocess.run(["sh", str(root / "deploy" / "collect_static.sh")], env=env, check=True)
        _collected[str(root)] = found
    return found
