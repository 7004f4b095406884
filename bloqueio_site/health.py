"""`GET /healthz`: does a query and a channel-layer round trip both work?
`GET /livez`: is this process serving at all (nothing else asked)?

A load balancer checks `/livez`: PostgreSQL and Redis are shared by every process, so
their outage would take every process out at once, and the balancer's own 503 would
replace the site's `unavailable` answers (JSON with a code and `Retry-After`), its
pages and its static files. Monitoring checks `/healthz`."""

from __future__ import annotations

import asyncio
import logging
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
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
