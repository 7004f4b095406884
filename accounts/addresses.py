"""An account's e-mail address: set it, prove it by a signed link, and mail it.

The address is optional (sign-up, the e-mail page, PATCH /api/me/). A new address starts
unverified and is sent a link: a signed token of (account, address) that lasts
PASSWORD_RESET_TIMEOUT and verifies that exact address only, so a link sent to an old
address does nothing once the address changed. Password resets go only to verified
addresses (`VerifiedPasswordResetForm`): an address someone typed for an account is
not theirs until they open its link.

Mail is written in the account's language (else the page's) and sent after the change
commits, through Django's e-mail backend (EMAIL_URL, bloqueio_site/email_config.py).
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from bloqueio_site import limits
from bloqueio_site.errors import ServiceError

log = logging.getLogger(__name__)

SALT = "accounts.email.verify"
RESET_RATE = limits.rate("password_reset", "PASSWORD_RESET_LIMIT", 5, 60 * 60)

# What makes a link absolute: the request's `build_absolute_uri`.
AbsoluteUri = Callable[[str], str]


class InvalidEmail(ServiceError):
    code = "invalid_email"


class InvalidLink(ServiceError):
    code = "invalid_link"


def normalized(email: str) -> str:
    """`email` trimmed, its domain lower-cased; InvalidEmail unless it is an address
    ("" is: no address)."""
    email = User.objects.normalize_email((email or "").strip())
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidEmail(_("Enter a valid e-mail address.")) from None
        if len(email) > User._meta.get_field("email").max_length:
            raise InvalidEmail(_("That e-mail address is too long."))
    return email


def change_email(*, user: User, email: str, absolute: AbsoluteUri) -> None:
    """Give `user` the address `email` ("" removes it), unverified, and send it its link
    once saved. The same address again re-sends the link while it is unverified."""
    email = normalized(email)
    with transaction.atomic():
        if email != user.email:
            user.email, user.email_verified = email, False
            user.save(update_fields=["email", "email_verified"])
        if email and not user.email_verified:
            transaction.on_commit(lambda: send_verification(user, absolute))


def verification_link(user: User, absolute: AbsoluteUri) -> str:
    token = signing.dumps({"user": user.pk, "email": user.email}, salt=SALT)
    return absolute(reverse("verify_email", args=[token]))


def verify(token: str) -> User:
    """The account whose current address `token` proves, now verified; InvalidLink if
    the token is forged, expired, or names an address the account no longer has."""
    try:
        claim = signing.loads(token, salt=SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:  # expired, too (SignatureExpired is one)
        raise InvalidLink(_("This link is not valid, or has expired.")) from None
    user = User.objects.filter(pk=claim.get("user"), is_active=True).first()
    if user is None or not user.email or user.email != claim.get("email"):
        raise InvalidLink(_("This link is not valid, or has expired."))
    if not user.email_verified:
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user


def send_verification(user: User, absolute: AbsoluteUri) -> bool:
    """Mail `user` the link that verifies their current address."""
    context = {"user": user, "link": verification_link(user, absolute),
               "days": settings.PASSWORD_RESET_TIMEOUT // (24 * 3600)}
    return send_rendered(user, "email/verify_subject.txt", "email/verify_body.txt", context)


def send_rendered(user: User, subject_template: str, body_template: str,
                  context: dict[str, Any]) -> bool:
    """Mail `user` the two templates rendered in their language (else the current one);
    False (and a warning logged) if the mail server would not take it: the change that
    sent it stands, and the e-mail page sends again."""
    with translation.override(user.language or translation.get_language()):
        subject = "".join(render_to_string(subject_template, context).splitlines())
        body = render_to_string(body_template, context)
    try:
        send_mail(subject, body, None, [user.email])
    except (OSError, smtplib.SMTPException) as exc:  # refused, unreachable, timed out
        log.warning("e-mail to account %s not sent: %r", user.pk, exc)
        return False
    return True


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's reset form, mailing only verified addresses, in the account's language."""

    def get_users(self, email: str) -> Any:
        return (user for user in super().get_users(email) if user.email_verified)

    def send_mail(self, subject_template_name: str, email_template_name: str,
                  context: dict[str, Any], from_email: str | None, to_email: str,
                  html_email_template_name: str | None = None) -> None:
        user = context["user"]
        with translation.override(user.language or translation.get_language()):
            try:
                super().send_mail(subject_template_name, email_template_name, context,
                                  from_email, to_email, html_email_template_name)
            except (OSError, smtplib.SMTPException) as exc:  # the page says the same
                log.warning("password reset e-mail to account %s not sent: %r", user.pk, exc)


def check_reset_rate(address: str) -> None:
    """Count a reset request from `address`; `limits.RateLimited` past RESET_RATE (a
    reset mails someone: nobody may use the page to flood an inbox)."""
    limits.check(RESET_RATE, address, _("Too many password reset requests from your address"))
