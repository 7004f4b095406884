"""A socket's Origin must be the site's own full origin (scheme, host and port) or a
trusted one; the host name alone is not enough (bloqueio_site/ws_origin.py)."""

from __future__ import annotations

import asyncio

import pytest
import websockets
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from bloqueio_site.asgi import application
from bloqueio_site.ws_origin import origin_allowed
from tests.live.servers import live_servers

pytestmark = pytest.mark.django_db(transaction=True)


def scope(origin: str | None, host: str = "localhost", scheme: str = "ws",
          extra: list[tuple[bytes, bytes]] = ()) -> dict[str, object]:
    headers = [(b"host", host.encode()), *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return {"type": "websocket", "scheme": scheme, "path": "/ws/ping/", "headers": headers}


@pytest.mark.parametrize(("origin", "host"), [
    ("http://localhost", "localhost"),
    ("http://LOCALHOST", "localhost"),
    ("http://localhost:80", "localhost"),
    ("http://127.0.0.1:8000", "127.0.0.1:8000"),
    ("http://[::1]:8000", "[::1]:8000"),
])
def test_the_sites_own_origin_is_allowed(origin, host):
    assert origin_allowed(scope(origin, host))


@pytest.mark.parametrize(("origin", "host"), [
    ("http://127.0.0.1:6666", "127.0.0.1:8000"),  # another port of the same host
    ("http://127.0.0.1", "127.0.0.1:8000"),
    ("https://localhost", "localhost"),  # another scheme
    ("http://localhost:8000", "localhost"),
    ("http://evil.example", "localhost"),
    ("http://evil.example", "evil.example"),  # a Host that is not allowed
    ("ftp://localhost", "localhost"),
    ("null", "localhost"),
    ("http://localhost/page", "localhost"),
    ("http://localhost:99999", "localhost"),
    (None, "localhost"),  # refused, as before: programs send their server's origin
])
def test_any_other_origin_is_refused(origin, host):
    assert not origin_allowed(scope(origin, host))


def test_a_secure_connection_has_an_https_origin():
    assert origin_allowed(scope("https://localhost", scheme="wss"))
    assert not origin_allowed(scope("http://localhost", scheme="wss"))


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_a_tls_proxy_the_forwarded_scheme_counts():
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert origin_allowed(scope("https://localhost", extra=forwarded))
    assert not origin_allowed(scope("http://localhost", extra=forwarded))
    assert origin_allowed(scope("http://localhost"))  # no header: plain http


@override_settings(CSRF_TRUSTED_ORIGINS=["https://play.example.org",
                                         "https://*.example.net"])
def test_trusted_origins_are_full_origins():
    assert origin_allowed(scope("https://play.example.org"))
    assert origin_allowed(scope("https://eu.example.net"))
    assert origin_allowed(scope("https://example.net"))
    assert not origin_allowed(scope("http://play.example.org"))
    assert not origin_allowed(scope("https://play.example.org:8443"))
    assert not origin_allowed(scope("https://example.net.evil.example"))


async def test_the_application_refuses_another_port_and_scheme():
    for origin, accepted in ((b"http://localhost", True), (b"https://localhost", False),
                             (b"http://localhost:6666", False)):
        comm = WebsocketCommunicator(application, "/ws/ping/",
                                     headers=[(b"origin", origin), (b"host", b"localhost")])
        connected, _ = await comm.connect()
        assert connected is accepted, origin
        await comm.disconnect()


@pytest.mark.slow
def test_a_live_server_accepts_only_its_own_origin(tmp_path):
    async def status(ws_base: str, origin: str) -> int:
        try:
            async with websockets.connect(f"{ws_base}/ws/ping/", open_timeout=10,
                                          additional_headers={"Origin": origin}):
                return 101
        except websockets.InvalidStatus as refused:
            return refused.response.status_code

    with live_servers(1, tmp_path) as (server,):
        port = server.port
        got = {origin: asyncio.run(status(server.ws, origin)) for origin in (
            server.http, "http://127.0.0.1:6666", f"https://127.0.0.1:{port}",
            "http://127.0.0.1", f"http://localhost:{port}")}
    assert got == {server.http: 101, "http://127.0.0.1:6666": 403,
                   f"https://127.0.0.1:{port}": 403, "http://127.0.0.1": 403,
                   f"http://localhost:{port}": 403}
