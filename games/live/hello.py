"""The one read a game socket makes as it opens, for its `hello`: one statement.

A socket's open used to read four times (the account still active, the game, its
seats, the chat, the viewer's permissions: six queries, each compiled by the ORM, over
three trips to a worker thread), ~15 ms of server CPU, as much as fifteen moves
(bench/lifecycle.py, docs/performance.md). Here the game, its seats, whether each
sub-protocol (chat: `games.live.subprotocols`) has anything to send, and the viewer's
standing (active; moderator) come back in one statement; a sub-protocol's history, when
there is one, is a second read. The socket makes the statement on the event loop's own
connection (`aread`, bloqueio_site/loop_db.py), so a public game's open, the common
one, does not wait for a worker thread at all.

`moderator` is chat's `selectors.is_moderator` in SQL: Django's ModelBackend grants
`moderation.delete_message` to an active superuser, or to an active user holding it
directly or through a group (tests/live/test_hello.py checks both agree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

from accounts import selectors as accounts_selectors
from accounts.models import User
from bloqueio_site import loop_db
from bloqueio_site.off_loop import off_loop
from games import privacy, selectors
from games.live import subprotocols
from games.selectors import GameQuery

MODERATOR_PERMISSION = ("moderation", "delete_message")  # chat's is_moderator's


@dataclass(frozen=True)
class Hello:
    """What a socket's open needs: `active` is False for an account that may no longer
    connect (banned: nothing else is read); `game` None for no such game."""

    active: bool
    game: dict[str, Any] | None = None
    seat: int | None = None
    # Per sub-protocol with anything to send: its history frame's type and messages.
    histories: tuple[tuple[str, list[dict[str, Any]]], ...] = ()
    moderator: bool = False
    v: int = 0  # the game's version, as read (orders the changes that follow)


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


def _sql() -> tuple[GameQuery, tuple[subprotocols.SubProtocol, ...]]:
    """The statement, with one flag per sub-protocol (registered by the apps' `ready()`,
    so built at the first read, then kept)."""
    global _BUILT
    protocols = subprotocols.registered()
    if _BUILT is None or _BUILT[1] != protocols:
        flags = {f"sub_{i}": p.hello_flag_sql for i, p in enumerate(protocols)}
        _BUILT = (selectors.game_with_seats_sql(**flags, viewer_active=_VIEWER,
                                                moderator=_MODERATOR), protocols)
    return _BUILT


_BUILT: tuple[GameQuery, tuple[subprotocols.SubProtocol, ...]] | None = None


counts = {"on_loop": 0, "on_thread": 0}  # where `aread` finished each hello (tests look)


def read(game_id: int, user: Any, tokens: Sequence[str] = (), session: Any = None) -> Hello:
    """The `hello` of `user` (None or anonymous: a spectator) on game `game_id`.
    Blocking: call it through `off_loop`, after the socket listens to the game and the
    account (so a move or a ban committed meanwhile reaches it). A private game the
    viewer may not see (games/privacy.py; `tokens`: the invitation tokens it holds,
    besides those its `session` kept) reads as no game."""
    user_id = _user_id(user)
    query, protocols = _sql()
    game = selectors.read_game(query, _params(user_id, game_id))
    return _decided(game, user, user_id, tokens, session, protocols)


async def aread(game_id: int, user: Any, tokens: Sequence[str] = (),
                session: Any = None) -> Hello:
    """`read` from the event loop: its statement on the loop's own connection
    (bloqueio_site/loop_db.py), so an open does not wait for a worker thread. What needs
    more of the database (a private game's invitations and session, a sub-protocol's
    history, an unknown game's viewer) is decided on one; so is everything when the
    loop cannot read (off, SQLite, the read failed)."""
    user_id = _user_id(user)
    query, protocols = _sql()
    try:
        row = await loop_db.fetch_one(query.sql, _params(user_id, game_id))
    except loop_db.Unusable:
        counts["on_thread"] += 1
        return await off_loop(read)(game_id, user, tokens, session)
    game = None if row is None else selectors.game_from_row(query, row)
    if game is None or game.private or any(
            getattr(game, f"sub_{i}") for i in range(len(protocols))):
        counts["on_thread"] += 1
        return await off_loop(_decided)(game, user, user_id, tokens, session, protocols)
    counts["on_loop"] += 1
    return _decided(game, user, user_id, tokens, session, protocols)


def _user_id(user: Any) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def _params(user_id: int | None, game_id: int) -> list[Any]:
    return [user_id, *MODERATOR_PERMISSION, user_id, game_id]


def _decided(game: Any, user: Any, user_id: int | None, tokens: Sequence[str],
             session: Any, protocols: tuple[subprotocols.SubProtocol, ...]) -> Hello:
    """The hello of the game `read` found. Reads the database only for an unknown game,
    a private one, or a sub-protocol with something to send (`aread` knows which). The
    hello is plain data: the game is done with once it is made."""
    try:
        return _hello_of(game, user, user_id, tokens, session, protocols)
    finally:
        if game is not None:
            selectors.detach_seats(game)


def _hello_of(game: Any, user: Any, user_id: int | None, tokens: Sequence[str],
              session: Any, protocols: tuple[subprotocols.SubProtocol, ...]) -> Hello:
    if game is None:  # rare: one more read, for whether the viewer is still allowed
        return Hello(active=user_id is None or accounts_selectors.is_active(user_id))
    if user_id is not None and not game.viewer_active:
        return Hello(active=False)
    if game.private and not privacy.may_view(
            game, user if user_id is not None else None,
            [*tokens, *privacy.session_tokens(session)]):
        return Hello(active=True)
    histories = tuple((p.history_frame, p.history(game, user, None))
                      for i, p in enumerate(protocols) if getattr(game, f"sub_{i}"))
    return Hello(active=True, game=selectors.game_json(game),
                 seat=selectors.seat_of(game, user_id), histories=histories,
                 moderator=bool(game.moderator), v=game.version)
