"""Chat over the game socket: a sub-protocol of `games.live.subprotocols`, registered in
`chat.apps` so that games never imports chat (docs/architecture.md, "Layers").

Frames (docs/realtime.md#chat): the client's `chat` (answered by an `ack` with the message's id, or
an error frame); `chat_history` after `hello` when the game has chat, and after a `sync`
that carries `chat_after`; each posted message's `chat` frame through the fan-out
(`game.chat`), to the sockets that may read its room (chat.rooms).
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext_lazy as _

from chat import rooms, selectors, services
from chat.models import ChatMessage
from games.live.subprotocols import GameSocket

log = logging.getLogger(__name__)

CHAT_ON_HELLO = 50  # the latest chat messages a socket gets after `hello`
CHAT_ON_SYNC = selectors.HISTORY_CAP  # at most, in a `sync` answer


class ChatProtocol:
    """The game socket's chat (see the module's docstring)."""

    client_frames = frozenset({"chat"})
    hub_type = "game.chat"
    hello_flag_sql = (f"EXISTS (SELECT 1 FROM {ChatMessage._meta.db_table} c "
                      "WHERE c.game_id = g.id)")
    history_frame = "chat_history"
    sync_field = "chat_after"
    sync_field_error = _("`chat_after` must be a chat message id >= 0.")

    def history(self, game: Any, user: Any, after_id: int | None) -> list[dict[str, Any]]:
        if after_id is None:
            return selectors.history(game=game, viewer=user, limit=CHAT_ON_HELLO,
                                     newest=True)
        return selectors.history(game=game, viewer=user, after_id=after_id,
                                 limit=CHAT_ON_SYNC, newest=True)

    async def handle(self, socket: GameSocket, kind: str, content: dict[str, Any],
                     ref: Any) -> None:
        """A chat message: `ack` with its id, or an error frame. Its `chat` frame comes
        through the fan-out like everyone's (before or after the ack)."""
        if socket.user_id is None:
            await socket.send_json(socket.error("not_authenticated", _("Log in to chat."), ref))
            return
        await socket.answer(ref, lambda: socket.in_language(services.post_message)(
            game_id=socket.game_id, user=socket.user, text=content.get("text")),
            lambda message: {"id": message.pk}, what="a chat message")

    def relays(self, socket: GameSocket, message: dict[str, Any]) -> bool:
        return message["room"] in rooms.readable_rooms(
            socket.status, socket.seat, socket.in_game, moderator=socket.moderator)
