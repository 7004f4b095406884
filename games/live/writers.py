"""Writers' leases: how the sockets of every process learn that a change may never be
announced to them, without reading the database on a timer.

A change to a game is committed, then PUBLISHed (games/live/fanout.py). A writer killed
between the two, or whose PUBLISH failed, leaves the other processes' sockets of that game
behind with no gap to see until the game changes again. So every process that writes
games holds a lease in Redis: a member of one sorted set, scored by when it expires (the
Redis server's clock, so hosts' clocks do not matter), renewed by a thread of its own
every RENEW_SECONDS. It is taken before the process's first write (`ensure`), from the
places every write passes (games/round_store.py and games/table.py before a move's
statement, games/announce.py in every other write's transaction), and never given back:
a process that exits, cleanly or killed, just stops renewing it. A writer whose PUBLISH
failed, or whose write broke under way (it may have committed: bloqueio_site/postgres's
`outcome_unknown`), drops its lease and takes a new one (`lost`).

A lease that expired is a writer that may have lost announcements: every hub with
sockets then reads the versions of its games once and refills what is behind
(`fanout.Hub`, `_watch_writers`). While every writer lives, nothing reads the database
for the fan-out. Expired leases are swept a minute after their end, when every hub has
seen them.

Without Redis (the embedded mode) there is no lease: the database is the only channel
between the web process and the worker there, and the hub reads versions on a timer.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings

log = logging.getLogger(__name__)

LEASE_SECONDS = 3.0
RENEW_SECONDS = 1.0
# Expired leases older than this are removed; a hub has seen them long before.
SWEEP_AFTER_SECONDS = 60.0

# Renew (or take) a lease, scored by the Redis server's clock: KEYS[1] the set,
# ARGV[1] the writer, ARGV[2] its length in seconds.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return tostring(now)
"""
# The writers whose lease has ended, and the sweep of the long-ended ones: ARGV[1] how long
# ago an ended lease is swept.
_EXPIRED = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
"""


def key() -> str:
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    return f"{config.get('prefix', 'bloqueio')}:fanout:writers"


class Lease:
    """This process's lease, renewed by a daemon thread. Its key is fixed when it is
    made (a test's settings may change the prefix under a running process)."""

    def __init__(self) -> None:
        self.key = key()
        self.writer = uuid.uuid4().hex
        self.held = threading.Event()  # set while the current writer's lease is taken
        self.taken = threading.Event()  # set once any lease of this process was taken
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: redis.Redis | None = None

    def start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._renew_forever,
                                                name="writer-lease", daemon=True)
                self._thread.start()

    def lost(self) -> None:
        """Announcements of this process may be lost: let the lease end and take another
        at once (the old one still covers what was written before it ends)."""
        with self._lock:
            old, self.writer = self.writer, uuid.uuid4().hex
            self.held.clear()
        self._wake.set()
        log.warning("fan-out: writer %s may have lost announcements; its lease is left to "
                    "end (every process's sockets then catch up)", old)

    def _renew(self) -> None:
        """One renewal (the thread's step: only that thread calls it)."""
        if self._client is None:
            self._client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2,
                                                socket_connect_timeout=2)
        writer = self.writer
        try:
            self._client.eval(_RENEW, 1, self.key, writer, LEASE_SECONDS)
        except Exception:
            # Unrenewed, it may end while this process writes: take a new one when Redis
            # answers again, so that every hub sees this one end and catches up.
            if self.held.is_set():
                self.lost()
            raise
        with self._lock:
            if writer == self.writer:  # not dropped meanwhile
                self.held.set()
                self.taken.set()

    def _renew_forever(self) -> None:
        while True:
            try:
                self._renew()
            except Exception as exc:
                log.info("fan-out: writer lease not renewed (%r)", exc)
            self._wake.wait(RENEW_SECONDS)
            self._wake.clear()


_lease: Lease | None = None
_made = threading.Lock()
_waited = threading.Event()


def lease() -> Lease | None:
    """This process's lease (None without Redis)."""
    global _lease
    if not settings.REDIS_URL:
        return None
    if _lease is None:
        with _made:
            if _lease is None:
                _lease = Lease()
    return _lease


def ensure() -> None:
    """Hold a lease before writing: cheap once one was taken (the thread renews it, and
    takes a new one after `lost`). Off the event loop the process's first call waits, once
    and at most a second, for the first lease; on the loop it only starts the renewal,
    which takes it within a round trip (the server starts it as it loads:
    bloqueio_site/asgi.py)."""
    found = lease()
    if found is None or found.taken.is_set():
        return
    found.start()
    if _waited.is_set():
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        found.taken.wait(1.0)
        _waited.set()


def lost() -> None:
    found = lease()
    if found is not None:
        found.lost()


def on_uncertain_commit(sender: Any, **kwargs: Any) -> None:
    """A COMMIT failed under changes to announce (bloqueio_site/postgres/base.py): it may
    have committed them, unannounced."""
    lost()


async def expired(client: aioredis.Redis, writers_key: str) -> list[str]:
    """The writers whose lease under `writers_key` has ended."""
    ended = await client.eval(_EXPIRED, 1, writers_key, SWEEP_AFTER_SECONDS)
    return [w.decode() if isinstance(w, bytes) else str(w) for w in ended]
