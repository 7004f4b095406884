"""Account writes: registration, credential checks, and bans (moderation)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import partial

from django.contrib.auth import authenticate
from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts import addresses, credentials, names, selectors
from accounts.errors import FieldErrors
from accounts.lockout import LOCKED_OUT, lockout_detail
from accounts.models import User
from accounts.signals import user_banned, user_banned_seats, user_banning
from bloqueio_site import limits
from bloqueio_site.errors import ServiceError

log = logging.getLogger(__name__)


class RegistrationError(FieldErrors):
    """A sign-up refused, field by field."""


class BadCredentials(ServiceError):
    code = "invalid_credentials"
    status = 400


class LockedOut(ServiceError):
    code = LOCKED_OUT
    status = 429


# Per client address, whatever the name: sign-ups (rating farms), and login attempts
# (each costs a password hash; the lock-out only counts one account's failures).
SIGNUP_RATE = limits.rate("signup", "SIGNUP_LIMIT", 5, 3600)
LOGIN_RATE = limits.rate("login", "LOGIN_ATTEMPT_LIMIT", 30, 15 * 60)


def check_login_rate(address: str) -> None:
    """Count a login attempt from `address`; `limits.RateLimited` when over the limit."""
    limits.check(LOGIN_RATE, address, _("Too many login attempts from your address"))


def register_user(*, username: str, password: str, address: str,
                  email: str = "") -> tuple[User, str]:
    """Create a user and its API token; raises RegistrationError with field errors, or
    `limits.RateLimited` past SIGNUP_RATE sign-ups from `address` or past the limits of
    confirmation mail to `email` (then no account is made). An `email` is sent its link
    (accounts/addresses.py).

    The password is hashed before the first query: PBKDF2 costs ~0.3 s of CPU, and a
    pooled connection held through it would make a burst of sign-ups need one
    connection each. (A taken name therefore costs a hash too, which also keeps sign-up
    from telling taken names apart by timing.)
    """
    limits.check(SIGNUP_RATE, address, _("Too many sign-ups from your address"))
    errors: dict[str, list[str]] = {}
    try:
        email = addresses.normalized(email)
    except addresses.InvalidEmail as exc:
        errors["email"] = [exc.detail]
    candidate = User(username=username, email=email)
    try:
        User.username_validator(username)
    except ValidationError as exc:
        errors["username"] = list(exc.messages)
    if problem := _invisible_refusal(username):
        errors.setdefault("username", []).append(problem)
    try:
        validate_password(password, user=candidate)
    except ValidationError as exc:
        errors["password"] = list(exc.messages)
    if errors:
        raise RegistrationError(errors)
    candidate.username = User.normalize_username(username)
    candidate.password = make_password(password)
    if problem := _clash_refusal(candidate.username):
        raise RegistrationError({"username": [problem]})
    try:
        with transaction.atomic():
            candidate.save()
            token = Token.objects.create(user=candidate)
            if candidate.email:  # refused: rolled back, as if never asked
                addresses.check_confirmation_limits(candidate, candidate.email)
    except IntegrityError:
        # Lost a race with a concurrent registration of the same or a look-alike name:
        # the unique keys (accounts/names.py) settled it.
        raise RegistrationError({"username": [_("That username is taken.")]}) from None
    if candidate.email:
        addresses.send_verification(candidate)
    return candidate, token.key


def username_refusal(username: str, *, exclude_pk: int | None = None) -> str | None:
    """Why `username` cannot be given to an account (other than `exclude_pk`), or None:
    for the admin's forms; `register_user` checks the same in its own order."""
    return _invisible_refusal(username) or _clash_refusal(username, exclude_pk=exclude_pk)


def _invisible_refusal(username: str) -> str | None:
    if hidden := names.invisible_characters(User.normalize_username(username)):
        return _("A name cannot hold invisible characters (%(characters)s).") % {
            "characters": ", ".join(hidden)}
    return None


def _clash_refusal(username: str, *, exclude_pk: int | None = None) -> str | None:
    clash = selectors.name_clash(username, exclude_pk=exclude_pk)
    if clash is None:
        return None
    if clash.username_key == names.fold(username):
        return _("That username is taken.")
    return _('That username looks like the existing name "%(name)s".') % {"name": clash.username}


