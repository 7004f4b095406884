"""kill -9 a writer between its commit and its PUBLISH: another process's sockets of that
game still get the change, when the writer's lease ends (games/live/writers.py), and
nothing reads the database for them before that."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from channels.db import database_sync_to_async

from games.models import Event
from tests.live.servers import ROOT, server_env
from tests.openings import MOVE0
from tests.ws_helpers import game_socket, own_writers, seat_four, version_reads

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Another process: takes its lease as every writer does, commits a move whose
# announcement never leaves (its listener is gone, as if the process died right after
# the commit), then is killed.
WRITER = """
import os, signal, sys
import django
django.setup()
from accounts.models import User
from games import services
from games.live import broadcast, realtime, writers

# The write below takes the lease itself (writers.ensure, waiting at most a second); on
# a slow machine that second may not do, so it is taken here first.
writers.ensure()
assert writers.lease().taken.wait(30), "no lease"
broadcast.unsubscribe(realtime.on_committed)
game_id = int(sys.argv[1])
services.submit_action(game_id=game_id, user=User.objects.get(username="alice"),
                       action={"type": "move", "to": [2, 5]}, ply=0)  # MOVE0
print("committed", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


async def test_a_killed_writers_change_reaches_the_other_processes_sockets(monkeypatch,
                                                                         settings):
    own_writers(settings)  # the writer's process gets the prefix from server_env
    game_id, _ = await seat_four()
    reads = version_reads(monkeypatch)
    spectator = await game_socket(game_id)
    writer = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", WRITER, str(game_id)], cwd=ROOT,
        env=server_env(), capture_output=True, text=True, timeout=120)
    assert writer.returncode == -9, writer.stderr
    assert writer.stdout.strip() == "committed"
    assert await database_sync_to_async(
        lambda: list(Event.objects.filter(game_id=game_id).values_list("ply", flat=True)))() \
        == [1]
    async with asyncio.timeout(30):  # a deadline: the lease ends within about 4 s
        while (frame := await spectator.receive_json_from(timeout=60))["type"] != "event":
            pass
    assert frame["event"]["ply"] == 1 and frame["event"]["action"] == MOVE0
    assert frame["game"]["ply"] == 1
    assert reads == [[game_id]]  # read once, for the writer that died
    await spectator.disconnect()
