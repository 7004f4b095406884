"""Moderation in Django admin: the log (read-only), the reports queue, the users (bans)
and the games (abort, annul, remove a seat), the tournaments (cancel, take a player out)."""

from moderation.admin import games, log, reports, tournaments, users  # noqa: F401  (registers the model admins)
