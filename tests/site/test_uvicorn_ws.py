"""bloqueio_site.uvicorn_ws frames text exactly as websockets does, whatever its length,
and a live uvicorn socket written through it reads back the same messages."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from websockets.frames import Frame, Opcode

from bloqueio_site.uvicorn_ws import text_frame
from tests.live.servers import live_servers


def websockets_own(text: str) -> bytes:
    """What websockets' sans-I/O protocol (uvicorn's `websockets-sansio`) writes for a
    text message from a server with no extension."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 200_000])
def test_a_text_frame_is_byte_for_byte_what_websockets_writes(size):
    text = ("é" * size)[:size] if size % 2 else "x" * size  # multi-byte UTF-8 too
    assert text_frame(text) == websockets_own(text)


def test_the_same_text_object_is_framed_once_and_an_equal_one_alike():
    shared = json.dumps({"type": "event", "ply": 7})
    first = text_frame(shared)
    assert text_frame(shared) is first  # the fan-out's one object: not framed again
    other = "".join(shared)  # an equal text, another object
    assert text_frame(json.dumps({"type": "ack"})) == websockets_own('{"type": "ack"}')
    assert text_frame(other) == first


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_live_uvicorn_socket_answers_through_the_fast_path(tmp_path):
    """Echoes with a 7-bit and a 16-bit frame length, read back whole over a real uvicorn
    socket (frames from clients are capped at 16 KiB, so the 64-bit length is checked
    byte for byte above)."""

    async def exchange(ws_base: str) -> list[dict[str, object]]:
        got = []
        origin = {"Origin": ws_base.replace("ws:", "http:")}  # the site's own
        async with websockets.connect(f"{ws_base}/ws/ping/", open_timeout=10,
                                      additional_headers=origin) as ws:
            for ref in ("a", "b" * 200, "c" * 16_000):
                await ws.send(json.dumps({"type": "ping", "ref": ref}))
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        return got

    with live_servers(1, tmp_path, kinds=["uvicorn"]) as (server,):
        frames = asyncio.run(exchange(server.ws))
    assert [f["echo"]["ref"] for f in frames] == ["a", "b" * 200, "c" * 16_000]
