"""The one read a game socket makes as it opens, for its `hello`: one statement.

A socket's open used to read four times (the account still active, the game, its
seats, the chat, the viewer's permissions: six queries, each compiled by the ORM, over
three trips to a worker thread), ~15 ms of server CPU, as much as fifteen moves
(bench/lifecycle.py, docs/performance.md). Here the game, its seats, whether it has any
chat, and the viewer's standing (active; moderator) come back in one statement; the chat
history, when there is one, is a second read (chat.selectors).

`moderator` is `chat.selectors.is_moderator` in SQL: Django's ModelBackend grants
`moderation.delete_message` to an active superuser, or to an active user holding it
directly or through a group (tests/live/test_hello.py checks both agree).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

from accounts import selectors as accounts_selectors
from accounts.models import User
from chat import selectors as chat_selectors
from chat.models import ChatMessage
from games import selectors

CHAT_ON_HELLO = 50  # the latest chat messages a socket gets after `hello`
MODERATOR_PERMISSION = ("moderation", "delete_message")  # chat.selectors.is_moderator's


@dataclass(frozen=True)
class Hello:
    """What a socket's open needs: `active` is False for an account that may no longer
    connect (banned: nothing else is read); `game` None for no such game."""

    active: bool
    game: dict[str, Any] | None = None
    seat: int | None = None
    chat: list[dict[str, Any]] | None = None
    moderator: bool = False


def _table(model: Any) -> str:
    return str(model._meta.db_table)


_VIEWER = f"(SELECT u.is_active FROM {_table(User)} u WHERE u.id = %s)"
_MODERATOR = f"""(
    SELECT u.is_active AND (u.is_superuser OR EXISTS (
        SELECT 1 FROM {_table(Permission)} p
        JOIN {_table(ContentType)} ct ON ct.id = p.content_type_id
        WHERE ct.app_label = %s AND p.codename = %s AND (
            p.id IN (SELECT up.permission_id FROM {_table(User.user_permissions.through)} up
                     WHERE up.user_id = u.id)
            OR p.id IN (SELECT gp.permission_id FROM {_table(Group.permissions.through)} gp
                        JOIN {_table(User.groups.through)} ug ON ug.group_id = gp.group_id
                        WHERE ug.user_id = u.id))))
    FROM {_table(User)} u WHERE u.id = %s)"""
_HAS_CHAT = f"EXISTS (SELECT 1 FROM {_table(ChatMessage)} c WHERE c.game_id = g.id)"
_SQL = selectors.game_with_seats_sql(has_chat=_HAS_CHAT, viewer_active=_VIEWER,
                                     moderator=_MODERATOR)


def read(game_id: int, user: Any) -> Hello:
    """The `hello` of `user` (None or anonymous: a spectator) on game `game_id`.
    Blocking: call it through `off_loop`, after the socket listens to the game and the
    account (so a move or a ban committed meanwhile reaches it)."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    game = selectors.read_game(_SQL, [user_id, *MODERATOR_PERMISSION, user_id, game_id])
    if game is None:  # rare: one more read, for whether the viewer is still allowed
        return Hello(active=user_id is None or accounts_selectors.is_active(user_id))
    if user_id is not None and not game.viewer_active:
        return Hello(active=False)
    chat = (chat_selectors.history(game=game, viewer=user, limit=CHAT_ON_HELLO, newest=True)
            if game.has_chat else [])
    return Hello(active=True, game=selectors.game_json(game),
                 seat=selectors.seat_of(game, user_id), chat=chat,
                 moderator=bool(game.moderator))
