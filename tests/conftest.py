"""Shared fixtures: named users (alice, bob, carol, dave) with API clients."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from games.live import broadcast

ROOT = Path(__file__).resolve().parents[1]
# The data the tests read, inside the repository (each folder's README says what it is).
VECTORS = ROOT / "tests" / "vectors"
RECORDED_GAMES = ROOT / "bench" / "games" / "bloqueio.jsonl"
PASSWORD = "correct-horse-battery-9"


def make_user(username: str) -> User:
    user = User.objects.create_user(username=username, password=PASSWORD)
    Token.objects.create(user=user)
    return user


def moderators_group() -> Group:
    """The `moderators` group as the data migrations make it. A transactional test's
    flush empties every table and post_migrate brings back only content types and
    permissions, not data migrations' rows: made again here, from the migrations' own
    lists, when a flush took it."""
    group, created = Group.objects.get_or_create(name="moderators")
    if created:
        wanted = [*import_module("moderation.migrations.0003_moderators_group").PERMISSIONS,
                  *import_module("chat.migrations.0002_moderators_read_chat").PERMISSIONS,
                  *import_module("moderation.migrations.0006_moderators_tournaments"
                                 ).PERMISSIONS,
                  *import_module("moderation.migrations.0007_moderators_arena_games"
                                 ).PERMISSIONS]
        group.permissions.set([
            Permission.objects.get(content_type__app_label=app, codename=codename)
            for app, codename in wanted])
    return group


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


def _user_fixture(name: str) -> Any:
    """A fixture `name`: a fresh account of that name (the four players below)."""

    @pytest.fixture(name=name)
    def user(db: Any) -> User:
        return make_user(name)

    return user


alice, bob, carol, dave = map(_user_fixture, ("alice", "bob", "carol", "dave"))


@pytest.fixture
def players(alice: User, bob: User, carol: User, dave: User) -> list[User]:
    return [alice, bob, carol, dave]


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def published() -> Iterator[list[broadcast.Committed]]:
    """Every message the services publish after commit, in order."""
    seen: list[broadcast.Committed] = []
    broadcast.subscribe(seen.append)
    yield seen
    broadcast.unsubscribe(seen.append)


def recorded_games() -> list[dict[str, Any]]:
    """The 100 recorded 4-seat Bloqueio games of bench/games/ (its README)."""
    with RECORDED_GAMES.open() as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    # PBKDF2's deliberate slowness costs ~0.3 s a user; tests don't need it.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def default_language_between_tests() -> Iterator[None]:
    """Each test starts in the default language. Django's LocaleMiddleware activates a
    request's language for the thread and leaves it there (a server's next request sets
    its own), so a test's pt-BR request would otherwise speak Portuguese to the next
    test's direct service calls."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    # channels_redis binds locks to the event loop that first used it; each async test
    # runs its own loop, so each test gets its own layer instance.
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    _clear_presence()
    _clear_rate_limits()
    yield
    channel_layers.backends.clear()


def _checked_out() -> int | None:
    """Pooled connections checked out by threads other than this one (None: not on
    PostgreSQL; 0 before the pool is made). asgiref's one thread for thread-sensitive
    calls lives as long as the process and may keep a connection between calls (a call
    made there outside a test's context, as channels' consumers make under the test
    communicator): it gives it back first, so that only connections nobody can give back
    count. (Checked: without this, tests/games/test_fanout.py and
    tests/accounts/test_revoked_during_handshake.py show one each.)"""
    from asgiref.sync import SyncToAsync
    from django.db import connections

    wrapper = connections["default"]
    if wrapper.vendor != "postgresql":
        return None
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=10)
    pool = type(wrapper)._connection_pools.get("default")
    if pool is None:
        return 0
    stats = pool.get_stats()
    mine = 1 if wrapper.connection is not None else 0
    return stats.get("pool_size", 0) - stats.get("pool_available", 0) - mine


_module_start: dict[str, int] = {}


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    module = item.nodeid.split("::", 1)[0]
    if module not in _module_start and (found := _checked_out()) is not None:
        _module_start[module] = found
    return (yield)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Iterator[None]:
    """`pooled_connections_given_back`: when a test module is done (its module fixtures
    too), every pooled connection its threads took is back in the pool. A thread that used
    the ORM and ended without closing its connection keeps it checked out for good (
    tests/threads.py); this names the module that did it, and starts the next one on a new
    pool, rather than a later module's tests failing for want of a connection."""
    done = yield
    module = item.nodeid.split("::", 1)[0]
    if nextitem is not None and nextitem.nodeid.split("::", 1)[0] == module:
        return done
    start = _module_start.pop(module, None)
    if start is None or (now := _checked_out()) is None:
        return done
    deadline = time.monotonic() + 3.0  # a thread of the module may still be closing
    while now > start and time.monotonic() < deadline:
        time.sleep(0.05)
        now = _checked_out() or 0
    if now > start:
        from django.db import connections

        connections["default"].close()
        connections["default"].close_pool()
        pytest.fail(f"{module} left {now - start} pooled database connection(s) checked "
                    "out: a thread used the ORM and never closed its connection "
                    "(tests/threads.py: `closing`, `in_thread`)", pytrace=False)
    return done


@pytest.fixture(autouse=True)
def loop_connections_closed() -> Iterator[None]:
    """The event loop's own database connections (bloqueio_site/loop_db.py) end with the
    test whose loop opened them: the test database can then be flushed and dropped."""
    from bloqueio_site import loop_db

    yield
    loop_db.close_all()


def _clear_presence() -> None:
    """Game ids restart with each test database; presence keys of old runs must go."""
    import redis
    from django.conf import settings

    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    client = redis.Redis.from_url(settings.REDIS_URL)
    # Socket counts too (bloqueio_site/socket_limits.py): each test opens its sockets
    # from the same address, and may leave some unclosed. (Rate-limit windows:
    # _clear_rate_limits.)
    keys = [key for pattern in (f"{prefix}:presence:*", f"{prefix}:sockets:*")
            for key in client.scan_iter(pattern)]
    if keys:
        client.delete(*keys)
    client.close()


def clear_cache(start: str = "") -> None:
    """Delete this test run's cache keys (those starting with `start`): its own keys
    only. Django's `cache.clear()` is a FLUSHDB of the whole Redis database, which the
    other pytest-xdist worker shares (tests/worker_env.py): its presence, socket counts
    and rate-limit windows went too."""
    from django.core.cache import cache

    client = cache._cache.get_client(write=True)
    keys = list(client.scan_iter(match=f"{cache.make_key(start)}*"))
    if keys:
        client.delete(*keys)


def _clear_rate_limits() -> None:
    """Each test starts with fresh rate-limit windows (bloqueio_site/limits.py): the
    windows outlive a test, and every test client comes from 127.0.0.1."""
    clear_cache("limit:")
