"""An account's e-mail address: set it, prove it by a signed link, and mail it.

The address is optional (sign-up, the e-mail page, PATCH /api/me/). A new address starts
unverified and is sent a link: a signed token of (account, address) that lasts
PASSWORD_RESET_TIMEOUT and verifies that exact address only, so a link sent to an old
address does nothing once the address changed. Password resets go only to verified
addresses (`VerifiedPasswordResetForm`): an address someone typed for an account is
not theirs until they open its link.

A change (or removal) needs the account's current password: a stolen token or session
alone cannot move the account's resets to another inbox. A verified address that is
changed away is told, with a link that puts it back and ends every session and token
(`undo_change`): it works once, until the next change, for PASSWORD_RESET_TIMEOUT.

The site mails only as often as its limits allow (issue 44: it was a spam relay):
confirmation links per account and per recipient address, and a pause before the
same link goes to the same address again; a refusal changes nothing.

Mail is written in the account's language (else the page's) and sent after the change
commits, through Django's e-mail backend (EMAIL_URL, bloqueio_site/email_config.py).
Every link in it starts with SITE_URL (`site_link`), never with the Host a request
named: a client chooses that header.
"""

from __future__ import annotations

import logging
import smtplib
from functools import partial
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
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import credentials
from accounts.models import User
from bloqueio_site import limits
from bloqueio_site.errors import ServiceError

log = logging.getLogger(__name__)

SALT = "accounts.email.verify"
UNDO_SALT = "accounts.email.undo"
RESET_RATE = limits.rate("password_reset", "PASSWORD_RESET_LIMIT", 5, 60 * 60)
# Confirmation links: per account, per recipient (whichever accounts name it), and a
# pause before the same account's link goes to the same address again.
CONFIRM_ACCOUNT_RATE = limits.rate("confirm_account", "EMAIL_CONFIRM_ACCOUNT_LIMIT", 5, 3600)
CONFIRM_RECIPIENT_RATE = limits.rate("confirm_recipient", "EMAIL_CONFIRM_RECIPIENT_LIMIT",
                                     5, 24 * 3600)
CONFIRM_COOLDOWN = limits.cooldown("confirm_again", "EMAIL_CONFIRM_COOLDOWN", 5 * 60)


class InvalidEmail(ServiceError):
    code = "invalid_email"


class InvalidLink(ServiceError):
    code = "invalid_link"


class PasswordRequired(ServiceError):
    code = "password_required"


class WrongPassword(ServiceError):
    code = "invalid_credentials"


def site_link(path: str) -> str:
    """`path` made absolute for a mail: SITE_URL, as the worker's notifications do."""
    return settings.SITE_URL + path


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


def change_email(*, user: User, email: str, password: str | None = None) -> None:
    """Give `user` the address `email` ("" removes it), unverified, and send it its link
    once saved; the same unverified address again sends the link again. A change needs
    the current `password` and tells a verified old address (`send_change_notice`).
    Past a limit (`check_confirmation_limits`) nothing is saved or sent."""
    email = normalized(email)
    changing = email != user.email
    if changing:
        check_password(user, password)
    if email and (changing or not user.email_verified):
        check_confirmation_limits(user, email)
    if not changing:
        if email and not user.email_verified:
            send_verification(user)
        return
    with transaction.atomic():
        # The row lock orders two changes: each tells the address the other left.
        before = User.objects.select_for_update().only("email", "email_verified").get(pk=user.pk)
        user.email, user.email_verified, user.email_changed_at = email, False, timezone.now()
        user.save(update_fields=["email", "email_verified", "email_changed_at"])
        if before.email and before.email_verified:
            transaction.on_commit(partial(send_change_notice, user, before.email))
        if email:
            transaction.on_commit(partial(send_verification, user))


def check_password(user: User, password: str | None) -> None:
    """PasswordRequired or WrongPassword unless `password` is the account's."""
    if not password:
        raise PasswordRequired(_("Changing the e-mail address needs your current password."))
    if not credentials.verify_password(user, password):
        raise WrongPassword(_("Your password was entered incorrectly."))


