"""Moderation in Django admin: the log (read-only), the reports queue and the users (bans)."""

from moderation.admin import log, reports, users  # noqa: F401  (registers the model admins)
