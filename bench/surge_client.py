"""The surge's clients (bench/burst.py): one HTTP request on a connection of its own, and
one game socket held open until released; neither raises for a failed request, each
says what happened to it."""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import websockets

RETRY_STATUSES = (429, 503)  # refusals that say when to come back

# -- one HTTP request on a connection of its own --------------------------------------------


@dataclass
class Answer:
    """One request's outcome: `status` None when no HTTP answer came at all."""

    seconds: float
    status: int | None = None
    body: Any = None
    retry_after: str | None = None
    failure: str | None = None  # `dropped: ...` or `timeout` when status is None

    @property
    def outcome(self) -> str:
        """What the error table counts: `201`, `503 unavailable`, `dropped: ...`."""
        if self.status is None:
            return str(self.failure)
        code = self.body.get("code") if isinstance(self.body, dict) else None
        text = f"{self.status} {code}" if code and self.status >= 300 else str(self.status)
        if self.status >= 500 and not self.retry_after:
            text += " (no Retry-After)"
        return text

    @property
    def retry_in(self) -> float | None:
        """Seconds this refusal asks the client to wait, None if it is not one."""
        if self.status not in RETRY_STATUSES or not self.retry_after:
            return None
        try:
            return max(0.0, float(self.retry_after))
        except ValueError:
            return None


def _dechunk(payload: bytes) -> bytes:
    out = bytearray()
    while payload:
        size_line, _, payload = payload.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += payload[:size]
        payload = payload[size + 2:]
    return bytes(out)


async def http(base: str, method: str, path: str, body: Any = None,
               token: str | None = None, limit: float = 60) -> Answer:
    """Send one request on a fresh connection (`Connection: close`, as many separate
    clients would) and read the whole answer; never raises for a failed request.

    Raw asyncio streams rather than a thread per request: hundreds in flight from one
    process, and a reset is told apart from an HTTP error."""
    url = urlparse(base)
    host, port = url.hostname or "127.0.0.1", url.port or 80
    data = b"" if body is None else json.dumps(body).encode()
    head = (f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Content-Type: application/json\r\nAccept: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n")
    if token:
        head += f"Authorization: Token {token}\r\n"
    started = time.perf_counter()
    try:
        async with asyncio.timeout(limit):
            reader, writer = await asyncio.open_connection(host, port)
            try:
                writer.write(head.encode() + b"\r\n" + data)
                await writer.drain()
                raw = await reader.read()  # to EOF: the server closes after answering
            finally:
                writer.close()
                with suppress(OSError):
                    await writer.wait_closed()
    except TimeoutError:
        return Answer(time.perf_counter() - started, failure="timeout")
    except OSError as exc:
        return Answer(time.perf_counter() - started, failure=f"dropped: {type(exc).__name__}")
    seconds = time.perf_counter() - started
    header, sep, payload = raw.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    if not sep or not lines[0].startswith("HTTP/"):
        return Answer(seconds, failure=f"dropped: {'no response' if not raw else 'garbled'}")
    headers = {k.strip().lower(): v.strip()
               for k, _, v in (line.partition(":") for line in lines[1:])}
    if "chunked" in headers.get("transfer-encoding", "").lower():
        payload = _dechunk(payload)
    try:
        parsed = json.loads(payload) if payload else None
    except ValueError:
        parsed = payload[:200].decode("utf-8", "replace")
    return Answer(seconds, int(lines[0].split()[1]), parsed, headers.get("retry-after"))


# -- one game socket ----------------------------------------------------------------------


@dataclass
class Opened:
    """One socket's outcome: `hello` True when the first frame was the hello."""

    seconds: float
    hello: bool = False
    active: bool = False  # the hello's game had every seat taken
    failure: str | None = None


class Gate:
    """Opens once `total` sockets have had their answer (hello or failure)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.count = 0
        self.event = asyncio.Event()
        if total == 0:
            self.event.set()

    def arrive(self) -> None:
        self.count += 1
        if self.count >= self.total:
            self.event.set()


async def open_socket(ws_base: str, game_id: int, token: str | None, gate: Gate,
                      release: asyncio.Event, limit: float) -> Opened:
    """Open, read the first frame, then hold the socket until `release` (so every socket
    of the phase is open at the same time) and close it."""
    headers = {"Origin": ws_base.replace("ws://", "http://")}
    if token:
        headers["Authorization"] = f"Token {token}"
    started = time.perf_counter()
    ws = None
    try:
        try:
            async with asyncio.timeout(limit):
                ws = await websockets.connect(f"{ws_base}/ws/games/{game_id}/",
                                              additional_headers=headers, open_timeout=None,
                                              ping_interval=None, max_queue=None)
                frame = json.loads(await ws.recv())
        finally:
            gate.arrive()
        seconds = time.perf_counter() - started
        if frame.get("type") != "hello":
            return Opened(seconds, failure=f"first frame {frame.get('type')} "
                                           f"{frame.get('code')}")
        result = Opened(seconds, True, frame["game"]["status"] == "active")
        await release.wait()
        return result
    except TimeoutError:
        return Opened(time.perf_counter() - started, failure="timeout")
    except websockets.InvalidStatus as exc:
        return Opened(time.perf_counter() - started,
                      failure=f"handshake {exc.response.status_code}")
    except websockets.ConnectionClosed as exc:
        code = exc.rcvd.code if exc.rcvd else None
        return Opened(time.perf_counter() - started,
                      failure=f"closed {code} before hello" if code
                      else "dropped: closed without a close frame")
    except (OSError, websockets.InvalidHandshake, EOFError) as exc:
        return Opened(time.perf_counter() - started, failure=f"dropped: {type(exc).__name__}")
    finally:
        if ws is not None:
            with suppress(Exception):
                await asyncio.wait_for(ws.close(), 10)
