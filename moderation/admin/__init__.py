"""Moderation in Django admin: the log (read-only), the reports queue, the users (bans)
and the games (abort, annul, remove a seat)."""

from moderation.admin import games, log, reports, users  # noqa: F401  (registers the model admins)
