"""Who is connected to a game: seats online and the spectator count, across processes.

Each connection is a member of a per-game Redis sorted set scored by its expiry time;
heartbeats push the expiry forward, so a process killed with its sockets open stops
counting after `TTL_SECONDS` without any clean-up. The embedded (no Redis) mode keeps
the same structure in process memory, which is exact for its single process.

Beside it, per game, a hash of the seats that went away: seat -> when its last
connection went (epoch seconds). A seat's last socket closing records it, in the same
script that removes the socket, so a socket of that seat opening on another process at
the same moment either keeps it from being recorded or clears it (Redis runs one script
at a time); a connection that lapsed (its process died) records its seat as gone at its
expiry, when the next open, close or read of the game prunes it. Any process reads the
same record: what a leaver's grace period is counted from (games/leavers.py).
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
# How long a seat's "went away" record outlives the last change to it: longer than any
# live game (a turn-based game needs none).
AWAY_TTL_SECONDS = 7 * 24 * 3600


def _key(game_id: int) -> str:
    return f"{settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('prefix', 'bloqueio')}" \
        f":presence:{game_id}"


def _away_key(game_id: int) -> str:
    return f"{_key(game_id)}:away"


def _member(conn_id: str, seat: int | None) -> str:
    return f"{SPECTATOR if seat is None else seat}|{conn_id}"


def _summary(members: list[str], seat_count: int, away: dict[Any, Any] | None = None
             ) -> dict[str, Any]:
    """`online` per seat, the spectators, and `away`: seat -> when its last connection
    went (raw: the game socket turns it into the public grace deadline)."""
    online = [False] * seat_count
    spectators = 0
    for member in members:
        who = member.split("|", 1)[0]
        if who == SPECTATOR:
            spectators += 1
        elif who.isdigit() and int(who) < seat_count:
            online[int(who)] = True
    gone = {int(seat): float(since) for seat, since in (away or {}).items()
            if str(seat).isdigit() and int(seat) < seat_count and not online[int(seat)]}
    return {"online": online, "spectators": spectators, "away": gone}


# One script per change, so that a seat's sockets opening and closing on several
# processes at once always leave the "away" record as the last of them says.
# KEYS: the presence set, the away hash. ARGV: now, op ("enter", "depart" or "read"),
# member, seat ("" for a spectator), TTL_SECONDS, AWAY_TTL_SECONDS.
# Returns {1 if an away record was cleared (the seat came back) else 0, members, away}.
_SCRIPT = """
local now = tonumber(ARGV[1])
local op, member, seat = ARGV[2], ARGV[3], ARGV[4]
local back = 0
if op == 'enter' then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), member)
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]) * 2)
  if seat ~= '' then back = redis.call('HDEL', KEYS[2], seat) end
elseif op == 'depart' then
  redis.call('ZREM', KEYS[1], member)
end
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES')
if #lapsed > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) end
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local online = {}
for _, m in ipairs(members) do online[string.match(m, '^[^|]*')] = true end
local marked = false
local function gone(who, since)
  if who ~= 's' and who ~= '' and not online[who] then
    if redis.call('HSETNX', KEYS[2], who, since) == 1 then marked = true end
  end
