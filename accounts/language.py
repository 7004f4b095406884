"""The reader's language, remembered on the account.

Django's LocaleMiddleware picks a language per request from the switcher's cookie, else
the browser's Accept-Language. For a signed-in account that chose one (`User.language`)
the account wins: `AccountLanguageMiddleware` activates it on every request (and keeps
the browser's cookie in step, so the page stays in that language after logging out),
and `TokenAuthentication` does the same for programs. The switcher (`set_language`) is
Django's view, which sets the cookie, plus a write to the signed-in account. A choice
made before signing in becomes the account's at log-in when it has none yet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.models import User

CODES = tuple(code for code, _ in settings.LANGUAGES)


def activate(request: Any, code: str) -> None:
    """Serve the rest of this request in `code` (a code of settings.LANGUAGES)."""
    translation.activate(code)
    request.LANGUAGE_CODE = translation.get_language()


def account_language(user: Any) -> str | None:
    """The language the signed-in `user` chose, or None (anonymous, or never chose)."""
    if user is None or not user.is_authenticated:
        return None
    code = getattr(user, "language", "")
    return code if code in CODES else None


def remember(user: User, code: str) -> None:
    """Store `code` as `user`'s language (an unknown code is ignored)."""
    if code in CODES:
        choose(user, code)


def choose(user: User, code: str) -> None:
    """Set `user`'s language: a code of settings.LANGUAGES, or "" to follow the browser."""
    if user.language != code:
        User.objects.filter(pk=user.pk).update(language=code)
        user.language = code


class AccountLanguageMiddleware:
    """After AuthenticationMiddleware: a signed-in account's language wins over the
    cookie and Accept-Language LocaleMiddleware read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = account_language(getattr(request, "user", None))
        if code is not None:
            activate(request, code)
        response = self.get_response(request)
        cookie = settings.LANGUAGE_COOKIE_NAME
        if (code is not None and request.COOKIES.get(cookie) != code
                and response.get("Content-Type", "").startswith("text/html")):
            # Pages only: a cacheable image or a JSON answer carries no Set-Cookie.
            _set_cookie(response, code)
        return response


def _set_cookie(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher's form (`language`, `next`): Django's view sets the cookie and goes
    back to `next`; a signed-in account also remembers the choice."""
    response = django_set_language(request)
    if request.user.is_authenticated:
        remember(request.user, request.POST.get("language", ""))  # type: ignore[arg-type]
    return response


@receiver(user_logged_in, dispatch_uid="accounts.language.adopt_cookie")
def adopt_cookie(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    """At log-in (and sign-up), a language chosen on this browser before becomes the
    account's, unless it has one already."""
    if request is not None and not user.language:
        remember(user, request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""))
