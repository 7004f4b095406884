"""Django's ASGI handler, minus one way a malformed request became a 500.

A request whose Content-Type names a charset makes `ASGIRequest.__init__` set its
encoding, whose setter parses the query string at once; more than
`DATA_UPLOAD_MAX_NUMBER_FIELDS` parameters then raise `TooManyFieldsSent` (a
SuspiciousOperation) out of `create_request`, where nothing catches it. Here it is
refused like the same request without a charset: 400, `invalid` for the API.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import SuspiciousOperation
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse


class GuardedASGIHandler(ASGIHandler):
    def create_request(self, scope: dict[str, Any], body_file: Any
                       ) -> tuple[Any, HttpResponse | None]:
        try:
            return super().create_request(scope, body_file)
        except SuspiciousOperation as exc:
            logging.getLogger(f"django.security.{type(exc).__name__}").warning("%s", exc)
            if scope.get("path", "").startswith("/api/"):
                return None, JsonResponse({"code": "invalid", "detail": str(exc)}, status=400)
            return None, HttpResponseBadRequest()
