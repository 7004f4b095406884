"""One answer for "the database cannot serve this request now", wherever it is noticed.

Three causes share it: PostgreSQL is unreachable, or every connection of this process's
pool stayed busy for `DATABASE_POOL_TIMEOUT` s (psycopg_pool's `PoolTimeout`, which
Django raises as an `OperationalError`), or a service refused with `errors.Unavailable`
(a password hash that cannot start soon, accounts/hashers.py). Either way the client
gets 503 `unavailable` with `Retry-After` (the refusal's own, else 2 s); a database
error also gets the log one warning line, never a traceback.

The API maps it in `api_errors.exception_handler`; pages and everything else through
`DatabaseUnavailableMiddleware` (exceptions from views) and `views.server_error` (the
rest, such as a session saved after the view returned).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from bloqueio_site.errors import Unavailable

log = logging.getLogger("bloqueio.unavailable")

RETRY_AFTER_SECONDS = "2"
DATABASE_ERRORS = (OperationalError, InterfaceError)
UNAVAILABLE_ERRORS = (*DATABASE_ERRORS, Unavailable)


def unavailable_body() -> dict[str, str]:
    """The 503 answer's JSON, in the reader's language."""
    return {"code": "unavailable",
            "detail": _("The service is busy or its database is unreachable; retry shortly.")}


def log_unavailable(exc: BaseException, request: Any = None) -> None:
    path = getattr(request, "path", "?")
    log.warning("503 unavailable for %s: %s: %s", path, type(exc).__name__,
                str(exc).splitlines()[0] if str(exc) else "")


def response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """503 for ``request``: JSON for the API and health, a page for people."""
    retry_after = RETRY_AFTER_SECONDS
    body = unavailable_body()
    if isinstance(exc, Unavailable):  # a refusal, said by its own detail, not logged
        retry_after = str(getattr(exc, "retry_after", None) or RETRY_AFTER_SECONDS)
        body = exc.as_dict()
    else:
        log_unavailable(exc, request)
    answer: HttpResponse
    if request.path.startswith("/api/") or request.path == "/healthz":
        answer = JsonResponse(body, status=503)
    else:
        # Rendered without a request context: the context processors would read the
        # session and the user, that is, the database that just failed.
        answer = HttpResponse(render_to_string("503.html", {"retry_after": retry_after}),
                              status=503)
    answer["Retry-After"] = retry_after
    return answer


class DatabaseUnavailableMiddleware:
    """Turns a database outage, pool timeout or `Unavailable` refusal raised by a view
    into 503 `unavailable`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, UNAVAILABLE_ERRORS):
            return response(request, exc)
        return None


class QuietUnavailableFilter(logging.Filter):
    """Drops django.request's ERROR line (with a traceback, for a page) for a 503: each
    was logged here as one warning line already (the health check logs its own)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "django.request"
                    and getattr(record, "status_code", None) == 503)
