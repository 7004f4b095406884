"""Reads about users: who is active, whose name clashes, the account's own JSON.

What a profile shows of a user's games is read in games (`games.profiles`), above
accounts; `/api/me/` gets its games' part (the ratings) through `add_me_part`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q

from accounts import names
from accounts.models import User
from bloqueio_site.jsontext import iso

MePart = Callable[[User], dict[str, Any]]
# What the layers above add to `/api/me/` (games: the ratings), each registered once at
# its app's ready(): accounts never imports them.
_ME_PARTS: list[MePart] = []


def add_me_part(part: MePart) -> None:
    """Have `me_json` include what `part(user)` returns (once, however often called)."""
    if part not in _ME_PARTS:
        _ME_PARTS.append(part)


def active_user(username: str) -> User | None:
    """The active user named `username`, any case: the folded key (accounts/names.py),
    the one comparison log-in, tokens and registration use too."""
    if "\x00" in username:
        return None  # no name holds a NUL (`%00` in a path); PostgreSQL refuses to compare it
    return User.objects.filter(username_key=names.fold(username), is_active=True).first()


def name_clash(username: str, *, exclude_pk: int | None = None) -> User | None:
    """The account (but `exclude_pk`) whose name is `username` in another case or looks
    like it."""
    return (User.objects.filter(Q(username_key=names.fold(username))
                                | Q(username_skeleton=names.confusable_key(username)))
            .exclude(pk=exclude_pk).order_by("pk").first())


def is_active(user_id: int) -> bool:
    """Whether the account may still be used (False once banned or deleted)."""
    return User.objects.filter(pk=user_id, is_active=True).exists()


def me_json(user: User) -> dict[str, Any]:
    """The account as its owner sees it, with the parts the layers above add."""
    body: dict[str, Any] = {
        "id": user.pk, "username": user.username, "email": user.email,
        "email_verified": user.email_verified, "date_joined": iso(user.date_joined),
        "language": user.language,
    }
    for part in _ME_PARTS:
        body.update(part(user))
    return body


