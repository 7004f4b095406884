"""`GET /healthz`: does a query and a channel-layer round trip both work, and does every
static file have its hashed name (a page without one is a 500)?
`GET /livez`: is this process serving at all (nothing else asked)?

A load balancer checks `/livez`: PostgreSQL and Redis are shared by every process, so
their outage would take every process out at once, and the balancer's own 503 would
replace the site's `unavailable` answers (JSON with a code and `Retry-After`), its
pages and its static files. Monitoring checks `/healthz`."""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.staticfiles.finders import get_finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db import connection
from django.http import HttpRequest, JsonResponse

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 3.0


def _check_database() -> None:
    # On a pool thread of its own (not the request's), so that the 3 s timeout answers
    # even while the borrow waits out DATABASE_POOL_TIMEOUT in an outage; the connection
    # goes back to the pool at once.
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()


@functools.cache
def _missing_static() -> tuple[str, ...]:
    """Static files the finders know that the manifest has no hashed name for.

    Only the manifest storage (production) has names to miss. It reads its manifest once,
    when the process first uses it, so the answer holds for the process's life and is
    worked out once (a walk of the static folders)."""
    hashed = getattr(staticfiles_storage, "hashed_files", None)
    if hashed is None:
        return ()
    found = {path for finder in get_finders()
             for path, _ in finder.list(["CVS", ".*", "*~"])}
    return tuple(sorted(found - set(hashed)))


def _check_static() -> None:
    missing = _missing_static()
    if missing:
        raise RuntimeError(f"{len(missing)} static files are missing from the manifest "
                           f"(first: {missing[0]}); run deploy/collect_static.sh")


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.ping", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned a different message")


async def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": sync_to_async(_check_database, thread_sensitive=False)(),
        "channel_layer": _check_channel_layer(),
        "static": sync_to_async(_check_static, thread_sensitive=False)(),
    }
    report: dict[str, str] = {}
    for name, check in checks.items():
        try:
            await asyncio.wait_for(check, timeout=TIMEOUT_SECONDS)
            report[name] = "ok"
        except Exception as exc:  # any failure of a dependency means "unhealthy"
            log.warning("healthz: %s failed: %r", name, exc)
            report[name] = f"error: {type(exc).__name__}"
    healthy = all(value == "ok" for value in report.values())
    return JsonResponse(report, status=200 if healthy else 503)


async def livez(request: HttpRequest) -> JsonResponse:
    """200 while the process answers requests; touches neither PostgreSQL nor Redis."""
    return JsonResponse({"status": "ok"})
