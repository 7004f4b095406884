"""`make run`, the README's first command, starts the whole product: the site and its
background worker, on the embedded defaults (SQLite, in-memory channel layer), and
stops both together; the links it mails point where it serves (SITE_URL)."""

from __future__ import annotations

import base64
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.live.servers import ROOT, free_port, http_json
from tests.mailbox import Mailbox, link

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
    env.pop("SITE_URL", None)
    mailbox = Mailbox()
    smtp = Controller(mailbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    env["EMAIL_URL"] = f"smtp://127.0.0.1:{smtp.port}"
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
        _leave_during_connect(port)
        game_id = _two_seated(port)
        _mailed_links_name_the_site(port, mailbox)
        # Idle ticks over the new game (what the console must stay quiet about): the
        # worker's heartbeat moves on twice.
        beats = {_beat(tmp_path / "db.sqlite3")}

        def beat_twice() -> bool:
            beats.add(_beat(tmp_path / "db.sqlite3"))
            return len(beats) >= 3

        assert _wait(beat_twice, 60), "the worker's heartbeat did not move on"
    finally:
        os.killpg(make.pid, signal.SIGINT)  # Ctrl-C in the terminal
        make.wait(30)
        smtp.stop()
    # Both stopped: the worker's heartbeat goes stale, so the check fails (polled until
    # it does: the staleness threshold is a few seconds).
    assert _wait(lambda: not worker_alive(), 60), "the worker's heartbeat never went stale"
    done = subprocess.run(check, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "no worker is running" in done.stderr
    _assert_seats_stored_as_django_does(tmp_path / "db.sqlite3", game_id)
    console = (tmp_path / "make-run.log").read_text()
    assert "Traceback" not in console
    _assert_quiet(console, port)


def _beat(path: Path) -> str | None:
    """The worker's latest heartbeat, as stored."""
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT beat_at FROM games_clockheartbeat").fetchone()
    return None if row is None else row[0]


def _mailed_links_name_the_site(port: int, mailbox: Mailbox) -> None:
    """Issue 44: under `make run PORT=...` a mailed link named port 8000, and a request's
    `Host` chose the one in a confirmation link. Now both come from SITE_URL, which
    `make run` sets to where it serves."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/auth/register/", method="POST",
        data=b'{"username": "ines", "password": "pw-ines-Embedded!9", '
             b'"email": "ines@example.com"}',
        headers={"Content-Type": "application/json", "Host": "localhost:9999"})
    with urllib.request.urlopen(request, timeout=15) as answer:
        assert answer.status == 201
    [message] = mailbox.wait(1, timeout=30)
    url = link(message)
    assert url.startswith(f"http://127.0.0.1:{port}/accounts/email/verify/"), url
    with urllib.request.urlopen(url, timeout=15) as page:
        assert "Address confirmed" in page.read().decode()


@pytest.mark.parametrize(("args", "env", "expected"), [
    (["PORT=8101"], {}, "http://127.0.0.1:8101"),
    (["HOST=0.0.0.0", "PORT=8102"], {}, "http://127.0.0.1:8102"),  # every interface
    (["HOST=::1"], {}, "http://[::1]:8000"),
    (["PORT=8101"], {"SITE_URL": "https://play.example"}, "https://play.example"),
    (["PORT=8101", "SITE_URL=https://other.example"], {}, "https://other.example"),
])
def test_make_run_sets_site_url_unless_it_is_given(args: list[str], env: dict[str, str],
                                                   expected: str) -> None:
    """What `make run` exports to the server and the worker (its recipe, not run)."""
    base = {key: value for key, value in os.environ.items() if key != "SITE_URL"}
    dry = subprocess.run(["make", "-n", "run", *args], cwd=ROOT, env={**base, **env},
                         capture_output=True, text=True, timeout=60, check=True)
    assert f"export SITE_URL='{expected}';" in dry.stdout, dry.stdout


def _two_seated(port: int) -> int:
    """A game created and joined over the API on SQLite: the seats' fixed statements
    (games/seat_rows.py) run on the embedded database too."""
    base = f"http://127.0.0.1:{port}"
    tokens = []
    for name in ("ana", "rui"):
        status, account = http_json("POST", f"{base}/api/auth/register/",
                                    {"username": name, "password": f"pw-{name}-Embedded!9"})
        assert status == 201, account
        tokens.append(account["token"])
    status, game = http_json("POST", f"{base}/api/games/", {"kind": "bloqueio2"}, tokens[0])
    assert status == 201, game
    status, joined = http_json("POST", f"{base}/api/games/{game['id']}/join/", {}, tokens[1])
    assert status == 200, joined
    assert joined["status"] == "active"
    assert [s["username"] for s in joined["seats"]] == ["ana", "rui"]
    return int(game["id"])


def _assert_seats_stored_as_django_does(path: Path, game_id: int) -> None:
    """The seats' times are written as the ORM writes the game's own (SQLite keeps them
    as text: another form would not read back, or sort, as a time)."""
    with sqlite3.connect(path) as db:
        created = db.execute("SELECT created_at FROM games_game WHERE id = ?",
                             [game_id]).fetchone()[0]
        joined = [row[0] for row in db.execute(
            "SELECT joined_at FROM games_seat WHERE game_id = ? ORDER BY seat", [game_id])]
    form = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?")
    assert form.fullmatch(created), created
    assert len(joined) == 2 and all(form.fullmatch(at) for at in joined), joined
    assert created <= joined[0] <= joined[1]


def _leave_during_connect(port: int) -> None:
    """A browser closing a tab while its socket opens: the client leaves, nothing failed."""
    for path in ("/ws/lobby/", "/ws/games/1/"):
        with socket.create_connection(("127.0.0.1", port)) as sock:
            key = base64.b64encode(os.urandom(16)).decode()
            sock.sendall(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n".encode())


def _assert_quiet(console: str, port: int) -> None:
    """The console a newcomer reads: where the site is, near the top, then real events
    only (no idle worker ticks, no warning boxes, a client leaving is no outage)."""
    lines = console.splitlines()
    start = [i for i, line in enumerate(lines) if f"starting at http://127.0.0.1:{port}/" in line]
    assert start and start[0] < 5, console
    idle = re.compile(r"worker: \w+ -> (0|\[\]|None)$")
    assert not [line for line in lines if idle.search(line)], console
    assert "backing service is unavailable" not in console
    assert "Warning" not in console and "Applying " not in console, console
