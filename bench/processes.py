"""Child processes of the benchmarks: the servers (started in the production
configuration, from this tree or a clean archive of a commit), their CPU and memory read
from /proc, py-spy on them, proxies; waiting for them, stopping them."""

from __future__ import annotations

import gc
import hashlib
import io
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]


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


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


def describe_work_tree() -> str:
    """HEAD, and a fingerprint of uncommitted changes when there are any."""
    head = git("rev-parse", "--short", "HEAD").strip()
    diff = git("diff", "HEAD")
    untracked = [p for p in git("ls-files", "--others", "--exclude-standard").split()
                 if not p.startswith(("bench/", "tests/", "docs/"))]
    if not diff and not untracked:
        return head
    digest = hashlib.sha1((diff + "\n".join(untracked)).encode()).hexdigest()[:8]
    return (f"{head} + uncommitted changes (diff sha1 {digest}, "
            f"{len(untracked)} untracked server files)")


@contextmanager
def server_tree(rev: str | None) -> Iterator[tuple[Path, str]]:
    """Where spawned servers run from, and what that code is.

    The work tree by default; with `rev`, a clean `git archive` of that revision in a
    temporary directory (read-only for the repository), so a commit can be measured while
    the work tree is being edited."""
    if rev is None:
        yield ROOT, describe_work_tree()
        return
    short = git("rev-parse", "--short", rev).strip()
    tmp = Path(tempfile.mkdtemp(prefix=f"bench-{short}-"))
    try:
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        # As a deployment does (docs/operations.md): the server refuses to start without
        # its compiled translation catalogues.
        subprocess.run(["sh", "deploy/compile_messages.sh"], cwd=tmp, check=True,
                       capture_output=True)
        yield tmp, f"{short} (clean git archive)"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def free_port(first: int = 0, last: int = 0) -> int:
    """A free loopback port: any (the kernel's choice), or the first free one in
    [first, last] when a range is given (benchmarks sharing a machine keep to their own)."""
    for port in range(first, last + 1) if first else [0]:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise SystemExit(f"no free port in {first}-{last}")


def production_env() -> dict[str, str]:
    """This environment in the production configuration (docs/operations.md's checklist),
    on plain-HTTP loopback: no TLS, so no SSL redirect. Every synthetic user comes from
    127.0.0.1, so the per-address limits are scaled up (`RATE_LIMIT_SCALE`, 1000 unless
    set). Anything else (DATABASE_URL, REDIS_URL, DATABASE_POOL_*, ...) passes through."""
    env = dict(os.environ)
    env.pop("DJANGO_DEBUG", None)  # production's own default: off
    env.setdefault("LOG_LEVEL", "warning")
    env.setdefault("RATE_LIMIT_SCALE", "1000")
    env.update(DJANGO_ENV="production",
               DJANGO_SECRET_KEY=env.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
               DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
               DJANGO_SECURE_SSL_REDIRECT="false")
    return env


def daphne_command(port: int, tree: Path | None = None) -> list[str]:
    """The web process's command as deployed (docs/operations.md: `python -m
    bloqueio_site.serve HOST PORT`, which sets the server's backlog and handshake timeout,
    and `SERVER` picks Daphne or uvicorn), on 127.0.0.1:`port`. A tree from before that
    module (`--server-commit` of an old revision) ran plain Daphne, as its Dockerfile did."""
    if ((tree or ROOT) / "bloqueio_site" / "serve.py").exists():
        return [sys.executable, "-m", "bloqueio_site.serve", "127.0.0.1", str(port)]
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
            "bloqueio_site.asgi:application"]


def add_server_options(parser: Any) -> None:
    """Where the benchmark's servers are: `--base` running ones, or `--spawn` N new ones."""
    parser.add_argument("--base", action="append", help="server URL (repeat for several)")
    parser.add_argument("--spawn", type=int, default=0, help="start N server processes")


def analyse_database(url: str) -> str:
    """VACUUM (ANALYZE) the benchmark's database before its servers start, as
    PostgreSQL's autovacuum keeps a production database; returns the server's
    `autovacuum` setting, for the record.

    Why: this machine's PostgreSQL runs with autovacuum off, so a benchmark database
    was never analysed, and the planner read a game's seats by scanning the whole users
    table (a hash join on a seq scan: 0.84 ms a read against 0.08 ms, the users growing
    by each run's sign-ups). Every earlier figure paid that on both sides of its A/B.
    (docs/performance.md, "Statistics".)"""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        setting = str(conn.execute("SHOW autovacuum").fetchone()[0])  # type: ignore[index]
        conn.execute("VACUUM (ANALYZE)")
    return setting


