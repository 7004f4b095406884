"""REST authentication by `Authorization: Token <key>`, default or named tokens alike."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts import credentials, language


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and errors, over both kinds of token (accounts/credentials.py).
    `request.auth` is the key, which a password change keeps alive. The account's
    language (accounts/language.py) is the answer's, as for a signed-in page."""

    def authenticate(self, request: Request) -> tuple[Any, str] | None:
        found = super().authenticate(request)
        if found is not None and (code := language.account_language(found[0])):
            language.activate(request._request, code)
        return found

    def authenticate_credentials(self, key: str) -> tuple[Any, str]:
        user = credentials.user_for_key(key)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return user, key
