"""Authentication of WebSocket handshakes: the session cookie (browsers, Channels' session
authentication, `SessionAuthMiddleware`), then the token (`Authorization: Token <key>`),
which wins when present (`auth_stack`, bloqueio_site/asgi.py).

Programs cannot always carry a session cookie; they send the same header as over REST.
A present but unknown token marks the scope `auth_failed`, so consumers can refuse it
instead of silently treating the caller as a spectator; a lookup that hits a database
outage marks it `unavailable`, which consumers refuse as such (4503). A known token is
kept in the scope (`auth_token`): when the account's credentials are revoked
(accounts/credentials.py), `still_authenticated` tells each open socket whether the
token or session it was opened with is still good.
"""

from __future__ import annotations

import logging
from typing import Any

from channels import auth as channels_auth
from channels.middleware import BaseMiddleware
from channels.sessions import SessionMiddlewareStack
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError

from accounts import credentials
from accounts import selectors as accounts_selectors
from accounts.models import User
from bloqueio_site.off_loop import off_loop

log = logging.getLogger(__name__)


# On the loop's own connection (or off the loop on any worker thread): on Channels' one
# shared thread every handshake of a connect storm waited behind all the others' lookups.
_user_for_token = credentials.auser_for_key


def still_authenticated(scope: dict[str, Any]) -> bool:
    """Whether the credentials a socket was opened with are still good: its token still
    exists, or its session is still stored with the account's current password. Sockets
    of nobody have nothing to revoke. Blocking: call it through `off_loop`."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True
    try:
        return _credential_good(scope, user)
    except DatabaseError as exc:
        # Keep the socket: closing every socket of the account during an outage helps
        # nobody, and a revoked credential cannot open a new one.
        log.warning("websocket credential check failed: database unavailable (%r)", exc)
        return True


ACTIVE, BANNED, REVOKED = "active", "banned", "revoked"


def standing(scope: dict[str, Any]) -> str:
    """`ACTIVE`, `BANNED` or `REVOKED`: the socket's account and credential as they are
    now, for a socket that has just joined its account's topic. The handshake read them
    before that join, and a ban or a revocation committed in between sent its notice to
    nobody; read after the join, either is seen here or its notice reaches the socket.
    Blocking (call it through `off_loop`); a database error is raised: the socket is
    then refused as `unavailable`."""
    user = scope.get("user")
    if user is None or not user.is_authenticated or _credential_good(scope, user):
        return ACTIVE
    return REVOKED if accounts_selectors.is_active(user.pk) else BANNED


async def acurrent(scope: dict[str, Any]) -> bool:
    """Whether the socket's credential is still good (`standing`'s second half, for the
    game socket, whose `hello` reads the account's ban itself): a token on the event
    loop's own connection, a session on a worker thread."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True
    key = scope.get("auth_token")
    if key is not None:
        owner = await credentials.auser_for_key(key)
        return owner is not None and owner.pk == user.pk
    return bool(await off_loop(_credential_good)(scope, user))


def _credential_good(scope: dict[str, Any], user: Any) -> bool:
    key = scope.get("auth_token")
    if key is not None:
        owner = credentials.user_for_key(key)
        return owner is not None and owner.pk == user.pk
    session_key = getattr(scope.get("session"), "session_key", None)
    current = User.objects.filter(pk=user.pk, is_active=True).first()
    return bool(session_key and current and credentials.session_is_current(session_key, current))


def _token_from_headers(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, key = value.decode("latin-1").partition(" ")
            if scheme.lower() == "token" and key.strip():
                return key.strip()
            return ""
    return None


_user_of_session = off_loop(channels_auth.get_user.func)


class SessionAuthMiddleware(channels_auth.AuthMiddleware):
    """Channels' session authentication (`scope["user"]` from the session cookie),
    without a trip to a thread when the handshake carries no session cookie: nobody is
    signed in by a session then. Channels made that trip for every socket, to its one
    shared thread, so a connect storm of token and anonymous sockets queued there for
    nothing. With a cookie the session is read on any worker thread (`off_loop`)."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if settings.SESSION_COOKIE_NAME not in scope.get("cookies", {}):
            scope["user"]._wrapped = AnonymousUser()
            return
        scope["user"]._wrapped = await _user_of_session(scope)


def auth_stack(inner: Any) -> Any:
    """Channels' `AuthMiddlewareStack` (cookies, session, user) with the session
    authentication above, then token authentication (which wins when present)."""
    return SessionMiddlewareStack(SessionAuthMiddleware(TokenAuthMiddleware(inner)))


class TokenAuthMiddleware(BaseMiddleware):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = _token_from_headers(scope.get("headers", []))
        if key is not None:
            try:
                user = await _user_for_token(key) if key else None
            except DatabaseError as exc:
                log.warning("websocket token lookup failed: database unavailable (%r)", exc)
                scope = dict(scope, user=AnonymousUser(), auth_failed=False, unavailable=True)
            else:
                scope = dict(scope, user=user or AnonymousUser(), auth_failed=user is None,
                             auth_token=key if user is not None else None)
        return await super().__call__(scope, receive, send)
