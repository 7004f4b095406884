"""REST authentication by `Authorization: Token <key>`, default or named tokens alike."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

from accounts import credentials


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing and errors, over both kinds of token (accounts/credentials.py).
    `request.auth` is the key, which a password change keeps alive."""

    def authenticate_credentials(self, key: str) -> tuple[Any, str]:
        user = credentials.user_for_key(key)
        if user is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return user, key
