"""The server's per-frame autobahn debug formatting is skipped unless debug logs are on."""

from __future__ import annotations

import txaio
from autobahn.websocket import protocol

import bloqueio_site.asgi  # noqa: F401  (applies the patch, as Daphne's import does)
from bloqueio_site.autobahn_quiet import quiet_autobahn


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
