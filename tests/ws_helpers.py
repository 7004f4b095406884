"""Shared helpers for in-process WebSocket tests (channels' WebsocketCommunicator)."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from bloqueio_site.asgi import application
from games import services
from games.live import game_socket as game_socket_module
from games.live import sockets
from games.live.frames import TokenBucket
from tests.conftest import make_user

LOCAL = [(b"origin", b"http://localhost"), (b"host", b"localhost")]

# Frames read past while waiting for another type, per connection: an `ack` and the
# `event` it acknowledges may arrive in either order (docs/realtime.md orders events only).
_held: dict[int, list[dict[str, Any]]] = {}
KEPT = ("ack", "event", "notify")
CHATTER = ("presence", "ping", "game", "away")


def never_refill(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sockets opened from now on get token buckets that never refill: the burst, then
    refusals, whatever the machine's speed (so a test counts frames, never time)."""
    for module in (sockets, game_socket_module):  # the frame bucket, the sync bucket
        monkeypatch.setattr(module, "TokenBucket",
                            functools.partial(TokenBucket, rate=0.0))


def token_headers(key: str) -> list[tuple[bytes, bytes]]:
    return [*LOCAL, (b"authorization", f"Token {key}".encode())]


async def game_socket(gid: int, user: Any | None = None,
                      headers: list[tuple[bytes, bytes]] | None = None
                      ) -> WebsocketCommunicator:
    """A socket on game `gid` through the site's ASGI application, connected and past
    its hello: `user`'s (their token), else a spectator's, or with `headers` as given."""
    if headers is None:
        headers = LOCAL if user is None else token_headers(user.auth_token.key)
    comm = WebsocketCommunicator(application, f"/ws/games/{gid}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    await receive_type(comm, "hello")
    return comm


async def until_closed(comm: WebsocketCommunicator,
                       wait: float = 5) -> tuple[list[dict[str, Any]], int | None]:
    """The frames the server sends until it closes the socket (at most `wait` seconds
    for each), and its close code."""
    frames = []
    while (output := await comm.receive_output(timeout=wait))["type"] != "websocket.close":
        frames.append(json.loads(output["text"]))
    return frames, output.get("code")


async def receive_type(comm: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next frame of type `kind`: acks, events and notices read past are kept for a
    later call, presence/ping/game chatter is skipped, anything else fails the test."""
    held = _held.setdefault(id(comm), [])
    for index, frame in enumerate(held):
        if frame["type"] == kind:
            return held.pop(index)
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame
        if frame["type"] in KEPT:
            held.append(frame)
            continue
        assert frame["type"] in CHATTER, frame


async def seat_four() -> tuple[int, list[Any]]:
    """alice, bob, carol and dave in a started 4-seat bloqueio game: (game id, users)."""
    users = [await database_sync_to_async(make_user)(n) for n in ("alice", "bob", "carol",
                                                                  "dave")]
    game = await database_sync_to_async(services.create_game)(user=users[0], kind="bloqueio")
    for user in users[1:]:
        await database_sync_to_async(services.join_game)(game_id=game.pk, user=user)
    return game.pk, users


def version_reads(monkeypatch: Any) -> list[list[int]]:
    """Every read of games' versions a hub makes (`fanout._versions`: its catch-ups), as
    the ids it read, in order."""
    from games.live import fanout

    reads: list[list[int]] = []
    versions = fanout._versions

    def counted(game_ids: list[int]) -> dict[int, int]:
        reads.append(game_ids)
        return versions(game_ids)

    monkeypatch.setattr(fanout, "_versions", counted)
    return reads


def own_writers(settings: Any) -> str:
    """A channel-layer prefix of the test's own (the `settings` fixture restores it): its
    hubs then see only the writers' leases (games/live/writers.py) the test makes, not
    those of servers an earlier test in this worker stopped a moment ago, whose ending
    makes every hub read its games' versions once."""
    import copy
    import uuid

    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    config = layers["default"]["CONFIG"]
    config["prefix"] = f"{config['prefix']}-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = layers
    return str(config["prefix"])
