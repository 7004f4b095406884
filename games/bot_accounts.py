"""The computer's accounts: one per bot level, created by a migration and again on
demand (a flushed test database, an admin who deleted one)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import bots, engine, texts
from games.bots import LEVELS
from games.errors import InvalidRequest


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


def require_offered(kind: str, level: str) -> None:
    """Refuse a level the computer does not play in `kind` (`perfect` plays only the
    kinds its family has solved: bots.levels)."""
    offered = bots.levels(engine.get(kind))
    if level not in offered:
        raise InvalidRequest(
            _("The computer has no %(level)s level in %(kind)s: it plays %(levels)s there.")
            % {"level": texts.level_name(level), "kind": texts.kind_title(kind),
               "levels": ", ".join(texts.level_name(x) for x in offered)},
            code="level_not_offered")
