"""The computer's accounts: one per bot level, created by a migration and again on
demand (a flushed test database, an admin who deleted one)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import User
from games import texts
from games.bots import LEVELS


def bot_account(level: str) -> User:
    """The account that plays at `level`; ValueError for an unknown level."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    found = User.objects.filter(bot_level=level).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return User.objects.create(username=f"{level}-bot", bot_level=level, password="!")
    except IntegrityError:  # created meanwhile by a concurrent caller
        return User.objects.get(bot_level=level)


def label(user: User) -> str:
    """How a bot is named on the page ("Computer (hard)", in the reader's language);
    people keep their username."""
    return texts.computer(user.bot_level) if user.bot_level else user.username
