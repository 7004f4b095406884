"""Site-wide views: JSON-aware error pages (the home page is the games lobby)."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from bloqueio_site import unavailable
from games.boards import palettes


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or request.path == "/healthz"


def _page(request: HttpRequest, template: str, status: int) -> HttpResponse:
    """An error page of the site's own (bloqueio_site/error_pages.py knows it by the mark)."""
    response = render(request, template, status=status)
    response.site_page = True  # type: ignore[attr-defined]
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"code": "not_found", "detail": _("Not found.")}, status=404)
    return _page(request, "404.html", 404)


def permission_denied(request: HttpRequest, exception: Exception | None = None
                      ) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"code": "forbidden",
                             "detail": _("You may not do this.")}, status=403)
    return _page(request, "403.html", 403)


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls this inside its `except`: a database outage or pool timeout raised
    # outside a view (a session saved on the way out, say) is a 503, not a 500.
    exc = sys.exc_info()[1]
    if isinstance(exc, unavailable.UNAVAILABLE_ERRORS):
        return unavailable.response(request, exc)
    if _wants_json(request):
        return JsonResponse({"code": "server_error", "detail": _("Server error.")}, status=500)
    return _page(request, "500.html", 500)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"code": "bad_request", "detail": _("Bad request.")}, status=400)
    return _page(request, "400.html", 400)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the real one
    (resolved per request: the hashed name exists only once static files are collected)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


@require_GET
def seat_palettes(request: HttpRequest) -> HttpResponse:
    """The seat palettes' CSS variables (games/boards/palettes.py) as a stylesheet: every
    page links it (`{% seat_palettes_href %}`, versioned by its content, so kept a year),
    where an inline <style> would need an exception to the Content-Security-Policy."""
    response = HttpResponse(palettes.palette_css(), content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
