"""A WebSocket client made of a bare TCP socket, for clients that misbehave on purpose:
one that never reads (a tiny receive buffer, so the server's writes back up), one that
sends a frame over the size limit, one that never answers the close handshake."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any
from urllib.parse import urlparse


class RawSocket:
    def __init__(self, ws_url: str, headers: dict[str, str] | None = None,
                 receive_buffer: int | None = None) -> None:
        url = urlparse(ws_url)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:  # before connect: it sets the TCP window offered
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect((url.hostname, url.port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {url.path} HTTP/1.1", f"Host: {url.hostname}:{url.port}",
                 "Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Key: {key}",
                 "Sec-WebSocket-Version: 13",
                 f"Origin: http://{url.hostname}:{url.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = self.sock.recv(1)  # byte by byte: leave the frames after it unread
            if not chunk:
                raise ConnectionError("closed during the handshake")
            answer += chunk
        if not answer.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(answer.decode(errors="replace"))

    def send_frame(self, payload: bytes, opcode: int = 0x1) -> None:
        """One masked, final frame (clients must mask)."""
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if size < 65536 \
            else _mask_large(payload, mask)
        self.sock.sendall(head + mask + masked)

    def send_json(self, frame: dict[str, Any]) -> None:
        self.send_frame(json.dumps(frame).encode())

    def close(self) -> None:
        self.sock.close()


def _mask_large(payload: bytes, mask: bytes) -> bytes:
    repeated = (mask * (len(payload) // 4 + 1))[: len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
        len(payload), "big")
