"""The WebSocket Origin check, on the full origin: scheme, host and port.

A socket is accepted only from a page of this site: its `Origin` must be the origin the
handshake itself was made to (`http` or `https` by whether the connection is secure,
and the `Host` it named, which must be one of `ALLOWED_HOSTS`), or one of
`CSRF_TRUSTED_ORIGINS` (full origins; `https://*.example.com` for subdomains), as
Django's CSRF check judges a form post. Channels' `AllowedHostsOriginValidator` compared
host names only, so `http://127.0.0.1:6666` (any program on any port of the host) and
`https://localhost` passed. A missing, `null` or unparsable Origin is refused as before:
programs send their server's origin.

The connection is secure when the ASGI server says so (`wss`; uvicorn sets it from
`X-Forwarded-Proto` with `--proxy-headers`) or, as for Django's `is_secure()`, by
`SECURE_PROXY_SSL_HEADER` (`DJANGO_BEHIND_PROXY=true`). A refusal closes the handshake:
HTTP 403.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

Origin = tuple[str, str, int]
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str) -> Origin | None:
    """(scheme, host, port) of an http(s) origin, the port made explicit; else None."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header, value = proxy  # ("HTTP_X_FORWARDED_PROTO", "https")
        name = header.removeprefix("HTTP_").lower().replace("_", "-").encode()
        sent = _header(scope, name)
        return sent is not None and sent.split(",", 1)[0].strip() == value
    return False


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin the handshake was made to, if its Host is an allowed one."""
    scheme = "https" if _secure(scope) else "http"
    host = _header(scope, b"host")
    if host is None:
        server = scope.get("server")
        if not server:
            return None
        host = f"{server[0]}:{server[1]}"
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:  # as Django's get_host()
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, allowed):
        return None
    return parse_origin(f"{scheme}://{host}")


def trusted(origin: Origin) -> bool:
    """Is `origin` one of CSRF_TRUSTED_ORIGINS (a `*.` host matches its subdomains)?"""
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        pattern = parse_origin(entry.replace("://*.", "://", 1))
        if pattern is None or pattern[0] != origin[0] or pattern[2] != origin[2]:
            continue
        if pattern[1] == origin[1] or (wildcard and is_same_domain(origin[1],
                                                                   "." + pattern[1])):
            return True
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    sent = _header(scope, b"origin")
    origin = parse_origin(sent) if sent is not None else None
    if origin is None:
        return False
    return origin == own_origin(scope) or trusted(origin)


class OriginCheck:
    """ASGI middleware for sockets: refuse (403) a handshake from another origin."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if origin_allowed(scope):
            return await self.app(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
