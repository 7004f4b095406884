"""The server side of bench/soak.py and bench/fanout.py (their clients: bench/wsclients.py).

Not a benchmark itself: the server-side figures read from /proc (CPU seconds, RSS over
phases), profiling, the spawned-server lifetime, users with API tokens created straight
in the database (registering thousands over the API would spend minutes on password
hashing) and the report.
"""

from __future__ import annotations

import json
import os
import platform
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from load import LOCAL_HOSTS, ROOT, api, cpu_seconds, peak_rss_mib, spawn
from processes import rss_mib, server_tree, stop_all

# -- the server side ----------------------------------------------------------------------------


def api_retry(base: str, method: str, path: str, body: Any = None,
              token: str | None = None) -> Any:
    """load.api, retried on 503 (a shared PostgreSQL briefly out of connections)."""
    for attempt in range(6):
        try:
            return api(base, method, path, body, token)
        except RuntimeError as exc:
            if ": 503 " not in str(exc) or attempt == 5:
                raise
            time.sleep(0.5 * 2**attempt)
    return None


def check_local(bases: list[str]) -> None:
    for base in bases:
        if urlparse(base).hostname not in LOCAL_HOSTS:
            raise SystemExit(f"refusing non-loopback target {base}")


def listening_pid(base: str) -> int | None:
    """The process listening on `base`'s port (for --base), via /proc/net/tcp* and fds."""
    port = urlparse(base).port or 80
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # LISTEN
                inodes.add(f"socket:[{cols[9]}]")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) in inodes:
                    return int(entry.name)
        except OSError:
            continue
    return None


class ServerWatch:
    """Samples the servers' RSS every `every` s; CPU seconds and peak RSS per phase."""

    def __init__(self, pids: list[int], every: float = 0.5) -> None:
        self.pids = pids
        self.every = every
        self.phase = "start"
        self.rss_peak: dict[str, dict[int, float]] = {}
        self.cpu_at: list[tuple[str, dict[int, float]]] = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.mark("start")
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _sample(self) -> dict[int, float]:
        out = {}
        for pid in self.pids:
            with suppress(OSError):
                out[pid] = rss_mib(pid)
        return out

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            self._record()

    def _record(self) -> dict[int, float]:
        now = self._sample()
        with self.lock:
            peak = self.rss_peak.setdefault(self.phase, {})
            for pid, value in now.items():
                peak[pid] = max(peak.get(pid, 0.0), value)
        return now

    def mark(self, phase: str) -> dict[int, float]:
        """Start `phase`: closes the previous one; returns the RSS right now."""
        cpu = {}
        for pid in self.pids:
            with suppress(OSError):
                cpu[pid] = cpu_seconds(pid)
        with self.lock:
            self.cpu_at.append((phase, cpu))
            self.phase = phase
        return self._record()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)

    def wait_quiet(self, longest: float, cores: float = 0.1) -> float:
        """Wait until the servers use under `cores` CPU over a second (or `longest` s)."""
        started = time.monotonic()
        while time.monotonic() - started < longest:
            before = {p: cpu_seconds(p) for p in self.pids}
            time.sleep(1)
            if sum(cpu_seconds(p) - c for p, c in before.items()) < cores:
                break
        return time.monotonic() - started

    def cpu(self, phase: str) -> float:
        """Server CPU seconds spent in `phase`, all processes together."""
        for (name, start), (_, end) in zip(self.cpu_at, self.cpu_at[1:], strict=False):
            if name == phase:
                return round(sum(end[p] - start.get(p, end[p]) for p in end), 2)
        return 0.0

    def peak(self, *phases: str) -> list[float]:
        """Peak RSS (MiB) per process over `phases`."""
        return [round(max(self.rss_peak.get(ph, {}).get(pid, 0.0) for ph in phases), 1)
                for pid in self.pids]

    def hwm(self) -> list[float]:
        return [round(peak_rss_mib(p), 1) for p in self.pids if Path(f"/proc/{p}").exists()]


