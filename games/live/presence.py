"""Who is connected to a game: seats online and the spectator count, across processes.

Each connection is a member of a per-game Redis sorted set scored by its expiry time;
heartbeats push the expiry forward, so a process killed with its sockets open stops
counting after `TTL_SECONDS` without any clean-up. The embedded (no Redis) mode keeps
the same structure in process memory, which is exact for its single process.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings

TTL_SECONDS = 75
SPECTATOR = "s"


def _key(game_id: int) -> str:
    return f"{settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('prefix', 'bloqueio')}" \
        f":presence:{game_id}"


def _member(conn_id: str, seat: int | None) -> str:
    return f"{SPECTATOR if seat is None else seat}|{conn_id}"


def _summary(members: list[str], seat_count: int) -> dict[str, Any]:
    online = [False] * seat_count
    spectators = 0
    for member in members:
        who = member.split("|", 1)[0]
        if who == SPECTATOR:
            spectators += 1
        elif who.isdigit() and int(who) < seat_count:
            online[int(who)] = True
    return {"online": online, "spectators": spectators}


# -- embedded mode -------------------------------------------------------------------------

_memory: dict[int, dict[str, float]] = {}


def _memory_members(game_id: int) -> list[str]:
    now = time.time()
    members = _memory.get(game_id, {})
    for member in [m for m, expiry in members.items() if expiry <= now]:
        del members[member]
    return list(members)


# -- Redis clients: one per event loop (async) and one per process (sync) -------------------

_async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
    weakref.WeakKeyDictionary()
)
_sync_client: redis.Redis | None = None


def _aclient() -> aioredis.Redis:
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        # A blocking pool queues callers when all its connections are busy, where the
        # default pool would fail them (a burst of connects must not break presence).
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_URL, max_connections=50, timeout=5, socket_timeout=3,
            socket_connect_timeout=3, decode_responses=True)
        client = aioredis.Redis(connection_pool=pool)
        _async_clients[loop] = client
    return client


def _client() -> redis.Redis:
    global _sync_client
    if _sync_client is None:
        _sync_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=3,
                                            socket_connect_timeout=3, decode_responses=True)
    return _sync_client


# -- the interface -------------------------------------------------------------------------


async def touch(game_id: int, conn_id: str, seat: int | None) -> None:
    """Mark the connection present (on connect and on every heartbeat)."""
    member, expiry = _member(conn_id, seat), time.time() + TTL_SECONDS
    if not settings.REDIS_URL:
        _memory.setdefault(game_id, {})[member] = expiry
        return
    key = _key(game_id)
    async with _aclient().pipeline(transaction=False) as pipe:
        pipe.zadd(key, {member: expiry})
        pipe.expire(key, TTL_SECONDS * 2)
        await pipe.execute()


async def leave(game_id: int, conn_id: str, seat: int | None) -> None:
    member = _member(conn_id, seat)
    if not settings.REDIS_URL:
        _memory.get(game_id, {}).pop(member, None)
        return
    await _aclient().zrem(_key(game_id), member)


async def snapshot(game_id: int, seat_count: int) -> dict[str, Any]:
    if not settings.REDIS_URL:
        return _summary(_memory_members(game_id), seat_count)
    key = _key(game_id)
    async with _aclient().pipeline(transaction=False) as pipe:
        pipe.zremrangebyscore(key, "-inf", time.time())
        pipe.zrange(key, 0, -1)
        _, members = await pipe.execute()
    return _summary(members, seat_count)


async def enter(game_id: int, conn_id: str, seat: int | None, seat_count: int
                ) -> dict[str, Any]:
    """`touch` and then `snapshot`, in one round trip: a socket's open."""
    if not settings.REDIS_URL:
        await touch(game_id, conn_id, seat)
        return await snapshot(game_id, seat_count)
    key, now = _key(game_id), time.time()
    async with _aclient().pipeline(transaction=False) as pipe:
        pipe.zadd(key, {_member(conn_id, seat): now + TTL_SECONDS})
        pipe.expire(key, TTL_SECONDS * 2)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zrange(key, 0, -1)
        *_, members = await pipe.execute()
    return _summary(members, seat_count)


async def depart(game_id: int, conn_id: str, seat: int | None, seat_count: int
                 ) -> dict[str, Any]:
    """`leave` and then `snapshot`, in one round trip: a socket's close."""
    if not settings.REDIS_URL:
        await leave(game_id, conn_id, seat)
        return await snapshot(game_id, seat_count)
    key = _key(game_id)
    async with _aclient().pipeline(transaction=False) as pipe:
        pipe.zrem(key, _member(conn_id, seat))
        pipe.zremrangebyscore(key, "-inf", time.time())
        pipe.zrange(key, 0, -1)
        *_, members = await pipe.execute()
    return _summary(members, seat_count)


def snapshot_sync(game_id: int, seat_count: int) -> dict[str, Any]:
    """The same, for synchronous callers (REST views); empty if Redis does not answer."""
    if not settings.REDIS_URL:
        return _summary(_memory_members(game_id), seat_count)
    try:
        members = _client().zrangebyscore(_key(game_id), time.time(), "+inf")
    except redis.RedisError:
        members = []
    return _summary(members, seat_count)