def check_confirmation_limits(user: User, email: str) -> None:
    """Count one confirmation link from `user` to `email`; `limits.RateLimited` past
    the pause before the same link again, CONFIRM_ACCOUNT_RATE or CONFIRM_RECIPIENT_RATE."""
    recipient = email.lower()  # one inbox, however its letters are cased
    limits.check_cooldown(CONFIRM_COOLDOWN, f"{user.pk}:{recipient}", _(
        "The confirmation link was sent to %(email)s moments ago; it goes to the same "
        "address again only after a pause") % {"email": email})
    limits.check(CONFIRM_ACCOUNT_RATE, str(user.pk),
                 _("Too many confirmation e-mails for your account"))
    limits.check(CONFIRM_RECIPIENT_RATE, recipient,
                 _("Too many confirmation e-mails to %(email)s") % {"email": email})


def verification_link(user: User) -> str:
    token = signing.dumps({"user": user.pk, "email": user.email}, salt=SALT)
    return site_link(reverse("verify_email", args=[token]))


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


def send_verification(user: User) -> bool:
    """Mail `user` the link that verifies their current address."""
    context = {"user": user, "link": verification_link(user), "days": _link_days()}
    return send_rendered(user, "email/verify_subject.txt", "email/verify_body.txt", context)


def send_change_notice(user: User, old: str) -> bool:
    """Tell the verified address `old` that it is no longer the account's, with the link
    that puts it back (`undo_change`)."""
    token = signing.dumps({"user": user.pk, "email": old, "at": _stamp(user)}, salt=UNDO_SALT)
    context = {"user": user, "old": old, "new": user.email, "days": _link_days(),
               "link": site_link(reverse("undo_email", args=[token]))}
    return send_rendered(user, "email/changed_subject.txt", "email/changed_body.txt",
                         context, to=old)


def undo_claim(token: str, *, lock: bool = False) -> tuple[User, str]:
    """(the account, the address to put back) that an undo link names, the account's row
    locked with `lock`; InvalidLink if forged, expired, spent, or another change came
    after it."""
    try:
        claim = signing.loads(token, salt=UNDO_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        raise InvalidLink(_("This link is not valid, or has expired.")) from None
    users = User.objects.filter(pk=claim.get("user"), is_active=True)
    user = (users.select_for_update() if lock else users).first()
    if user is None or not claim.get("email") or _stamp(user) != claim.get("at"):
        raise InvalidLink(_("This link is not valid, or has expired."))
    return user, claim["email"]


def undo_change(token: str) -> User:
    """Put back the address an undo link names, verified, and end every session and
    token of the account (whoever changed it may hold some); InvalidLink as
    `undo_claim`. Once: putting it back is itself a change, which spends the link."""
    with transaction.atomic():
        user, old = undo_claim(token, lock=True)  # locked: two clicks put it back once
        user.email, user.email_verified, user.email_changed_at = old, True, timezone.now()
        user.save(update_fields=["email", "email_verified", "email_changed_at"])
        credentials.password_changed(user=user)
    log.info("account %s put back its e-mail address by an undo link", user.pk)
    return user


def _stamp(user: User) -> str | None:
    return user.email_changed_at.isoformat() if user.email_changed_at else None


def _link_days() -> int:
    return settings.PASSWORD_RESET_TIMEOUT // (24 * 3600)


def send_rendered(user: User, subject_template: str, body_template: str,
                  context: dict[str, Any], *, to: str | None = None) -> bool:
    """Mail `user` (at `to`, else their address) the two templates rendered in their
    language (else the current one); False (and a warning logged) if the mail server
    would not take it: the change that sent it stands, and the e-mail page sends again."""
    with translation.override(user.language or translation.get_language()):
        subject = "".join(render_to_string(subject_template, context).splitlines())
        body = render_to_string(body_template, context)
    try:
        send_mail(subject, body, None, [to or user.email])
    except (OSError, smtplib.SMTPException) as exc:  # refused, unreachable, timed out
        log.warning("e-mail to account %s not sent: %r", user.pk, exc)
        return False
    return True


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's reset form, mailing only verified addresses, in the account's language,
    its link starting with SITE_URL (Django's names the request's Host)."""

    def get_users(self, email: str) -> Any:
        return (user for user in super().get_users(email) if user.email_verified)

    def send_mail(self, subject_template_name: str, email_template_name: str,
                  context: dict[str, Any], from_email: str | None, to_email: str,
                  html_email_template_name: str | None = None) -> None:
        user = context["user"]
        context["link"] = site_link(reverse("password_reset_confirm", kwargs={
            "uidb64": context["uid"], "token": context["token"]}))
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
