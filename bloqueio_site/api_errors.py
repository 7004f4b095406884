"""One mapping from exceptions to the API's JSON error shape `{code, detail}`."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, DataError, InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from bloqueio_site.errors import ServiceError
from bloqueio_site.unavailable import RETRY_AFTER_SECONDS, log_unavailable, unavailable_body

# DRF's default codes renamed to the words the contract uses.
_CODE_NAMES = {
    "not_authenticated": "not_authenticated",
    "authentication_failed": "authentication_failed",
    "permission_denied": "forbidden",
    "not_found": "not_found",
    "method_not_allowed": "method_not_allowed",
    "not_acceptable": "not_acceptable",
    "unsupported_media_type": "unsupported_media_type",
    "throttled": "throttled",
    "parse_error": "invalid",
    "invalid": "invalid",
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        retry_after = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        return Response(exc.as_dict(), status=exc.status, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        return Response(
            {"code": "too_large", "detail": _("The request body is too large.")},
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, SuspiciousOperation):
        # Input no client should send (more than DATA_UPLOAD_MAX_NUMBER_FIELDS query
        # parameters, ...): a 400 like any malformed request. Left to Django it is a
        # `bad_request` page and an ERROR with a traceback; the security log keeps its
        # record, as a one-line warning.
        logging.getLogger(f"django.security.{type(exc).__name__}").warning("%s", exc)
        return Response(
            {"code": "invalid",
             "detail": _("The request is malformed: %(error)s") % {"error": exc}},
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, DataError):
        return _data_error(context)
    if isinstance(exc, OperationalError | InterfaceError):
        # The database is unreachable, or no pooled connection came free in time: say
        # so, never a 500 with a traceback.
        log_unavailable(exc, context.get("request"))
        return Response(
            unavailable_body(), status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": RETRY_AFTER_SECONDS},
        )
    if isinstance(exc, DatabaseError):
        return None
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "invalid",
            "detail": _first_message(exc.detail),
            "errors": exc.detail,
        }
        return response
    raw_code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
    response.data = {
        "code": _CODE_NAMES.get(str(raw_code), str(raw_code)),
        "detail": str(exc.detail),
    }
    return response


def _data_error(context: dict[str, Any]) -> Response:
    """PostgreSQL refused a value the client sent (a NUL character in a string, a number
    out of range): the client's mistake, so a 4xx, never a 500 with a traceback.

    Views check what they can before querying; this catches the rest, above all DRF's
    TokenAuthentication, which looks up any `Authorization: Token` value as it comes.
    Raised before authentication finished (DRF sets `_user` once it has), the value was
    a credential: 401, as for any unknown token.
    """
    request = context.get("request")
    if request is not None and not hasattr(request, "_user"):
        response = Response(
            {"code": "authentication_failed", "detail": _("Invalid token.")},
            status=status.HTTP_401_UNAUTHORIZED,
        )
        response["WWW-Authenticate"] = "Token"
        return response
    return Response(
        {"code": "invalid",
         "detail": _("The request holds a value the database cannot store.")},
        status=status.HTTP_400_BAD_REQUEST,
    )


def _first_message(detail: Any) -> str:
    """The first human message in a nested DRF error structure."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _first_message(value)
            return text if key == "non_field_errors" else f"{key}: {text}"
        return _("Invalid input.")
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else _("Invalid input.")
    return str(detail)
