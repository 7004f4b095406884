"""Redis replies (every move's fan-out, presence, limits, the channel layer) are parsed by
hiredis in C, not by redis-py's pure-Python parser (pyproject.toml, docs/performance.md)."""

from __future__ import annotations

import redis.asyncio as aioredis
from django.conf import settings
from redis.asyncio.connection import DefaultParser


async def test_redis_replies_are_parsed_in_c() -> None:
    assert DefaultParser.__name__ == "_AsyncHiredisParser"
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        assert await client.ping()
        connection = await client.connection_pool.get_connection()
        try:
            assert type(connection._parser).__name__ == "_AsyncHiredisParser"
        finally:
            await client.connection_pool.release(connection)
    finally:
        await client.aclose()
