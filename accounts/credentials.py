"""API tokens and sessions: look up, list, create and revoke; a password change ends
every credential but the one that made it.

An account has its default token (DRF's `Token`: what registration and
`POST /api/auth/token/` hand out, made again on the next log-in once revoked) and up to
MAX_NAMED_TOKENS named ones (`ApiToken`), all sent as `Authorization: Token <key>`. A
token is shown by its `id`, a digest of the key, never by the key after it was made.

Every revocation is announced after commit with `credentials_revoked`: the real-time
layer then closes the sockets whose token or session is gone (accounts/ws_auth.py).
"""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts.errors import FieldErrors
from accounts.models import ApiToken, User
from accounts.signals import credentials_revoked
from bloqueio_site import limits, loop_db, model_rows
from bloqueio_site.errors import ServiceError
from bloqueio_site.jsontext import iso
from bloqueio_site.off_loop import off_loop

DEFAULT_NAME = "default"
MAX_NAMED_TOKENS = 20
NAME_MAX = ApiToken._meta.get_field("name").max_length


class TokenNotFound(ServiceError):
    code = "not_found"
    status = 404


class TooManyTokens(ServiceError):
    code = "too_many_tokens"
    status = 409


class PasswordRefused(FieldErrors):
    """A password change refused, field by field."""


def public_id(key: str) -> str:
    """A token's public id: names it in lists and revocations without showing the key."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def user_for_key(key: str) -> User | None:
    """The active user a token (default or named) belongs to, or None."""
    if not _may_be_key(key):
        return None
    return model_rows.first(_USERS, _USER_FOR_KEY_SQL, [key, key])


async def auser_for_key(key: str) -> User | None:
    """`user_for_key` from the event loop: read on the loop's own connection
    (bloqueio_site/loop_db.py), so a socket's open does not wait for a worker thread; on
    a worker thread when the loop cannot read (off, SQLite, the read failed)."""
    if not _may_be_key(key):
        return None
    try:
        row = await loop_db.fetch_one(_USER_FOR_KEY_SQL, [key, key])
    except loop_db.Unusable:
        return await off_loop(user_for_key)(key)
    return None if row is None else _USERS.load(row)


def _may_be_key(key: str) -> bool:
    # No token looks otherwise, and PostgreSQL refuses text with a NUL.
    return len(key) <= 40 and "\x00" not in key


# Every API request and every socket open with a token runs this: fixed SQL, one round
# trip, instead of two ORM queries compiled each time, and read without a RawQuerySet
# (bloqueio_site/model_rows.py; docs/performance.md). A key is 40 random hex digits,
# unique in each table, so it names one token of either kind.
_USERS = model_rows.ModelRows(User)
_USER_FOR_KEY_SQL = (
    f"SELECT {_USERS.columns('u')} FROM {User._meta.db_table} u WHERE u.is_active AND u.id = ("
    f"SELECT {Token._meta.get_field('user').column} FROM {Token._meta.db_table} "
    f"WHERE {Token._meta.get_field('key').column} = %s UNION ALL "
    f"SELECT {ApiToken._meta.get_field('user').column} FROM {ApiToken._meta.db_table} "
    f"WHERE {ApiToken._meta.get_field('key').column} = %s LIMIT 1)")


def default_token(user: User) -> str:
    """The account's default token, made on first use (and after a revocation)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def list_tokens(user: User) -> list[dict[str, Any]]:
    """[{id, name, created, default}], the default token first, then oldest first."""
    rows = [(t.key, DEFAULT_NAME, t.created, True) for t in Token.objects.filter(user=user)]
    rows += [(t.key, t.name, t.created, False) for t in ApiToken.objects.filter(user=user)]
    return [{"id": public_id(key), "name": name, "created": iso(created), "default": default}
            for key, name, created, default in rows]


def create_token(*, user: User, name: str) -> tuple[dict[str, Any], str]:
    """A new named token: (its listing, its key). The key is shown this once."""
    name = name.strip()
    if not name or len(name) > NAME_MAX:
        raise ServiceError(_("A token needs a name of 1 to %(most)s characters.")
                           % {"most": NAME_MAX}, code="invalid")
    with transaction.atomic():
        # The account's row lock serializes two creations racing past the count.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user).count() >= MAX_NAMED_TOKENS:
            raise TooManyTokens(_("At most %(most)s named tokens; revoke one first.")
                                % {"most": MAX_NAMED_TOKENS})
        token = ApiToken.objects.create(user=user, name=name)
    return ({"id": public_id(token.key), "name": token.name, "created": iso(token.created),
             "default": False}, token.key)


