"""Admin pages that show rows and never add, change or delete them: the append-only logs
(events, the moderation log, chat) and rows only their services may write (reports,
invitations, rematches, notifications)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class ReadOnly:
    """Mix into a ModelAdmin or an inline: nobody adds, changes or deletes here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