class Profiler:
    """py-spy on every server process while a phase runs (--profile): raw stacks files.

    Sampling is --nonblocking (the servers are never paused) at 50 Hz; the report gets
    the files and the functions with the most own samples."""

    def __init__(self, pids: list[int], name: str, enabled: bool) -> None:
        self.paths = [ROOT / "test-artifacts" / f"{name}-{pid}.pyspy.txt" for pid in pids]
        self.procs: list[subprocess.Popen[bytes]] = []
        if not enabled:
            return
        exe = Path(sys.executable).parent / "py-spy"
        for pid, path in zip(pids, self.paths, strict=True):
            self.procs.append(subprocess.Popen(
                [str(exe), "record", "--nonblocking", "--format", "raw", "-r", "50",
                 "-o", str(path), "--pid", str(pid)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop(self) -> dict[str, Any]:
        if not self.procs:
            return {}
        for proc in self.procs:
            proc.send_signal(signal.SIGINT)
        for proc in self.procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        own: Counter[str] = Counter()
        total = 0
        for path in self.paths:
            with suppress(OSError):
                for line in path.read_text().splitlines():
                    stack, _, count = line.rpartition(" ")
                    if stack:
                        frame = stack.rsplit(";", 1)[-1]
                        own[frame.split(":", 1)[0].rstrip(")") + ")"] += int(count)
                        total += int(count)
        top = [f"{n / total:.0%} {f}" for f, n in own.most_common(8)] if total else []
        return {"profile_files": [str(p.relative_to(ROOT)) for p in self.paths],
                "profile_top_own": top}


@contextmanager
def servers(spawn_count: int, bases: list[str] | None, tree: Path = ROOT
            ) -> Iterator[tuple[list[str], list[int]]]:
    """The server URLs and their pids: spawned from `tree` (and always stopped again) or
    given."""
    spawned: list[tuple[str, subprocess.Popen[bytes]]] = []
    try:
        if spawn_count:
            log_dir = ROOT / "test-artifacts"
            log_dir.mkdir(exist_ok=True)
            try:
                spawned = spawn(spawn_count, log_dir, tree=tree)
            except BaseException:
                stop_children()  # spawn() lost the handles of those that did start
                raise
            urls = [b for b, _ in spawned]
            pids = [p.pid for _, p in spawned]
        else:
            urls = bases or ["http://127.0.0.1:8000"]
            check_local(urls)  # before looking at anything
            pids = [pid for pid in map(listening_pid, urls) if pid is not None]
        check_local(urls)
        yield urls, pids
    finally:
        stop_all([proc for _, proc in spawned], 15)


def stop_children() -> None:
    """Terminate this process's server children, Daphne or uvicorn (by pid)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if ppid == os.getpid() and b"bloqueio_site.asgi:application" in cmd:
            with suppress(OSError):
                os.kill(int(entry.name), signal.SIGTERM)


def stop_on_signals(seconds: float) -> None:
    """SIGTERM and a hard time limit raise in the main thread, so clean-up runs."""

    def raise_exit(signum: int, frame: Any) -> None:
        why = f"the {seconds:.0f} s time limit" if signum == signal.SIGALRM else f"signal {signum}"
        raise SystemExit(f"stopped by {why}")

    signal.signal(signal.SIGTERM, raise_exit)
    signal.signal(signal.SIGALRM, raise_exit)
    # Also when started with SIGINT ignored (a background job of a script): ctrl-C stops.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.alarm(int(seconds))


def make_users(count: int, tag: str) -> list[tuple[int, str]]:
    """`count` users with API tokens, created in DATABASE_URL's database: (id, token).

    The server must use the same database (it does with --spawn). Passwords are unusable:
    these users only ever authenticate with their token.
    """
    if not os.environ.get("DATABASE_URL"):
        raise SystemExit("set DATABASE_URL (the servers' PostgreSQL) to create the users")
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bloqueio_site.settings")
    import django

    django.setup()
    from django.db import connection, transaction
    from rest_framework.authtoken.models import Token

    from accounts.models import User

    with transaction.atomic():
        users = User.objects.bulk_create(
            [User(username=f"{tag}u{i}", password="!bench") for i in range(count)],
            batch_size=1000)
        tokens = Token.objects.bulk_create(
            [Token(user=u, key=secrets.token_hex(20)) for u in users], batch_size=1000)
    connection.close()
    return [(t.user.pk, t.key) for t in tokens]


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.machine())
    mem = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
               if line.startswith("MemTotal:"))
    return (f"{os.cpu_count()} cores ({model}), {mem / 2**20:.0f} GiB, "
            f"Python {platform.python_version()}")


def print_report(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:>26}: {value}")


def add_run_options(parser: Any, profiled: str) -> None:
    """The options every socket benchmark shares (`profiled`: the phases py-spy covers)."""
    parser.add_argument("--timeout", type=float, default=900, help="hard stop, seconds")
    parser.add_argument("--server-commit", metavar="REV",
                        help="run the spawned servers from a clean `git archive` of REV "
                             "instead of the work tree")
    parser.add_argument("--profile", action="store_true",
                        help=f"py-spy the servers while {profiled}")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")


def run_and_report(args: Any, run: Callable[[Any, list[str], list[int]], dict[str, Any]]
                   ) -> None:
    """Start (or find) the servers, run the benchmark, print its report."""
    from datetime import UTC, datetime

    stop_on_signals(args.timeout)
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    with server_tree(args.server_commit) as (tree, code), \
            servers(args.spawn, args.base, tree) as (bases, pids):
        report = run(args, bases, pids)
    report.update(code=code if args.spawn else f"(--base) work tree: {code}",
                  machine=machine(), date=date)
    print_report(report, args.json)
