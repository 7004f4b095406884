"""The moderation log in admin: filters and search; nobody adds, changes or deletes."""

from __future__ import annotations

from django.contrib import admin

from bloqueio_site.read_only_admin import ReadOnly
from moderation.models import ModerationLog


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("at", "actor", "action", "target_type", "target_repr", "reason", "outcome")
    list_filter = ("action", ("actor", admin.RelatedOnlyFieldListFilter), "at")
    date_hierarchy = "at"
    search_fields = ("target_repr", "reason", "outcome", "actor__username", "target_id")
    list_select_related = ("actor",)



