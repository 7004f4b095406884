"""Moderation in Django admin: the log (read-only) and the reports queue."""

from moderation.admin import log, reports  # noqa: F401  (registers the model admins)
