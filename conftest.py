"""Test-session guard: the suite runs on real PostgreSQL and Redis, or not at all."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection, connections

HINT = "start it with `docker compose up -d db redis` (or the machine's service command)"


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=3):
            return True
    except OSError:
        return False


def pytest_sessionstart(session: pytest.Session) -> None:
    db = settings.DATABASES["default"]
    if connection.vendor != "postgresql":  # Django's backend, or bloqueio_site.postgres
        pytest.exit("Tests need PostgreSQL: run `make test` or set DATABASE_URL.", returncode=3)
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if not layer.startswith("channels_redis."):
        pytest.exit("Tests need Redis: run `make test` or set REDIS_URL.", returncode=3)
    host, port = db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)
    if not _reachable(host, port):
        pytest.exit(f"PostgreSQL is unreachable at {host}:{port}; {HINT}.", returncode=3)
    redis = urlparse(settings.REDIS_URL)
    rhost, rport = redis.hostname or "127.0.0.1", redis.port or 6379
    if not _reachable(rhost, rport):
        pytest.exit(f"Redis is unreachable at {rhost}:{rport}; {HINT}.", returncode=3)


_STATEMENT_TIMEOUT = re.compile(r"-c statement_timeout=\d+\s*")


def _statement_timeout(on: bool, saved: dict[str, str] = {}) -> None:  # noqa: B006 (kept once)
    """Take the session's statement timeout off (and put it back) for the test database's
    own creation, migration and drop: on a loaded machine CREATE DATABASE alone can take
    longer than the 15 s a request may (settings.py), and every test would then error."""
    options = connections["default"].settings_dict.get("OPTIONS", {})
    if "options" not in options:
        return
    if on:
        options["options"] = saved.get("options", options["options"])
    else:
        saved.setdefault("options", options["options"])
        options["options"] = _STATEMENT_TIMEOUT.sub("", options["options"]).strip()
    connections["default"].close()
    close_pool = getattr(connections["default"], "close_pool", None)
    if close_pool is not None:
        close_pool()  # the pool's connections were opened with the old options


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    _statement_timeout(False)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, with one more step before it is dropped.

    Channels' test communicators replace `close_old_connections` with a no-op while they
    run the application (channels/testing/application.py), so connections the consumers
    open on executor threads stay open after their tests. PostgreSQL refuses to drop a
    database with sessions on it (after waiting 5 s), so end them first. The tests
    themselves run with the statement timeout that production has.
    """
    with django_db_blocker.unblock():
        _statement_timeout(True)
    yield
    with django_db_blocker.unblock():
        _statement_timeout(False)
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                       " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                       " AND backend_type = 'client backend' AND usename = current_user")
