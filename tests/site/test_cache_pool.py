"""Django's cache keeps one Redis connection pool per process (bloqueio_site/cache_pool.py),
not one per request's cache object: each of those used to open a new TCP connection."""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache import caches

from bloqueio_site.cache_pool import SharedConnectionPool


def test_every_thread_s_cache_object_uses_the_one_pool() -> None:
    seen: list[tuple[Any, Any]] = []

    def use() -> None:
        cache = caches["default"]  # a cache object of this thread's own
        cache.set("cache-pool-probe", 1, 5)
        assert cache.get("cache-pool-probe") == 1
        seen.append((cache, cache._cache.get_client(write=True).connection_pool))

    threads = [threading.Thread(target=use) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(cache) for cache, _ in seen}) == 3  # why the pool must be shared
    assert len({id(pool) for _, pool in seen}) == 1


def test_the_same_url_and_options_give_the_same_pool() -> None:
    first = SharedConnectionPool.from_url("redis://127.0.0.1:6379/9", max_connections=7)
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/9", max_connections=7) is first
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/9", max_connections=8) \
        is not first
