"""Caps on WebSockets: how many one account and one address hold open, and how fast one
address opens them. Without them one account held 300 sockets and 40 anonymous ones
slowed every other request (issue #25).

ASGI middleware around the socket router (bloqueio_site/asgi.py): `AddressLimits`
before authentication (a refusal costs no database work), `AccountLimits` after it.
Open sockets are counted in Redis, so a cap holds across processes: one sorted set per
account and per address, a member per socket scored with its expiry. A process renews
its own sockets' expiries every `TTL / 3` seconds and removes a socket when it ends, so a
process that crashes leaves counts that lapse within `TTL` instead of forever. Opens
are a `limits.Rate` per address, counted beside the sockets (one round trip on the
event loop, `RedisCounts.hit`).

A refused socket is accepted, told why and closed with 4429:
`{"type": "error", "code": "too_many_sockets" | "rate_limited", "detail": ...,
"retry_after": N}`. If Redis is unreachable the sockets are let through and a warning
logged: these limits fail open (`fail_open`, bloqueio_site/limits.py; docs/operations.md,
"Limits while Redis is down"). Without `REDIS_URL` (the embedded
mode: one process) the counts live in the process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
import uuid
import weakref
from typing import Any

import redis.asyncio as aioredis
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from bloqueio_site import languages, limits
from games.live.frames import CLOSE_FLOOD as CLOSE_OVER_LIMIT  # 4429, as for a flood

log = logging.getLogger(__name__)

PER_ACCOUNT = limits.cap("SOCKETS_PER_ACCOUNT", 20)
PER_ADDRESS = limits.cap("SOCKETS_PER_ADDRESS", 100)
# Fails open, as the caps above: with Redis down the fan-out is down too, and sockets are
# a matter of load, not of safety (docs/operations.md, "Limits while Redis is down").
OPENS = limits.rate("socket_opens", "SOCKET_OPENS_PER_MINUTE", 60, 60, fail_open=True)
TTL = 120  # seconds a count outlives a process that stopped renewing it
# Seconds a client told "too many sockets" waits before trying again: one of its own
# sockets has to close first, which the client itself decides.
CAP_RETRY_AFTER = 10

# KEYS: the sorted sets; ARGV: now, expiry, member, then one cap per key. Drops expired
# members, then adds the socket to every set, or to none: 0, or the 1-based index of the
# first set that is full.
ACQUIRE = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('EXPIRE', key, math.ceil(ARGV[2] - ARGV[1]) + 1)
end
return 0
"""


class RedisCounts:
    """Open sockets per key in Redis (one client per event loop: they are loop-bound)."""

    def __init__(self, url: str, prefix: str) -> None:
        self.url = url
        self.prefix = prefix
        self.clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()

    def _client(self) -> Any:
        loop = asyncio.get_running_loop()
        if loop not in self.clients:
            client = aioredis.Redis.from_url(self.url, socket_timeout=2,
                                             socket_connect_timeout=2)
            self.clients[loop] = (client, client.register_script(ACQUIRE))
        return self.clients[loop]

    def key(self, name: str) -> str:
        return f"{self.prefix}:sockets:{name}"

    async def acquire(self, keys: list[str], caps: list[int], member: str) -> int:
        _, script = self._client()
        now = time.time()
        return int(await script(keys=[self.key(k) for k in keys],
                                args=[now, now + TTL, member, *caps]))

    async def hit(self, rate: limits.Rate, key: str) -> int | None:
        """Count one hit of `key` against `rate`, in the fixed windows of `limits.hit`:
        None within it, else the seconds until the window that refused it ends. One round
        trip on the event loop (through Django's cache it was a thread and two)."""
        client, _ = self._client()
        now = time.time()
        window = int(now // rate.seconds)
        counter = self.key(f"rate:{rate.name}:{key}:{window}")
        async with client.pipeline(transaction=False) as pipe:
            pipe.incr(counter)
            pipe.expire(counter, rate.seconds + 1)
            count, _ = await pipe.execute()
        if count <= rate.count:
            return None
        return max(1, math.ceil((window + 1) * rate.seconds - now))

    async def release(self, keys: list[str], member: str) -> None:
        client, _ = self._client()
        async with client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(self.key(key), member)
            await pipe.execute()

    async def renew(self, held: dict[str, list[str]]) -> None:
        client, _ = self._client()
        expiry = time.time() + TTL
        async with client.pipeline(transaction=False) as pipe:
            for member, keys in held.items():
                for key in keys:
                    pipe.zadd(self.key(key), {member: expiry}, xx=True)
                    pipe.expire(self.key(key), TTL + 1)
            await pipe.execute()


class MemoryCounts:
    """The same, in this process (the embedded mode has one)."""

    def __init__(self) -> None:
        self.open: dict[str, set[str]] = {}

    async def acquire(self, keys: list[str], caps: list[int], member: str) -> int:
        for index, (key, cap) in enumerate(zip(keys, caps, strict=True), start=1):
            if len(self.open.get(key, ())) >= cap:
                return index
        for key in keys:
            self.open.setdefault(key, set()).add(member)
        return 0

    async def hit(self, rate: limits.Rate, key: str) -> int | None:
        return limits.hit(rate, key)  # the process's own memory: no I/O

    async def release(self, keys: list[str], member: str) -> None:
        for key in keys:
            self.open.get(key, set()).discard(member)

    async def renew(self, held: dict[str, list[str]]) -> None:
        return None


def _counts() -> RedisCounts | MemoryCounts:
    if settings.REDIS_URL:
        prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "bloqueio")
        return RedisCounts(settings.REDIS_URL, prefix)
    return MemoryCounts()