def spawn(count: int, log_dir: Path, extra_env: dict[str, str] | None = None,
          ports: tuple[int, int] = (0, 0), tree: Path | None = None
          ) -> list[tuple[str, subprocess.Popen[bytes]]]:
    """Start `count` servers (`extra_env` over production_env()) from `tree` (default:
    this one), each logging to `log_dir`/daphne-PORT.log, on free ports (in `ports`,
    first and last, if given), and wait until each answers /healthz."""
    tree = tree or ROOT
    env = {**production_env(), **(extra_env or {})}
    if not env.get("DATABASE_URL") or not env.get("REDIS_URL"):
        raise SystemExit("--spawn needs DATABASE_URL (PostgreSQL) and REDIS_URL set")
    autovacuum = analyse_database(env["DATABASE_URL"])
    print(f"database vacuumed and analysed (the server's autovacuum: {autovacuum})",
          file=sys.stderr)
    static = production_static(tree)
    if static:
        env.setdefault("DJANGO_STATIC_ROOT", static)
    servers = []
    taken: set[int] = set()
    for _ in range(count):
        port = free_port(*ports)
        while ports[0] and port in taken:  # bound by a server still starting
            port = free_port(port + 1, ports[1])
        taken.add(port)
        log = (log_dir / f"daphne-{port}.log").open("wb")
        proc = subprocess.Popen(daphne_command(port, tree), cwd=tree, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
        servers.append((f"http://127.0.0.1:{port}", proc))
    for base, proc in servers:
        wait_healthy(base, proc, 60, log_dir / f"daphne-{urlparse(base).port}.log")
    return servers


def server_pids() -> list[int]:
    """This project's ASGI server processes on the machine, Daphne or uvicorn alike."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"bloqueio_site.asgi:application" in cmd:
            pids.append(int(entry.name))
    return pids


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_usage(cpu0: dict[int, float]) -> tuple[dict[int, float], dict[int, float]]:
    """CPU seconds since `cpu0` and peak RSS (MiB) of the processes still alive."""
    alive = [pid for pid in cpu0 if Path(f"/proc/{pid}").exists()]
    return ({pid: cpu_seconds(pid) - cpu0[pid] for pid in alive},
            {pid: peak_rss_mib(pid) for pid in alive})


def machine_seconds() -> tuple[float, float]:
    """The machine's CPU seconds since boot from /proc/stat's first line: (busy, all),
    every core summed. Busy is this machine's own work (user, nice, system, interrupts);
    idle, I/O wait and steal (a virtual machine's core lent to another) are not."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    hertz = os.sysconf("SC_CLK_TCK")
    # user nice system idle iowait irq softirq steal [guest guest_nice: inside user]
    busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
    return busy / hertz, sum(ticks[:8]) / hertz


def pids_named(*names: str) -> list[int]:
    """Processes whose command name is one of `names` (e.g. PostgreSQL's backends)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _status_mib(pid: int, field: str) -> float:
    """A memory line of /proc/PID/status (kB there), in MiB; 0 when absent."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return 0.0


def peak_rss_mib(pid: int) -> float:
    return _status_mib(pid, "VmHWM")


def rss_mib(pid: int) -> float:
    return _status_mib(pid, "VmRSS")


def start_profilers(pids: list[int], prefix: str, gil: bool, idle: bool = False
                    ) -> list[subprocess.Popen[bytes]]:
    """py-spy sampling each of `pids` (200 Hz, raw collapsed stacks to PREFIX-PID.txt)
    until it is sent SIGINT: only samples holding the GIL with `gil`, idle threads too
    (wall time: waits on PostgreSQL, Redis, locks) with `idle`."""
    py_spy = str(Path(sys.executable).with_name("py-spy"))
    return [subprocess.Popen([py_spy, "record", "--nonblocking", "--format", "raw", "-r", "200",
                              "-p", str(pid), "-o", f"{prefix}-{pid}.txt",
                              *(["--gil"] if gil else []), *(["--idle"] if idle else [])],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for pid in pids]


@dataclass
class Usage:
    """What a measured window cost: the servers' CPU seconds and peak RSS by pid, the
    machine's PostgreSQL and Redis CPU seconds (whoever used them meanwhile: an upper
    bound for this run's share on a shared machine), the load client's own CPU, HAProxy's,
    and the whole machine's: its busy CPU seconds (every core, every process, the
    kernel's own work included) against the seconds its cores had. Read together they are
    the budget of a move: where the machine's time went besides the servers."""

    cpu: dict[int, float]
    rss: dict[int, float]
    services_cpu: float
    client_cpu: float
    haproxy_cpu: float = 0.0
    redis_cpu: float = 0.0  # Redis's part of services_cpu
    machine_busy: float = 0.0
    machine_total: float = 0.0


def budget(usage: Usage, moves: int) -> dict[str, Any]:
    """The window's CPU a move, by part, in ms, and how busy the machine was (cores used
    of those it has): what a move cost the whole machine, not only the servers. `other`
    is the rest of the machine's busy time (the kernel's interrupts, other processes)."""
    if not moves or not usage.machine_total:
        return {}
    parts = {"servers": sum(usage.cpu.values()), "client": usage.client_cpu,
             "postgres": usage.services_cpu - usage.redis_cpu, "redis": usage.redis_cpu,
             "haproxy": usage.haproxy_cpu}
    per_move = {name: round(1000 * seconds / moves, 2) for name, seconds in parts.items()}
    per_move["other"] = round(1000 * (usage.machine_busy - sum(parts.values())) / moves, 2)
    per_move["machine"] = round(1000 * usage.machine_busy / moves, 2)
    cores = os.cpu_count() or 1
    return {"cpu_ms_per_move": per_move,
            "machine_busy_cores": round(cores * usage.machine_busy / usage.machine_total, 2),
            "machine_cores": cores}


def pause_collector() -> None:
    """Collect and freeze what the load client holds, and collect nothing more until the
    window closes (Window below says why)."""
    gc.collect()
    gc.freeze()
    gc.disable()


class Window:
    """A measured window over the server processes `pids`: `open()` starts the
    profilers (with `--profile`) and reads every counter; `close()` reads them again and
    stops the profilers (py-spy writes its samples when interrupted).

    The load client's own garbage collector is kept out of the window: it collects and
    freezes what it holds before the window opens (`pause_collector`) and collects
    nothing until it closes. Its collections were pauses of the whole client, 5-20 ms
    (the middle generation) and 70-100 ms (a full one) several times a window with
    CPython's thresholds, and every move in flight was then timed late by the
    instrument, not by the server: the continuous run's p99 moves came in clusters at
    exactly those pauses (docs/performance.md, "Pauses"). What it leaves uncollected
    meanwhile is bounded by --duration."""

    def __init__(self, pids: list[int], args: Any) -> None:
        self.pids, self.args = pids, args

    def open(self) -> Window:
        args = self.args
        if gc.isenabled():  # (the continuous run pauses it a second before its window)
            pause_collector()
        self.profilers = start_profilers(self.pids, args.profile, args.profile_gil,
                                         args.profile_idle) if args.profile else []
        self.cpu0 = {pid: cpu_seconds(pid) for pid in self.pids}
        self.services0 = {pid: cpu_seconds(pid)
                          for pid in pids_named("postgres", "redis-server")}
        self.haproxy0 = {pid: cpu_seconds(pid) for pid in pids_named("haproxy")}
        self.machine0 = machine_seconds()
        self.client0 = time.process_time()
        return self

    def close(self) -> Usage:
        client_cpu = time.process_time() - self.client0
        busy, total = machine_seconds()
        gc.enable()
        gc.unfreeze()
        cpu, rss = process_usage(self.cpu0)
        # Backends opened inside the window (a pool growing, the event loop's own
        # connections opened by the first moves) count from zero: all their CPU is in it.
        born = {pid: 0.0 for pid in pids_named("postgres", "redis-server")
                if pid not in self.services0}
        services = process_usage({**self.services0, **born})[0]
        services_cpu = sum(services.values())
        redis = set(pids_named("redis-server"))
        redis_cpu = sum(seconds for pid, seconds in services.items() if pid in redis)
        haproxy_cpu = sum(process_usage(self.haproxy0)[0].values())
        for profiler in self.profilers:
            profiler.send_signal(2)
            profiler.wait(30)
        return Usage(cpu, rss, services_cpu, client_cpu, haproxy_cpu, redis_cpu,
                     busy - self.machine0[0], total - self.machine0[1])
