"""A small WebSocket game client for end-to-end tests (the `websockets` package)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import websockets


@dataclass
class Client:
    """Connects to a game, records every event it is sent, and (as a player) plays."""

    name: str
    base: str
    game_id: int
    token: str | None = None
    script: list[dict[str, Any]] | None = None  # the whole game's actions, by ply
    events: list[dict[str, Any]] = field(default_factory=list)
    game: dict[str, Any] | None = None
    seat: int | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    sent_for: int = -1  # the ply we last sent an action for: never send twice
    raw_plies: list[int] = field(default_factory=list)  # plies of `event` frames as received
    syncing: bool = False
    ws: Any = None

    async def connect(self, base: str | None = None) -> None:
        self.base = base or self.base
        headers = {"Origin": self.base.replace("ws://", "http://")}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        self.ws = await websockets.connect(f"{self.base}/ws/games/{self.game_id}/",
                                           additional_headers=headers, open_timeout=10)
        hello = json.loads(await self.ws.recv())
        assert hello["type"] == "hello", hello
        self.seat = hello["you"]["seat"]
        self.game = hello["game"]
        # An action sent on a connection that died may have died with its server, unacked:
        # after a reconnect, resend if it is still our turn at that ply (docs/api.md: the
        # same `ply` makes a landed one a harmless `stale_ply`).
        self.sent_for = -1
        if hello["game"]["ply"] > len(self.events):
            await self.resync()

    async def resync(self) -> None:
        """Ask for everything after the last event we hold (once until it answers)."""
        if not self.syncing:
            self.syncing = True
            await self.send({"type": "sync", "after": len(self.events)})

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame))

    def over(self) -> bool:
        return self.game is not None and self.game["status"] != "active"

    async def maybe_act(self) -> None:
        if self.script is None or self.game is None or self.over():
            return
        state = self.game["state"]
        ply = self.game["ply"]
        if state["turn"] == self.seat and ply == len(self.events) and ply != self.sent_for:
            self.sent_for = ply
            await self.send({"type": "action", "action": self.script[ply], "ply": ply,
                             "ref": f"{self.name}-{ply}"})

    def _take(self, event: dict[str, Any]) -> bool:
        """Append the next event; False when it leaves a gap (older ones are dropped)."""
        if event["ply"] <= len(self.events):
            return True
        if event["ply"] > len(self.events) + 1:
            return False
        self.events.append(event)
        return True

    async def run(self, until_ply: int | None = None, limit: float = 120) -> None:
        """Receive (and play) until the game is over or `until_ply` events were seen."""
        async with asyncio.timeout(limit):
            await self.maybe_act()
            # A game can end while this client was away: it still reads until it holds
            # every event (its `sync` answer), not just until it sees the game over.
            while not (self.over() and len(self.events) >= self.game["ply"]) and (
                    until_ply is None or len(self.events) < until_ply):
                frame = json.loads(await self.ws.recv())
                kind = frame["type"]
                if kind == "event":
                    self.raw_plies.append(frame["event"]["ply"])
                    if self._take(frame["event"]):
                        self.game = frame["game"]
                    else:
                        await self.resync()
                elif kind == "events":
                    # A sync answer, or a catch-up the server sends unasked after a lost
                    # notification (docs/realtime.md): take what follows our last event;
                    # one that leaves a gap is a gap like any other.
                    self.syncing = False
                    if all(self._take(event) for event in frame["events"]):
                        self.game = frame["game"]
                    else:
                        await self.resync()
                elif kind == "error":
                    self.errors.append(frame)
                elif kind == "ping":
                    await self.send({"type": "pong"})
                await self.maybe_act()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def seen(client: Client, plies: int, seconds: float = 60) -> None:
    """Return once `client` has received `plies` events (polling its list)."""
    async with asyncio.timeout(seconds):
        while len(client.events) < plies:  # noqa: ASYNC110 - the client has no event hook
            await asyncio.sleep(0.01)


async def play_through_failover(client: Client, fallback: str, attempts: int = 50,
                                pause: float = 0.1) -> None:
    """Run the client; whenever its connection drops (its server died), reconnect to
    `fallback` (another server, or the load balancer), which answers a fresh `hello`,
    then `sync` for what was missed, and go on until the game is over."""
    while True:
        try:
            await client.run()
            return
        except (websockets.ConnectionClosed, OSError):
            client.syncing = False
        for _ in range(attempts):
            try:
                await client.connect(fallback)
                break
            except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed,
                    TimeoutError):
                await asyncio.sleep(pause)
        else:
            raise AssertionError(f"{client.name} could not reconnect to {fallback}")


async def seated_game(kind: str = "bloqueio") -> tuple[Any, list[Any]]:
    """A started game of `kind` with alice, bob, carol and dave in seats 0-3 (as needed)."""
    from channels.db import database_sync_to_async

    from games import engine, services
    from tests.conftest import make_user

    names = ("alice", "bob", "carol", "dave")[: engine.get(kind).seats]
    users = [await database_sync_to_async(make_user)(n) for n in names]
    game = await database_sync_to_async(services.create_game)(user=users[0], kind=kind)
    for user in users[1:]:
        await database_sync_to_async(services.join_game)(game_id=game.pk, user=user)
    return game, users
