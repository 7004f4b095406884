"""A JSON parser that refuses what the standard one lets through or crashes on."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from bloqueio_site import strict_json


class StrictJSONParser(JSONParser):
    """Rejects NaN/Infinity, deep nesting and oversized bodies with a 400, never a 500."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise ParseError(_("The body is larger than %(most)s bytes.") % {"most": limit})
        try:
            return strict_json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            raise ParseError(_("The body is not valid JSON: %(error)s")
                             % {"error": str(exc)[:200]}) from None
