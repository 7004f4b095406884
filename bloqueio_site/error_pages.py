"""The site's own 403, 404 and 500 pages under DEBUG too (`make run`), in the reader's
language, instead of Django's technical pages (English, settings and all).

Django draws its technical page for an exception when DEBUG is on, whatever the
handlers (bloqueio_site.urls: handler403/404/500) say; this middleware swaps a page of
those statuses that the handlers did not draw for theirs. The traceback of a 500 is
still logged to the console by Django. `DJANGO_DEBUG_ERROR_PAGES=true` keeps Django's
technical pages for whoever wants them while developing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse

from bloqueio_site import views

_SITE_PAGES: dict[int, Callable[[HttpRequest], HttpResponse]] = {
    403: lambda request: views.permission_denied(request, PermissionDenied()),
    404: lambda request: views.not_found(request, Http404()),
    500: views.server_error,
}


class SiteErrorPagesMiddleware:
    """Under DEBUG, a 403/404/500 page Django drew is replaced by the site's own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (not settings.DEBUG or settings.DEBUG_ERROR_PAGES
                or response.status_code not in _SITE_PAGES
                or getattr(response, "site_page", False)
                or not response.get("Content-Type", "").startswith("text/html")):
            return response
        return _SITE_PAGES[response.status_code](request)
