"""Child processes of the benchmarks (servers, proxies): waiting for them, stopping them."""

from __future__ import annotations

import subprocess
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