COUNTS = _counts()
# This process's open sockets (member -> its keys), renewed by one task per event loop.
_held: dict[str, list[str]] = {}
_renewers: weakref.WeakKeyDictionary[Any, asyncio.Task[None]] = weakref.WeakKeyDictionary()


async def _renew_while_held() -> None:
    while _held:
        await asyncio.sleep(TTL / 3)
        try:
            await COUNTS.renew(dict(_held))
        except Exception as exc:  # Redis down: the counts lapse, sockets stay open
            log.warning("socket counts not renewed: Redis is unavailable (%r)", exc)


def _start_renewing() -> None:
    loop = asyncio.get_running_loop()
    task = _renewers.get(loop)
    if task is None or task.done():
        _renewers[loop] = loop.create_task(_renew_while_held())


class Over(Exception):
    """A socket over a limit: the error frame's code, detail and retry_after."""

    def __init__(self, code: str, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.frame = {"type": "error", "code": code, "detail": detail,
                      "retry_after": retry_after}


async def hold(key: str, cap: int, detail: str) -> str | None:
    """Count one more open socket under `key`, or raise `Over` (`too_many_sockets`) if
    `cap` are open; the socket's member id (None when Redis was unreachable and nothing
    was counted)."""
    member = uuid.uuid4().hex
    try:
        full = await COUNTS.acquire([key], [cap], member)
    except Exception as exc:
        log.warning("sockets not counted: Redis is unavailable (%r)", exc)
        return None
    if full:
        raise Over("too_many_sockets", detail, CAP_RETRY_AFTER)
    _held[member] = [key]
    _start_renewing()
    return member


async def let_go(member: str | None) -> None:
    keys = _held.pop(member, None) if member else None
    if keys is None:
        return
    try:
        await COUNTS.release(keys, member)
    except Exception as exc:  # the count lapses after TTL instead
        log.warning("socket count not released: Redis is unavailable (%r)", exc)


async def refuse(receive: Any, send: Any, over: Over) -> None:
    """Accept (a refused handshake tells a browser nothing), say why, close with 4429."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(over.frame)})
    await send({"type": "websocket.close", "code": CLOSE_OVER_LIMIT})


async def run_holding(app: Any, scope: dict[str, Any], receive: Any, send: Any,
                      member: str | None) -> None:
    """Run the socket's application; its count goes when it disconnects or ends."""

    async def watched() -> dict[str, Any]:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            await let_go(member)
        return message

    try:
        await app(scope, watched if member else receive, send)
    finally:
        await let_go(member)


async def _opens_left(address: str) -> None:
    """Count an open from `address`; raise `Over` past OPENS (let through, with a warning,
    when Redis does not answer, as every limit)."""
    try:
        wait = await COUNTS.hit(OPENS, f"socket:{address}")
    except Exception as exc:
        log.warning("rate limit %s not counted: Redis is unavailable (%r)", OPENS.name, exc)
        return
    if wait is not None:
        refused = limits.refusal(OPENS, _("Too many sockets opened from this address"), wait)
        raise Over(refused.code, refused.detail, refused.retry_after)


class _Limits:
    """ASGI middleware: `check` a socket's limits, then run it holding its place, or
    refuse it (see `refuse`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def check(self, scope: dict[str, Any]) -> str | None:
        """The socket's place (`hold`), or raise `Over`."""
        raise NotImplementedError

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            # The refusal in the socket's language (context-local: this connection's task).
            with translation.override(languages.of_scope(scope)):
                member = await self.check(scope)
        except Over as over:
            await refuse(receive, send, over)
            return
        await run_holding(self.app, scope, receive, send, member)


class AddressLimits(_Limits):
    """Per address: a rate of opens and a cap on open sockets (before authentication)."""

    async def check(self, scope: dict[str, Any]) -> str | None:
        address = limits.address_of(scope)
        await _opens_left(address)
        return await hold(f"address:{address}", PER_ADDRESS,
                          _("At most %(most)s sockets may be open from one address; "
                            "close one first.") % {"most": PER_ADDRESS})


class AccountLimits(_Limits):
    """Per signed-in account: a cap on open sockets (after authentication); anonymous
    sockets have only their address's."""

    async def check(self, scope: dict[str, Any]) -> str | None:
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        return await hold(f"account:{user.pk}", PER_ACCOUNT,
                          _("At most %(most)s sockets may be open for one account; "
                            "close one first.") % {"most": PER_ACCOUNT})
