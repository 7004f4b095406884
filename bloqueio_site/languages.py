"""The reader's language where Django's LocaleMiddleware does not run: a WebSocket's
handshake (games.live.sockets) and the 413 written before Django (asgi_http).

The same choice LocaleMiddleware makes from an HTTP request (docs/i18n.md): the
switcher's cookie (`django_language`), else the browser's `Accept-Language`, else
English. A signed-in account's own choice wins over both; the caller adds that, since
only it knows the account.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils.translation import get_supported_language_variant, trans_real


def _supported(code: str) -> str | None:
    """`code`'s variant among settings.LANGUAGES (`pt`, `pt-BR` → `pt-br`), or None."""
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return None


def of_scope(scope: dict[str, Any]) -> str:
    """The language of an ASGI connection: the signed-in account's choice (when the
    scope has its user already), else `from_headers`."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        chosen = getattr(user, "language", "")
        if chosen and chosen in {code for code, _name in settings.LANGUAGES}:
            return str(chosen)
    return from_headers(scope.get("headers") or [])


def from_headers(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The language for a request or handshake with these ASGI `headers`."""
    cookie = accept = ""
    for name, value in headers:
        lowered = name.lower()
        if lowered == b"cookie":
            cookie = value.decode("latin-1")
        elif lowered == b"accept-language":
            accept = value.decode("latin-1")
    chosen = parse_cookie(cookie).get(settings.LANGUAGE_COOKIE_NAME) if cookie else None
    if chosen and (code := _supported(chosen)):
        return code
    for asked, _quality in trans_real.parse_accept_lang_header(accept):
        if asked == "*":
            break
        if trans_real.language_code_re.search(asked) and (code := _supported(asked)):
            return code
    return _supported(settings.LANGUAGE_CODE) or settings.LANGUAGE_CODE
