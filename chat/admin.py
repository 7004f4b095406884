"""Chat in the moderation console: messages (deleted ones shown, marked) and mutes,
read-only; deleting a message asks for a reason and goes through chat.services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from chat import services
from chat.models import ChatMessage, Mute
from moderation.admin.reason import with_reason


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly):
    list_display = ("id", "game", "room", "author", "text", "created_at", "deleted")
    list_filter = ("room", "deleted", "created_at")
    search_fields = ("author__username", "=game__id", "text")
    readonly_fields = ("game", "room", "author", "text", "created_at", "deleted",
                       "deleted_by", "deleted_at")
    list_select_related = ("author", "game")
    actions = ["delete_messages"]

    def has_delete_message_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.delete_message")

    @admin.action(description=gettext_lazy("Delete selected messages (kept for moderators)…"),
                  permissions=["delete_message"])
    def delete_messages(self, request: HttpRequest,
                        queryset: QuerySet[ChatMessage]) -> TemplateResponse | None:
        def delete(message: ChatMessage, reason: str) -> None:
            services.delete_message(actor=request.user, message_id=message.pk, reason=reason)

        return with_reason(self, request, queryset.order_by("pk"), title=_("Delete messages"),
                           verb=_("Delete"), run=delete,
                           done=ngettext_lazy("Deleted %(count)s message.",
                                              "Deleted %(count)s messages.", "count"))


@admin.register(Mute)
class MuteAdmin(ReadOnly):
    list_display = ("user", "until", "by", "reason", "created_at")
    list_filter = ("created_at",)
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "by")


class ChatInline(admin.TabularInline):
    """A game's chat, both rooms, on its admin page: read-only."""

    model = ChatMessage
    fk_name = "game"
    extra = 0
    can_delete = False
    fields = ("created_at", "room", "author", "text", "deleted")
    readonly_fields = fields
    ordering = ("id",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
