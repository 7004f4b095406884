"""The shared cache as an optimisation only: reads and writes that never fail a request.

Redis (the cache in production) being down must cost speed, never an answer: a read
that cannot reach it is a miss and a write is skipped, each with one warning line. Use
these wherever a cached value can be recomputed (leaderboard histograms, analysis);
code that needs the cache to count or to claim (`limits`, the bots' turn claims) decides
for itself what an outage means.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# What a cache backend raises when its server is unreachable or stalls.
UNREACHABLE = (RedisError, OSError)


def get(key: str) -> Any:
    """The cached value, or None when it is absent or the cache is unreachable."""
    try:
        return cache.get(key)
    except UNREACHABLE as exc:
        log.warning("cache unavailable, reading %s: %r", key.split(":", 1)[0], exc)
        return None


def set(key: str, value: Any, seconds: int) -> None:
    """Cache `value` for `seconds`; skipped (and logged) when the cache is unreachable."""
    try:
        cache.set(key, value, seconds)
    except UNREACHABLE as exc:
        log.warning("cache unavailable, writing %s: %r", key.split(":", 1)[0], exc)
