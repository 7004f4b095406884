"""PostgreSQL restarted mid-game: 503 `unavailable` meanwhile, no half-written event,
and the same Daphne process serves again once it is back."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
import websockets

from games import engine
from tests.faults.private_postgres import PrivatePostgres
from tests.live.servers import ROOT, Server, http_json, server_env, start, stop

pytestmark = pytest.mark.slow



@pytest.fixture
def cluster():
    pg = PrivatePostgres()
    pg.init()
    env = dict(os.environ, DATABASE_URL=pg.url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=180)
    yield pg
    pg.destroy()


async def _refusal(ws_base: str, gid: int, token: str | None) -> tuple[str, int | None]:
    headers = {"Origin": ws_base.replace("ws://", "http://")}
    if token:
        headers["Authorization"] = f"Token {token}"
    async with websockets.connect(f"{ws_base}/ws/games/{gid}/", open_timeout=10,
                                  additional_headers=headers) as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        return frame["code"], ws.close_code


def test_postgres_restart_mid_game(cluster, tmp_path, monkeypatch):
    # Daphne runs on the private cluster, not the test database.
    # A short pool timeout: in an outage every request waits that long for a connection
    # before its 503 (docs/operations.md).
    monkeypatch.setattr("tests.live.servers.server_env",
                        lambda redis_url=None: dict(server_env(redis_url),
                                                    DATABASE_URL=cluster.url,
                                                    DATABASE_POOL_TIMEOUT="3"))
    server: Server = start(tmp_path)
    try:
        base = server.http
        tokens = [http_json("POST", f"{base}/api/auth/register/",
                       {"username": name, "password": "a-long-pass-phrase-7"})[1]["token"]
                  for name in ("red", "green")]
        gid = http_json("POST", f"{base}/api/games/", {"kind": "bloqueio2"}, tokens[0])[1]["id"]
        assert http_json("POST", f"{base}/api/games/{gid}/join/", {}, tokens[1])[0] == 200
        script = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [8, 5]},
                  {"type": "move", "to": [3, 5]}, {"type": "move", "to": [7, 5]}]
        for ply, action in enumerate(script[:2]):
            status, _ = http_json("POST", f"{base}/api/games/{gid}/actions/",
                             {"action": action, "ply": ply}, tokens[ply % 2])
            assert status == 201

        cluster.stop()
        status, body = http_json("POST", f"{base}/api/games/{gid}/actions/",
                            {"action": script[2], "ply": 2}, tokens[0])
        assert (status, body["code"]) == (503, "unavailable")
        status, body = http_json("GET", f"{base}/api/games/{gid}/")
        assert (status, body["code"]) == (503, "unavailable")
        status, body = http_json("GET", f"{base}/healthz")
        assert status == 503 and body["database"].startswith("error")
        # Sockets are refused as `unavailable` (4503), whether the outage hits the
        # handshake's token lookup or the consumer's own reads.
        for token in (tokens[0], None):
            assert asyncio.run(_refusal(server.ws, gid, token)) == ("unavailable", 4503)

        cluster.start()
        for ply in (2, 3):
            status, body = http_json("POST", f"{base}/api/games/{gid}/actions/",
                                {"action": script[ply], "ply": ply}, tokens[ply % 2])
            assert status == 201, body
        events = http_json("GET", f"{base}/api/games/{gid}/events/")[1]["events"]
        assert [e["ply"] for e in events] == [1, 2, 3, 4]
        assert [e["action"] for e in events] == script
        rules = engine.get("bloqueio2")
        game = http_json("GET", f"{base}/api/games/{gid}/")[1]
        assert game["state"] == rules.replay(script).to_json()
        assert http_json("GET", f"{base}/healthz")[0] == 200
        assert "Traceback" not in server.log.read_text()
    finally:
        stop(server)
