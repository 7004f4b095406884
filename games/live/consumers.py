"""The site's WebSockets (bloqueio_site/routing.py): a game (`/ws/games/{id}/`,
games.live.game_socket), the lobby (`/ws/lobby/`) and personal notifications
(`/ws/me/`), all on games.live.sockets' `BaseConsumer`.

Everything a socket hears comes through games.live.fanout after a commit; what it may
send and receive is docs/realtime.md.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from bloqueio_site.off_loop import off_loop
from games import selectors
from games.live import fanout
from games.live.frames import CLOSE_UNAUTHORIZED, TokenBucket
from games.live.game_socket import SYNC_PER_SECOND, GameConsumer
from games.live.realtime import LOBBY_TOPIC, lobby_summary
from games.live.sockets import TOKEN_REFUSED, BaseConsumer
from games.models import Status

__all__ = ["SYNC_PER_SECOND", "BaseConsumer", "GameConsumer", "LobbyConsumer", "MeConsumer",
           "TokenBucket"]

LOBBY_SNAPSHOT = 50

def _lobby_snapshot() -> list[dict[str, Any]]:
    games = selectors.games_with_seats().filter(
        status__in=[Status.WAITING, Status.ACTIVE], private=False,
    ).order_by("-created_at")[:LOBBY_SNAPSHOT]
    return [lobby_summary(selectors.game_json(g)) for g in games]


class LobbyConsumer(BaseConsumer):
    """`/ws/lobby/`: the open and live games now, then every change as it happens."""

    async def connect(self) -> None:
        if not await self.listen_for_ban():
            return
        await self.join(LOBBY_TOPIC)
        games = await off_loop(_lobby_snapshot)()
        await self.accept()
        await self.send_json({"type": "hello", "games": games})
        self.start_heartbeat()

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        if message["type"] == "lobby":
            self.post(frames.whole())
        else:
            await super().hub_message(message, frames)


class MeConsumer(BaseConsumer):
    """`/ws/me/`: notifications for the signed-in user (your turn, game started, ...)."""

    async def connect(self) -> None:
        if self.scope.get("auth_failed"):
            await self.refuse("authentication_failed", TOKEN_REFUSED, CLOSE_UNAUTHORIZED)
            return
        if self.user_id is None:
            await self.refuse("not_authenticated", _("Log in or send a token."),
                              CLOSE_UNAUTHORIZED)
            return
        if not await self.listen_for_ban():  # joins the user's topic: notices come there
            return
        await self.accept()
        await self.send_json({"type": "hello", "you": {"username": self.user.username}})
        self.start_heartbeat()

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        if message["type"] == "notify":
            self.post(frames.whole())
        else:
            await super().hub_message(message, frames)

    async def hub_reconnected(self) -> None:
        """Notifications are hints (the lobby and the game pages hold the truth)."""