def revoke_token(*, user: User, token_id: str) -> None:
    """Delete one of the user's tokens by id; its sockets close after commit."""
    keys = [*Token.objects.filter(user=user).values_list("key", flat=True),
            *ApiToken.objects.filter(user=user).values_list("key", flat=True)]
    key = next((k for k in keys if constant_time_compare(public_id(k), token_id)), None)
    if key is None:
        raise TokenNotFound(_("You have no token with that id."))
    with transaction.atomic():
        Token.objects.filter(user=user, key=key).delete()
        ApiToken.objects.filter(user=user, key=key).delete()
        _announce(user.pk)


def delete_tokens(user_id: int, *, keep: str | None = None) -> int:
    """Delete every token of the user but `keep` (a key); returns how many."""
    default, _ = Token.objects.filter(user_id=user_id).exclude(key=keep or "").delete()
    named, _ = ApiToken.objects.filter(user_id=user_id).exclude(key=keep or "").delete()
    return default + named


def end_sessions(user_id: int, *, keep: str | None = None) -> int:
    """Delete every unexpired session signed in as `user_id` but `keep` (a session key);
    returns how many.

    Sessions are not indexed by user, so this decodes the unexpired ones: one scan per
    ban or password change. A session this misses (a login racing it) is dead anyway:
    Django refuses a session whose password hash or active flag no longer matches.
    """
    store = Session.get_session_store_class()()
    rows = (Session.objects.filter(expire_date__gt=timezone.now())
            .exclude(session_key=keep or "").values_list("session_key", "session_data"))
    doomed = [key for key, data in rows.iterator(chunk_size=1000)
              if store.decode(data).get(SESSION_KEY) == str(user_id)]
    deleted, _ = Session.objects.filter(session_key__in=doomed).delete()
    return deleted


def password_changed(*, user: User, keep_session: str | None = None,
                     keep_token: str | None = None) -> None:
    """After `user`'s password changed: end every other session and token (the ones
    that made the change stay), and close their sockets after commit."""
    with transaction.atomic():
        delete_tokens(user.pk, keep=keep_token)
        end_sessions(user.pk, keep=keep_session)
        _announce(user.pk)


# Wrong current passwords given by a signed-in account (changing its password or its
# e-mail address), counted per account: a stolen token or session must not become a way
# to guess the password that guards the account (issue #44). Once used up, every check
# is refused, the right password too, until the window ends.
PASSWORD_GUESS_RATE = limits.rate("password_guess", "PASSWORD_GUESS_LIMIT", 5, 15 * 60)


def verify_password(user: User, password: str) -> bool:
    """Whether `password` is `user`'s current one; a wrong one counts against
    PASSWORD_GUESS_RATE, and past it `limits.RateLimited` is raised before comparing."""
    key = str(user.pk)
    wait = limits.spent(PASSWORD_GUESS_RATE, key)
    if wait is not None:
        raise limits.refusal(PASSWORD_GUESS_RATE,
                             _("Too many wrong passwords for this account"), wait)
    if user.check_password(password):
        return True
    limits.hit(PASSWORD_GUESS_RATE, key)
    return False


def change_password(*, user: User, old_password: str, new_password: str,
                    keep_session: str | None = None, keep_token: str | None = None) -> None:
    """Check the old password and the new one's rules, set it, end the other
    credentials (`password_changed`); raises PasswordRefused with field errors."""
    if not verify_password(user, old_password):
        raise PasswordRefused(
            {"old_password": [_("Your old password was entered incorrectly.")]})
    try:
        validate_password(new_password, user=user)
    except ValidationError as exc:
        raise PasswordRefused({"new_password": list(exc.messages)}) from None
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        password_changed(user=user, keep_session=keep_session, keep_token=keep_token)


def session_is_current(session_key: str, user: User) -> bool:
    """Whether the session is still stored, signed in as `user` with its current
    password (what Django checks on every request, checked again for an open socket)."""
    store = Session.get_session_store_class()(session_key)
    data = store.load()
    return (data.get(SESSION_KEY) == str(user.pk)
            and constant_time_compare(data.get(HASH_SESSION_KEY, ""),
                                      user.get_session_auth_hash()))


def _announce(user_id: int) -> None:
    transaction.on_commit(partial(credentials_revoked.send_robust, sender=User,
                                  user_id=user_id), robust=True)