def token_for_credentials(*, request: HttpRequest, username: str, password: str) -> str:
    """The user's API token, created on first use; throttled per address (LOGIN_RATE)
    and per account and address (django-axes)."""
    check_login_rate(limits.address_of(request))
    try:
        user = authenticate(request=request, username=username, password=password)
    except PermissionDenied:
        raise LockedOut(lockout_detail()) from None
    if getattr(request, "axes_locked_out", False):
        raise LockedOut(lockout_detail())
    if user is None:
        raise BadCredentials(_("Unable to log in with those credentials."))
    return credentials.default_token(user)


# -- moderation: bans ------------------------------------------------------------------


class BanRefused(ServiceError):
    """Superusers and the moderator's own account cannot be banned (no lock-outs by slip)."""

    code = "cannot_ban"
    status = 409


@dataclass
class BanReport:
    """What a ban did. The game fields fill in after the ban commits (see `ban_user`)."""

    user_id: int
    tokens: int = 0
    sessions: int = 0
    queue_entries: int = 0
    left_waiting: list[int] = field(default_factory=list)
    removed_from: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    done: bool = False


def check_can_ban(*, user: User, by: User | None = None) -> None:
    """Raise BanRefused for a superuser, a bot account or the moderator themself (forms
    check early)."""
    if user.is_superuser:
        raise BanRefused(_("%(name)s is a superuser: remove that status first.")
                         % {"name": user.username})
    if user.is_bot:
        raise BanRefused(_("%(name)s is the computer: abort its games instead.")
                         % {"name": user.username})
    if by is not None and by.pk == user.pk:
        raise BanRefused(_("You cannot ban your own account."))


def ban_user(user: User, *, by: User | None = None) -> BanReport:
    """Disable `user`: no login, no token, no session, no open socket, no live seat.

    One transaction turns the account off (`is_active=False`, which is what every
    authentication path checks), deletes its API tokens, its sessions and its ranked
    queue entry. After commit: `user_banned` closes its sockets on every server (4403),
    then it leaves its waiting games and is removed (`removed` event) from its active
    ones, each a game write of its own (a refusal there never undoes the ban).
    Idempotent: banning a banned user repeats the clean-up.
    """
    check_can_ban(user=user, by=by)
    report = BanReport(user_id=user.pk)
    with transaction.atomic():
        # The UPDATE locks the row: a concurrent unban of the same user waits its turn.
        User.objects.filter(pk=user.pk).update(is_active=False)
        report.tokens = credentials.delete_tokens(user.pk)
        report.sessions = credentials.end_sessions(user.pk)
        # In the ban's transaction: out of the ranked queue (games.bans). A matcher
        # holding the entry (SKIP LOCKED) commits its game first, and the clean-up after
        # commit then finds that game and leaves it.
        user_banning.send(sender=User, user=user, report=report)
        transaction.on_commit(partial(_after_ban, user, report), robust=True)
    user.is_active = False
    log.info("user %s (%s) banned by %s", user.pk, user.username, by.pk if by else None)
    return report


def unban_user(user: User) -> None:
    """Re-enable the account. Nothing else comes back: the user logs in again for a new
    token and session, and games left or lost to the ban stay as they ended."""
    User.objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True
    log.info("user %s (%s) unbanned", user.pk, user.username)


def _after_ban(user: User, report: BanReport) -> None:
    """After the ban commits: close the user's sockets, then free the seats it held."""
    # Robust: a receiver failing (say, Redis down) must not keep the seats taken.
    for receiver, outcome in user_banned.send_robust(sender=User, user_id=user.pk):
        if isinstance(outcome, Exception):
            report.problems.append(f"closing sockets: {outcome!r}")
            log.warning("ban of user %s: %r failed: %r", user.pk, receiver, outcome)
    # Then the seats it held (games.bans): each a game write of its own.
    for receiver, outcome in user_banned_seats.send_robust(sender=User, user=user,
                                                           report=report):
        if isinstance(outcome, Exception):
            report.problems.append(f"freeing seats: {outcome!r}")
            log.warning("ban of user %s: %r failed: %r", user.pk, receiver, outcome)
            return
    report.done = True
