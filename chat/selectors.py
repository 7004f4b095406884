"""Reads of game chat: what a viewer may see, as JSON."""

from __future__ import annotations

from typing import Any

from bloqueio_site.jsontext import iso
from chat import rooms
from chat.models import ChatMessage
from games import selectors as game_selectors
from games.models import Game

HISTORY_CAP = 200


def is_moderator(user: Any) -> bool:
    """May see deleted messages' text (and delete messages)."""
    return bool(user is not None and user.is_authenticated
                and user.has_perm("moderation.delete_message"))


def message_json(message: ChatMessage, *, moderator: bool = False) -> dict[str, Any]:
    """A message as clients get it; a deleted one keeps its text for moderators only."""
    return {
        "id": message.pk,
        "room": message.room,
        "username": message.author.username,
        "text": message.text if moderator or not message.deleted else "",
        "at": iso(message.created_at),
        "deleted": message.deleted,
    }


def viewer_rooms(game: Game, user: Any) -> frozenset[str]:
    """The rooms `user` (None or anonymous: a spectator) may read in `game` now."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    seat = game_selectors.seat_of(game, user_id)
    return rooms.readable_rooms(game.status, seat, game.state.get("in_game"),
                                moderator=is_moderator(user))


def history(*, game: Game, viewer: Any, after_id: int = 0, limit: int = HISTORY_CAP,
            newest: bool = False) -> list[dict[str, Any]]:
    """The messages after `after_id` that `viewer` may read, oldest first: the first
    `limit` of them, or with `newest` the last `limit` (a socket's catch-up)."""
    readable = viewer_rooms(game, viewer)
    moderator = is_moderator(viewer)
    found = (ChatMessage.objects.filter(game=game, id__gt=after_id, room__in=sorted(readable))
             .select_related("author"))
    if newest:
        messages = list(found.order_by("-id")[:limit])[::-1]
    else:
        messages = list(found.order_by("id")[:limit])
    return [message_json(m, moderator=moderator) for m in messages]
