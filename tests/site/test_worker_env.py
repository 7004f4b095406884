"""Two pytest-xdist workers share one Redis (tests/worker_env.py): each must use its own
names there, and its own test database, or one worker's game 1 hears the other's."""

from __future__ import annotations

import os

from django.conf import settings
from django.db import connection

from tests.conftest import clear_cache
from tests.live.servers import server_env


def test_a_worker_has_its_own_redis_names_and_database(db):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    layer_prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    cache_prefix = settings.CACHES["default"]["KEY_PREFIX"]
    if worker is None:  # one process (`make test TEST_WORKERS=0`): the names as given
        assert not layer_prefix.endswith("-gw0") and not cache_prefix.endswith("-gw0")
        return
    assert layer_prefix.endswith(f"-{worker}")
    assert cache_prefix.endswith(f"-{worker}")
    assert connection.settings_dict["NAME"].endswith(f"_{worker}")
    # The servers and workers a test starts use the same names, not a suffix twice.
    env = server_env()
    assert env["CHANNEL_LAYER_PREFIX"] == layer_prefix
    assert os.environ["CACHE_PREFIX"] == cache_prefix
    assert env["DATABASE_URL"].endswith(f"/{connection.settings_dict['NAME']}")


def test_clearing_the_cache_leaves_the_other_workers_keys():
    """Django's `cache.clear()` is a FLUSHDB of the Redis database both workers use: the
    other worker's presence, socket counts and rate limits went with it, mid-test."""
    from django.core.cache import cache

    client = cache._cache.get_client(write=True)
    theirs = "bloqueio-elsewhere:1:limit:probe"  # another run's cache key
    client.set(theirs, b"1", ex=60)
    cache.set("probe", 1, 60)
    try:
        clear_cache()
        assert cache.get("probe") is None
        assert client.get(theirs) == b"1"
    finally:
        client.delete(theirs)
