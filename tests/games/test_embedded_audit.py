"""The embedded mode (SQLite, no Redis: `make run`'s default): the worker is another
process, whose writes reach the web process's sockets only through the hub's audit.
Played in a fresh interpreter on a throwaway SQLite file (the test session itself is on
PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.settings_probe import run

pytestmark = pytest.mark.slow

SCRIPT = """
import asyncio, json
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from asgiref.sync import sync_to_async
from accounts.models import User
from games import services
from games.live import broadcast, fanout, realtime

alice, bob = (User.objects.create_user(n, password="pw-123456789") for n in ("alice", "bob"))
game = services.create_game(user=alice, kind="bloqueio2")
services.join_game(game_id=game.pk, user=bob)


class Socket:
    last_ply = 0

    def __init__(self):
        self.got = asyncio.Queue()

    async def hub_message(self, message, frames):
        await self.got.put(message)

    async def hub_reconnected(self):
        pass


async def main():
    hub, socket = fanout.hub(), Socket()
    await hub.join(fanout.game_topic(game.pk), socket)
    broadcast.unsubscribe(realtime.on_committed)  # committed by "another process"
    await sync_to_async(services.resign)(game_id=game.pk, user=bob)
    message = await asyncio.wait_for(socket.got.get(), 60)
    return {"auditing": hub._auditor is not None, "type": message["type"],
            "plies": [e["ply"] for e in message["events"]]}

print(json.dumps(asyncio.run(main())))
"""


def test_the_embedded_workers_writes_reach_the_sockets_by_the_audit(tmp_path: Path):
    done = run(["-c", SCRIPT], DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
               REDIS_URL="")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out == {"auditing": True, "type": "game.refill", "plies": [1]}
