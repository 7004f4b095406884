"""The user model: Django's, with usernames unique regardless of case, and bot accounts.

A bot account (`bot_level` set) is the computer playing at one level: it cannot log in
(no usable password), the background worker plays its seats (games/computer.py), it is
labelled as a bot wherever a name is shown, and it has its own rating per kind, kept
off the human leaderboard.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username: str | None) -> User:
        # "Alice" logs in as "alice": lookups ignore case, like the unique constraint.
        return self.get(username__iexact=username)


class User(AbstractUser):
    objects = CaseInsensitiveUserManager()

    # "" for people; "easy", "medium" or "hard" for the computer's accounts.
    bot_level = models.CharField(max_length=8, blank=True, default="", editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            # One account per bot level: its rating per kind is that level's rating.
            models.UniqueConstraint(fields=["bot_level"], name="accounts_user_one_per_bot_level",
                                    condition=~models.Q(bot_level="")),
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)
