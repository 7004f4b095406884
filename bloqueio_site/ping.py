"""`/ws/ping/`: an echo socket that proves the WebSocket path and its authentication."""

from __future__ import annotations

import json

from channels.generic.websocket import AsyncWebsocketConsumer

from bloqueio_site import strict_json


class PingConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            content = strict_json.loads(text_data if text_data is not None else b"")
        except ValueError:
            await self.send(json.dumps({"type": "error", "code": "invalid_json",
                                        "detail": "Frames must be JSON text."}))
            return
        user = self.scope.get("user")
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send(json.dumps({"type": "echo", "echo": content, "user": username}))
