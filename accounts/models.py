"""The user model: Django's, with usernames unique regardless of case or look-alike
letters (accounts/names.py), named API tokens, and bot accounts.

A bot account (`bot_level` set) is the computer playing at one level: it cannot log in
(no usable password), the background worker plays its seats (games/computer.py), it is
labelled as a bot wherever a name is shown, and it has its own rating per kind, kept
off the human leaderboard.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts import names


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username: str | None) -> User:
        # "Alice" logs in as "alice": lookups compare the folded key, like the constraint.
        return self.get(username_key=names.fold(username or ""))


class User(AbstractUser):
    objects = CaseInsensitiveUserManager()

    # "" for people; "easy", "medium" or "hard" for the computer's accounts.
    bot_level = models.CharField(_("bot level"),
                                 max_length=8, blank=True, default="", editable=False)
    # Derived from `username` on save (accounts/names.py). NULL only for rows written
    # around save() (bulk_create) and for the later of two look-alike names that existed
    # before the key did (migration 0003): such a name cannot be looked up until renamed.
    username_key = models.TextField(null=True, editable=False)  # noqa: DJ001
    username_skeleton = models.TextField(null=True, editable=False)  # noqa: DJ001
    # The language this person chose with the switcher, a code of settings.LANGUAGES
    # (checked by accounts/language.py, not by `choices`: a new language needs no
    # migration); "" until they choose, when the cookie or Accept-Language decides.
    language = models.CharField(_("language"), max_length=10, blank=True, default="")
    # True once the owner of `email` opened the link sent to it (accounts/addresses.py);
    # a password reset goes only to a verified address. A new address starts unverified.
    email_verified = models.BooleanField(_("e-mail verified"), default=False, db_default=False)
    # When the address last changed (set, changed, removed or put back by an undo link):
    # an undo link names it, so it works once and only until the next change.
    email_changed_at = models.DateTimeField(_("e-mail changed at"), null=True, blank=True,
                                            editable=False)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(fields=["username_key"],
                                    name="accounts_user_username_key_unique"),
            models.UniqueConstraint(fields=["username_skeleton"],
                                    name="accounts_user_username_skeleton_unique"),
            # One account per bot level: its rating per kind is that level's rating.
            models.UniqueConstraint(fields=["bot_level"], name="accounts_user_one_per_bot_level",
                                    condition=~models.Q(bot_level="")),
        ]

    def __str__(self) -> str:
        return self.username

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any) -> User:
        user = super().from_db(db, field_names, values)
        user._saved_username = user.__dict__.get("username")
        return user

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Derive the name's keys when the name is new or changed (a legacy look-alike
        keeps its NULL skeleton through every other save)."""
        if self._state.adding or self.username != getattr(self, "_saved_username", None):
            self.username_key = names.fold(self.username)
            self.username_skeleton = names.confusable_key(self.username)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "username" in update_fields:
                kwargs["update_fields"] = {*update_fields, "username_key", "username_skeleton"}
        super().save(*args, **kwargs)
        self._saved_username = self.username

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


def _new_key() -> str:
    return secrets.token_hex(20)


class ApiToken(models.Model):
    """A named API token beside the account's default one (DRF's `Token`, which
    `POST /api/auth/token/` and registration hand out). Same header, same 40 hex digits;
    listed and revoked in the settings page and `/api/auth/tokens/`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens", verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=50)
    key = models.CharField(_("key"), max_length=40, unique=True, default=_new_key, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.name}"
