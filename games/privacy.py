"""Who may see a private game: its table, its creator, the users invited to it by name,
staff, and whoever holds its invitation token (the link's secret).

Everyone else is told there is no such game (404 `not_found`, the socket's
`not_found`), by every read and every write (`hide_from_strangers`, checked before any
other refusal), so a private game's id leaks nothing. The token reaches a read as the
`invite` query parameter (programs, the socket's URL) or from the session: opening the
invitation link in a browser records it there (`remember_token`), so the game page's
own requests and socket need nothing more.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from games.errors import GameNotFound
from games.models import Game, Invitation, InvitationStatus, Seat

SESSION_KEY = "game_invites"
QUERY_PARAM = "invite"


def new_token() -> str:
    """An unguessable invitation token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def tokens_of(request: Any) -> list[str]:
    """The invitation tokens a request (Django's or DRF's) carries: `?invite=` and the
    session's."""
    found = [v for v in request.GET.getlist(QUERY_PARAM) if isinstance(v, str)]
    found.extend(session_tokens(getattr(request, "session", None)))
    return found


def session_tokens(session: Any) -> list[str]:
    """The tokens a browser's session kept from the invitation links it opened."""
    if session is None:
        return []
    held = session.get(SESSION_KEY) or {}
    return [str(v) for v in held.values()] if isinstance(held, dict) else []


def remember_token(request: HttpRequest, game: Game) -> None:
    """Keep the game's token in the session of the browser that opened its link."""
    if not game.invite_token:
        return
    held = dict(request.session.get(SESSION_KEY) or {})
    held[str(game.pk)] = game.invite_token
    request.session[SESSION_KEY] = dict(list(held.items())[-20:])  # the latest 20


def holds_token(game: Game, tokens: Iterable[str]) -> bool:
    token = game.invite_token
    return bool(token) and any(
        secrets.compare_digest(t.encode(), token.encode()) for t in tokens if t)


def may_view(game: Game, user: Any, tokens: Iterable[str] = (), *,
             seats: Iterable[Seat] | None = None) -> bool:
    """Whether `user` (None or anonymous: signed out) may see `game`. `seats`: the
    game's seats when the caller has them (else the prefetched ones, else a query)."""
    if not game.private:
        return True
    if holds_token(game, tokens):
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or game.created_by_id == user.pk:
        return True
    if seats is None:
        seats = getattr(game, "_prefetched_objects_cache", {}).get("seats")
    if seats is not None:
        if any(seat.user_id == user.pk for seat in seats):
            return True
    elif Seat.objects.filter(game=game, user_id=user.pk).exists():
        return True
    return invited(game.pk, user.pk)


def invited(game_id: int, user_id: int) -> bool:
    """Whether the user was invited to the game by name (and it was not taken back)."""
    return (Invitation.objects.filter(game_id=game_id, invited_id=user_id)
            .exclude(status=InvitationStatus.REVOKED).exists())


def not_found(game_id: int) -> GameNotFound:
    """The one answer for a game that is not there, or not there for the asker."""
    return GameNotFound(_("No game %(id)s.") % {"id": game_id})


def require_view(game: Game | None, user: Any, tokens: Iterable[str] = (),
                 *, game_id: int) -> Game:
    """`game` when `user` may see it; else (or when there is none) GameNotFound."""
    if game is None or not may_view(game, user, tokens):
        raise not_found(game_id)
    return game


def hide_from_strangers(game: Game, user: Any, *, seats: Iterable[Seat]) -> None:
    """Raise GameNotFound, first of any refusal, when `user` may not see private `game`:
    a write's or a hint's `not_a_player`, `already_started` or `invalid` seat would
    tell a stranger that it exists. Writes go by who the caller is (the table, the
    invited, staff, the creator): the link's token lets its holder read and join."""
    if game.private and not may_view(game, user, seats=seats):
        raise not_found(game.pk)


def sees_invite(game: Game, user: Any) -> bool:
    """Whether `user` is shown the game's invitation link: its seated people and its
    creator, never spectators."""
    if not game.invite_token or user is None or not user.is_authenticated:
        return False
    if game.created_by_id == user.pk:
        return True
    cached = getattr(game, "_prefetched_objects_cache", {}).get("seats")
    if cached is not None:
        return any(seat.user_id == user.pk and not seat.bot for seat in cached)
    return Seat.objects.filter(game=game, user_id=user.pk).exists()


def invite_path(game: Game) -> str:
    return f"/games/{game.pk}/invite/{game.invite_token}/"
