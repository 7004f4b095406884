"""`/ws/ping/`: an echo socket that proves the WebSocket path and its authentication.

It echoes any JSON value, under the same frame-size and rate limits as every other socket
(an open echo would otherwise be a free amplifier), and closes on a ban like them.
"""

from __future__ import annotations

from typing import Any

from games.live.consumers import BaseConsumer
from games.live.frames import FrameError, decode_json


class PingConsumer(BaseConsumer):
    async def connect(self) -> None:
        if await self.listen_for_ban():
            await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if not await self.admit():
            return
        try:
            content = decode_json(text_data)
        except FrameError as exc:
            await self.send_json(self.error(exc.code, exc.detail, params=exc.params))
            return
        user = self.user
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json({"type": "echo", "echo": content, "user": username})
