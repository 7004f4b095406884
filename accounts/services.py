"""Account writes: registration and credential checks shared by the API and pages."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from rest_framework.authtoken.models import Token

from accounts.lockout import LOCKED_OUT, lockout_detail
from accounts.models import User
from bloqueio_site.errors import ServiceError


class RegistrationError(ServiceError):
    """Field errors: `errors` maps a field to its messages."""

    code = "invalid"

    def __init__(self, errors: dict[str, list[str]]):
        field, messages = next(iter(errors.items()))
        super().__init__(f"{field}: {messages[0]}")
        self.errors = errors

    def as_dict(self) -> dict[str, object]:  # type: ignore[override]
        return {**super().as_dict(), "errors": self.errors}


class BadCredentials(ServiceError):
    code = "invalid_credentials"
    status = 400


class LockedOut(ServiceError):
    code = LOCKED_OUT
    status = 429


def register_user(*, username: str, password: str, email: str = "") -> tuple[User, str]:
    """Create a user and its API token; raises RegistrationError with field errors."""
    errors: dict[str, list[str]] = {}
    candidate = User(username=username, email=email)
    try:
        User.username_validator(username)
    except ValidationError as exc:
        errors["username"] = list(exc.messages)
    if not errors and User.objects.filter(username__iexact=username).exists():
        errors["username"] = ["That username is taken."]
    try:
        validate_password(password, user=candidate)
    except ValidationError as exc:
        errors["password"] = list(exc.messages)
    if errors:
        raise RegistrationError(errors)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
            token = Token.objects.create(user=user)
    except IntegrityError:
        # Lost a race with a concurrent registration of the same name (any case).
        raise RegistrationError({"username": ["That username is taken."]}) from None
    return user, token.key


def token_for_credentials(*, request: HttpRequest, username: str, password: str) -> str:
    """The user's API token, created on first use; throttled by django-axes."""
    try:
        user = authenticate(request=request, username=username, password=password)
    except PermissionDenied:
        raise LockedOut(lockout_detail()) from None
    if getattr(request, "axes_locked_out", False):
        raise LockedOut(lockout_detail())
    if user is None:
        raise BadCredentials("Unable to log in with those credentials.")
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
