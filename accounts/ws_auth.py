"""Token authentication for WebSocket handshakes (`Authorization: Token <key>`).

Programs cannot always carry a session cookie; they send the same header as over REST.
A present but unknown token marks the scope `auth_failed`, so consumers can refuse it
instead of silently treating the caller as a spectator; a lookup that hits a database
outage marks it `unavailable`, which consumers refuse as such (4503).
"""

from __future__ import annotations

import logging
from typing import Any

from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError
from rest_framework.authtoken.models import Token

from games.live.db import off_loop

log = logging.getLogger(__name__)


# Off the loop on any worker thread: on Channels' one shared thread every handshake of a
# connect storm waited behind all the others' lookups.
@off_loop
def _user_for_token(key: str) -> Any:
    if len(key) > 40 or "\x00" in key:
        return None  # no token looks like this, and PostgreSQL refuses text with a NUL
    try:
        token = Token.objects.select_related("user").get(key=key)
    except Token.DoesNotExist:
        return None
    return token.user if token.user.is_active else None


def _token_from_headers(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, key = value.decode("latin-1").partition(" ")
            if scheme.lower() == "token" and key.strip():
                return key.strip()
            return ""
    return None


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
                scope = dict(scope, user=user or AnonymousUser(), auth_failed=user is None)
        return await super().__call__(scope, receive, send)