end
if op == 'depart' then gone(seat, ARGV[1]) end
for i = 1, #lapsed, 2 do gone(string.match(lapsed[i], '^[^|]*'), lapsed[i + 1]) end
if marked then redis.call('EXPIRE', KEYS[2], tonumber(ARGV[6])) end
return {back, members, redis.call('HGETALL', KEYS[2])}
"""


def _pairs(flat: list[str]) -> dict[str, str]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


# -- embedded mode -------------------------------------------------------------------------

_memory: dict[int, dict[str, float]] = {}
_memory_away: dict[int, dict[str, float]] = {}


def _memory_members(game_id: int) -> list[str]:
    now = time.time()
    members = _memory.get(game_id, {})
    for member, expiry in [(m, e) for m, e in members.items() if e <= now]:
        del members[member]
        _memory_gone(game_id, member.split("|", 1)[0], expiry)
    return list(members)


def _memory_gone(game_id: int, who: str, since: float) -> None:
    """The embedded mode's half of `_SCRIPT`: `who` went away at `since` unless another
    of its connections is still here (or it is already recorded)."""
    if who == SPECTATOR or any(m.split("|", 1)[0] == who for m in _memory.get(game_id, {})):
        return
    _memory_away.setdefault(game_id, {}).setdefault(who, since)


def _memory_change(game_id: int, op: str, member: str, seat: int | None, seat_count: int
                   ) -> tuple[bool, dict[str, Any]]:
    now = time.time()
    back = False
    if op == "enter":
        _memory.setdefault(game_id, {})[member] = now + TTL_SECONDS
        if seat is not None:
            back = _memory_away.get(game_id, {}).pop(str(seat), None) is not None
    elif op == "depart":
        _memory.get(game_id, {}).pop(member, None)
    members = _memory_members(game_id)
    if op == "depart" and seat is not None:
        _memory_gone(game_id, str(seat), now)
    return back, _summary(members, seat_count, _memory_away.get(game_id))


# -- Redis clients: one per event loop (async) and one per process (sync) -------------------

_async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aioredis.Redis] = (
    weakref.WeakKeyDictionary()
)
_sync_client: redis.Redis | None = None
# `_SCRIPT` registered (its SHA computed once); the async one is called with each loop's
# client.
_async_script: Any = None
_sync_script: Any = None


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
    """Mark the connection present (on connect and on every heartbeat); a seat's
    heartbeat also clears a record of it having gone (a lapse that was not one)."""
    member, expiry = _member(conn_id, seat), time.time() + TTL_SECONDS
    if not settings.REDIS_URL:
        _memory.setdefault(game_id, {})[member] = expiry
        if seat is not None:
            _memory_away.get(game_id, {}).pop(str(seat), None)
        return
    key = _key(game_id)
    async with _aclient().pipeline(transaction=False) as pipe:
        pipe.zadd(key, {member: expiry})
        pipe.expire(key, TTL_SECONDS * 2)
        if seat is not None:
            pipe.hdel(_away_key(game_id), str(seat))
        await pipe.execute()


async def _change(game_id: int, op: str, conn_id: str, seat: int | None, seat_count: int
                  ) -> tuple[bool, dict[str, Any]]:
    member = _member(conn_id, seat)
    if not settings.REDIS_URL:
        return _memory_change(game_id, op, member, seat, seat_count)
    client = _aclient()
    global _async_script
    if _async_script is None:
        _async_script = client.register_script(_SCRIPT)  # EVALSHA, loaded once per server
    back, members, away = await _async_script(
        keys=[_key(game_id), _away_key(game_id)],
        args=[repr(time.time()), op, member, "" if seat is None else str(seat), TTL_SECONDS,
              AWAY_TTL_SECONDS], client=client)
    return bool(back), _summary(members, seat_count, _pairs(away))


async def leave(game_id: int, conn_id: str, seat: int | None) -> None:
    """Take the connection out (a socket changing roles: no "away" record)."""
    member = _member(conn_id, seat)
    if not settings.REDIS_URL:
        _memory.get(game_id, {}).pop(member, None)
        return
    await _aclient().zrem(_key(game_id), member)


async def snapshot(game_id: int, seat_count: int) -> dict[str, Any]:
    return (await _change(game_id, "read", "", None, seat_count))[1]


async def enter(game_id: int, conn_id: str, seat: int | None, seat_count: int
                ) -> tuple[bool, dict[str, Any]]:
    """A socket's open, in one round trip: present, and the snapshot after it; True
    first if its seat had been recorded as gone (it came back)."""
    return await _change(game_id, "enter", conn_id, seat, seat_count)


async def depart(game_id: int, conn_id: str, seat: int | None, seat_count: int
                 ) -> dict[str, Any]:
    """A socket's close, in one round trip: gone (its seat recorded as away if that was
    its last connection), and the snapshot after it."""
    return (await _change(game_id, "depart", conn_id, seat, seat_count))[1]


def snapshot_sync(game_id: int, seat_count: int) -> dict[str, Any]:
    """The same, for synchronous callers (REST views); empty if Redis does not answer."""
    if not settings.REDIS_URL:
        return _memory_change(game_id, "read", "", None, seat_count)[1]
    try:
        return read_sync(game_id, seat_count)
    except redis.RedisError:
        return _summary([], seat_count)


def read_sync(game_id: int, seat_count: int) -> dict[str, Any]:
    """The snapshot, for a decision that must not guess (a hand-over): raises
    redis.RedisError when Redis does not answer."""
    if not settings.REDIS_URL:
        return _memory_change(game_id, "read", "", None, seat_count)[1]
    global _sync_script
    if _sync_script is None:
        _sync_script = _client().register_script(_SCRIPT)
    _back, members, away = _sync_script(
        keys=[_key(game_id), _away_key(game_id)],
        args=[repr(time.time()), "read", "", "", TTL_SECONDS, AWAY_TTL_SECONDS])
    return _summary(members, seat_count, _pairs(away))


def forget_away_sync(game_id: int, seat: int) -> None:
    """The seat is nobody's to come back to (a bot took it): drop its record."""
    if not settings.REDIS_URL:
        _memory_away.get(game_id, {}).pop(str(seat), None)
        return
    _client().hdel(_away_key(game_id), str(seat))
