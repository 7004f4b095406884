"""The pages' JavaScript words: Django's JavaScriptCatalog at /jsi18n/, cheap to ask again.

Every page loads it, so each language's script is built once per process (the .mo files
are read once anyway) and served with an ETag and `Cache-Control: no-cache`: the browser
keeps it and asks again on each page, and the answer is a bodiless 304 until a deploy
changes the words or the reader switches language (the ETag includes the language). Only
the project's own catalogue (LOCALE_PATHS) is sent, not the admin's.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation.trans_real import DjangoTranslation
from django.views.decorators.http import condition
from django.views.i18n import JavaScriptCatalog


class _ProjectCatalog(JavaScriptCatalog):
    """JavaScriptCatalog limited to LOCALE_PATHS (no installed app's djangojs words)."""

    def get(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> HttpResponse:
        localedirs = [str(path) for path in settings.LOCALE_PATHS]
        self.translation = DjangoTranslation(translation.get_language(), domain=self.domain,
                                             localedirs=localedirs)
        return self.render_to_response(self.get_context_data(**kwargs))


@cache
def _built(language: str) -> tuple[bytes, str, str]:
    """(script, content type, ETag) of `language`'s catalogue."""
    with translation.override(language):
        response = _ProjectCatalog().get(None)
    body = response.content
    tag = f"{language}-{hashlib.sha256(body).hexdigest()[:16]}"
    return body, response["Content-Type"], tag


def _etag(request: HttpRequest) -> str:
    return _built(translation.get_language())[2]


@condition(etag_func=_etag)
def javascript_catalog(request: HttpRequest) -> HttpResponse:
    body, content_type, _ = _built(translation.get_language())
    response = HttpResponse(body, content_type=content_type)
    # The language comes from these headers (LocaleMiddleware: the cookie, then
    # Accept-Language); a cache must not hand one reader's language to another.
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    patch_cache_control(response, no_cache=True)
    return response
