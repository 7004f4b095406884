"""The Content-Security-Policy of every answer (Django 5.2 has none of its own).

Scripts, styles, images, fonts and connections (fetch and WebSockets) come from the
site's own origin only, with no inline script, no inline style and no `eval`: the pages'
scripts are files under static/js, their styles classes of static/css (a style the
scripts compute, a seat's colour, is set through the CSSOM, which the policy allows), and
the seat palettes' variables a stylesheet of their own (/palettes.css). Images may also
be `data:` URLs (Swagger UI's stylesheet draws its icons so). No plugin, no <base>, forms
post to the site only, and no other site may frame a page (as X-Frame-Options says).
Django admin (5.2) and Swagger UI (/api/docs/, its start script served as a file) need no
exception. The browser tests fail on any violation (tests/e2e/conftest.py).

`CSP_REPORT_URI`, when set, adds `report-uri`: browsers then post each violation there.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"

DIRECTIVES = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data:"),
    ("font-src", "'self'"),
    ("connect-src", "'self'"),  # 'self' covers ws:/wss: to the same host (CSP level 3)
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
)


def policy(report_uri: str = "") -> str:
    """The header's value."""
    parts = [f"{name} {value}" for name, value in DIRECTIVES]
    if report_uri:
        parts.append(f"report-uri {report_uri}")
    return "; ".join(parts)


class ContentSecurityPolicyMiddleware:
    """Adds the policy to every response that has none of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.value = policy(settings.CSP_REPORT_URI)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = self.value
        return response
