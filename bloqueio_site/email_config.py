"""Where e-mail goes: `EMAIL_URL`, one variable for Django's e-mail settings.

    smtp://USER:PASSWORD@HOST:587?tls=1    SMTP with STARTTLS (port 25 by default)
    smtps://USER:PASSWORD@HOST:465         SMTP over TLS from the first byte
    console://                             printed to the process's output (`make run`)

User and password are URL-quoted (`%40` for an @). Unset, mail is printed (console),
so `make run` shows a password-reset link in its terminal; docs/operations.md says
what production sets.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

CONSOLE = "django.core.mail.backends.console.EmailBackend"
SMTP = "django.core.mail.backends.smtp.EmailBackend"
_YES = ("1", "true", "yes", "on")


def email_settings(url: str | None) -> dict[str, Any]:
    """Django's EMAIL_* settings for `url` (see the module docstring)."""
    if not url or url.strip() == "console://":
        return {"EMAIL_BACKEND": CONSOLE}
    parts = urlsplit(url.strip())
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ImproperlyConfigured(
            f"EMAIL_URL must be smtp://HOST[:PORT], smtps://HOST[:PORT] or console://, "
            f"not {parts.scheme or url!r}")
    query = {k: v[-1].lower() for k, v in parse_qs(parts.query).items()}
    ssl = parts.scheme == "smtps"
    return {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": parts.port or (465 if ssl else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_SSL": ssl,
        "EMAIL_USE_TLS": not ssl and query.get("tls", "") in _YES,
        "EMAIL_TIMEOUT": 10,
    }
