"""The connection pool's check (bloqueio_site/postgres): a healthy connection leaves the
pool as it is, one whose server ended it is thrown away and another handed out."""

from __future__ import annotations

import copy
import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection, connections
from psycopg_pool import ConnectionPool

from bloqueio_site.postgres.base import check_idle

pytestmark = pytest.mark.django_db(transaction=True)


def _conninfo() -> str:
    db = connection.settings_dict
    return psycopg.conninfo.make_conninfo(
        dbname=db["NAME"], host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432,
        user=db["USER"] or "postgres", password=db["PASSWORD"] or None)


def _end_sessions(pids: list[int] | None = None, application_name: str | None = None) -> None:
    """End these server sessions (by backend pid, or every one of an application name)
    and wait until the server has let them go. Never every session of the database:
    other threads of this process hold connections of their own."""
    with psycopg.connect(_conninfo(), autocommit=True) as admin:
        if application_name is not None:
            pids = [pid for (pid,) in admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                [application_name])]
        targets = set(pids or ())
        assert targets, "no session to end"
        for pid in targets:
            admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(200):
            alive = {pid for (pid,) in admin.execute("SELECT pid FROM pg_stat_activity")}
            if not alive & targets:
                return
            time.sleep(0.05)
    raise AssertionError(f"sessions {targets} did not end")


@pytest.fixture
def pool(request: pytest.FixtureRequest) -> Iterator[ConnectionPool]:
    with ConnectionPool(_conninfo(), min_size=1, max_size=1, check=request.param,
                        kwargs={"autocommit": True}) as opened:
        opened.wait()
        yield opened


@pytest.mark.parametrize("pool", [check_idle], indirect=True)
def test_a_healthy_connection_is_handed_out_again(pool: ConnectionPool) -> None:
    with pool.connection() as conn:
        first = conn.info.backend_pid
    with pool.connection() as conn:
        assert conn.info.backend_pid == first
        assert conn.execute("SELECT 1").fetchone() == (1,)


@pytest.mark.parametrize("pool", [check_idle], indirect=True)
def test_a_connection_its_server_ended_is_replaced(pool: ConnectionPool) -> None:
    with pool.connection() as conn:
        ended = conn.info.backend_pid
    _end_sessions([ended])
    with pool.connection() as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
        assert conn.info.backend_pid != ended


@pytest.mark.parametrize("pool", [None], indirect=True)
def test_without_a_check_the_dead_connection_is_handed_out(pool: ConnectionPool) -> None:
    """The control: what the check is there for."""
    with pool.connection() as conn:
        ended = conn.info.backend_pid
    _end_sessions([ended])
    with pytest.raises(psycopg.OperationalError), pool.connection() as conn:
        conn.execute("SELECT 1")


def test_the_site_pool_replaces_connections_their_server_ended() -> None:
    """The site's backend with the site's pool options (settings.DATABASES), in a pool
    of its own, named so that only its sessions are ended."""
    name = f"pool-check-{uuid.uuid4().hex[:12]}"
    settings_dict = copy.deepcopy(connection.settings_dict)
    settings_dict["OPTIONS"]["application_name"] = name
    site = type(connections["default"])(settings_dict, alias=f"pool_check_{name[-12:]}")
    assert isinstance(site.pool, ConnectionPool)
    try:
        with site.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (first,) = cursor.fetchone()
        site.close()  # back to the pool, idle beside the pool's other connections
        _end_sessions(application_name=name)  # every one of them
        with site.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (second,) = cursor.fetchone()
        assert second != first
    finally:
        site.close()
        site.close_pool()
