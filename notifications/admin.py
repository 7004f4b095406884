"""Notifications in admin: read-only, to answer "why did I (not) get that e-mail?"."""

from __future__ import annotations

from django.contrib import admin

from bloqueio_site.read_only_admin import ReadOnly
from notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "user", "kind", "game", "created_at", "read_at", "mail")
    list_filter = ("kind", "mail")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "game")
    ordering = ("-created_at",)

