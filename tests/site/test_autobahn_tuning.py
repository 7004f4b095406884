"""Autobahn as the server runs it: per-frame debug formatting skipped unless debug logs
are on, and protocol failures closed with a close code, never a bare TCP drop."""

from __future__ import annotations

import asyncio

import pytest
import txaio
import websockets
from autobahn.websocket import protocol

import bloqueio_site.asgi  # noqa: F401  (applies the patch, as Daphne's import does)
from bloqueio_site.autobahn_tuning import quiet_autobahn
from bloqueio_site.serve import SERVERS
from tests.live.servers import live_servers


def test_the_asgi_app_blanks_autobahns_log_argument_helpers():
    assert protocol.hltype(protocol.WebSocketProtocol.sendData) == ""
    assert protocol.hlval(1234, color="green") == ""


def test_nothing_is_patched_when_autobahn_debug_logging_is_on():
    level = txaio.get_global_log_level()
    txaio.set_global_log_level("debug")
    try:
        assert quiet_autobahn() is False
    finally:
        txaio.set_global_log_level(level)
    assert quiet_autobahn() is True


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("server", SERVERS)
def test_a_message_over_the_limit_is_closed_with_1009_and_a_reason(tmp_path, server):
    """Past the 1 MiB message limit the server fails the connection; it must say so with
    a close frame (1009) and why, not drop the TCP connection bare (Daphne: autobahn's
    fail-by-drop off; uvicorn: bloqueio_site.uvicorn_ws adds the reason)."""

    async def send_huge(ws_base: str) -> tuple[int | None, str | None]:
        origin = {"Origin": ws_base.replace("ws:", "http:")}  # the site's own
        async with websockets.connect(f"{ws_base}/ws/ping/", max_size=None,
                                      additional_headers=origin) as ws:
            await ws.send('{"type": "ping", "pad": "' + "x" * (1024 * 1024 + 10) + '"}')
            with pytest.raises(websockets.ConnectionClosedError) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            received = closed.value.rcvd
            return (received.code, received.reason) if received else (None, None)

    with live_servers(1, tmp_path, kinds=[server]) as (running,):
        code, reason = asyncio.run(send_huge(running.ws))
    assert code == 1009
    assert reason
