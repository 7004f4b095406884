"""The moderation log in admin: filters and search; nobody adds, changes or deletes."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from moderation.models import ModerationLog


@admin.register(ModerationLog)
class ModerationLogAdmin(admin.ModelAdmin):
    list_display = ("at", "actor", "action", "target_type", "target_repr", "reason", "outcome")
    list_filter = ("action", ("actor", admin.RelatedOnlyFieldListFilter), "at")
    date_hierarchy = "at"
    search_fields = ("target_repr", "reason", "outcome", "actor__username", "target_id")
    list_select_related = ("actor",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
