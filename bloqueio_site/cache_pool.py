"""One Redis connection pool per process for Django's cache (settings.CACHES).

Django's RedisCache keeps its connection pool on the cache object, and
`django.core.cache.caches` gives every asynchronous context its own cache object: under
ASGI each request, and each `sync_to_async` call (a socket's open counted against its
address's rate, bloqueio_site/socket_limits.py), built a fresh pool and so opened a new
TCP connection to Redis, with redis-py's handshake, for one or two commands. That was
~1-2 ms of server CPU on every game creation and every socket open (bench/lifecycle.py,
docs/performance.md). `SharedConnectionPool.from_url` hands every cache object the
process's one pool for that URL and those options; redis-py's pools are thread-safe and
start afresh in a forked child.
"""

from __future__ import annotations

import threading
from typing import Any

import redis


class SharedConnectionPool(redis.ConnectionPool):
    """`from_url` returns the process's pool for the same URL and options."""

    _pools: dict[tuple[str, str], redis.ConnectionPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> redis.ConnectionPool:  # type: ignore[override]
        key = (url, repr(sorted(kwargs.items())))
        with cls._lock:
            pool = cls._pools.get(key)
            if pool is None:
                pool = cls._pools[key] = redis.ConnectionPool.from_url(url, **kwargs)
        return pool
