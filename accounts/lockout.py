"""Lock-outs after failed logins (django-axes): whose they are, and what a locked-out
login sees (JSON 429 for the API, a page for the browser).

Axes counts failures per (account, address), the account being the folded name
(accounts/names.py): "Carol", "cArol" and "CAROL" are one account and share one count.
Attempts per address, whatever the name, have their own limit (`services.LOGIN_RATE`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from accounts import names

LOCKED_OUT = "locked_out"


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """AXES_USERNAME_CALLABLE: the folded name an attempt is for, from the credentials
    given to `authenticate` or else the posted form."""
    data = credentials if credentials else getattr(request, "POST", {})
    name = data.get("username") if data else None
    return names.fold(name) if isinstance(name, str) else ""


def cooloff_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_detail() -> str:
    minutes = cooloff_minutes()
    return ngettext(
        "Too many failed logins for this account from your address. "
        "Try again in %(minutes)s minute.",
        "Too many failed logins for this account from your address. "
        "Try again in %(minutes)s minutes.", minutes) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    retry_after = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": LOCKED_OUT, "detail": lockout_detail()}, status=429
        )
    else:
        response = render(
            request, "accounts/locked_out.html", {"detail": lockout_detail()}, status=429
        )
    response["Retry-After"] = retry_after
    return response
