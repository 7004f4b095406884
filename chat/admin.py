"""Chat in the moderation console: messages (deleted ones shown, marked) and mutes,
read-only; deleting a message asks for a reason and goes through chat.services."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from accounts.models import User
from bloqueio_site.read_only_admin import ReadOnly
from chat import services
from chat.models import ChatMessage, Mute
from games.models import Game
from moderation.admin.games import GameAdmin
from moderation.admin.reason import with_reason
from moderation.admin.users import BloqueioUserAdmin


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly, admin.ModelAdmin):
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
class MuteAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("user", "until", "by", "reason", "created_at")
    list_filter = ("created_at",)
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "by")


class ChatInline(ReadOnly, admin.TabularInline):
    """A game's chat, both rooms, on its admin page: read-only."""

    model = ChatMessage
    fk_name = "game"
    extra = 0
    can_delete = False
    fields = ("created_at", "room", "author", "text", "deleted")
    readonly_fields = fields
    ordering = ("id",)


class ChatUserAdmin(BloqueioUserAdmin):
    """The users' admin of moderation plus chat mutes (chat.services; each logged with its
    reason). Registered here, in place of moderation's, because chat sits above moderation:
    moderation's admin cannot name chat."""

    actions = [*BloqueioUserAdmin.actions, "mute_hour", "mute_day", "mute_indefinitely",
               "unmute_users"]

    def has_mute_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.mute_user")

    def _mute(self, request: HttpRequest, queryset: QuerySet[User], minutes: int | None,
              how_long: str) -> TemplateResponse | None:
        def mute(user: User, reason: str) -> str:
            services.mute_user(actor=request.user, user=user, reason=reason,
                                    minutes=minutes)
            return _("%(name)s is muted in chat %(how_long)s.") % {"name": user.username,
                                                                     "how_long": how_long}

        return with_reason(self, request, queryset.order_by("pk"),
                           title=_("Mute in chat %(how_long)s") % {"how_long": how_long},
                           verb=_("Mute"), run=mute,
                           done=ngettext_lazy("Muted %(count)s user.", "Muted %(count)s users.",
                                              "count"))

    @admin.action(description=gettext_lazy("Mute selected users in chat for 1 hour…"),
                  permissions=["mute"])
    def mute_hour(self, request: HttpRequest,
                  queryset: QuerySet[User]) -> TemplateResponse | None:
        return self._mute(request, queryset, 60, _("for 1 hour"))

    @admin.action(description=gettext_lazy("Mute selected users in chat for 24 hours…"),
                  permissions=["mute"])
    def mute_day(self, request: HttpRequest,
                 queryset: QuerySet[User]) -> TemplateResponse | None:
        return self._mute(request, queryset, 24 * 60, _("for 24 hours"))

    @admin.action(description=gettext_lazy("Mute selected users in chat until unmuted…"),
                  permissions=["mute"])
    def mute_indefinitely(self, request: HttpRequest,
                          queryset: QuerySet[User]) -> TemplateResponse | None:
        return self._mute(request, queryset, None, _("until unmuted"))

    @admin.action(description=gettext_lazy("Unmute selected users in chat…"),
                  permissions=["mute"])
    def unmute_users(self, request: HttpRequest,
                     queryset: QuerySet[User]) -> TemplateResponse | None:
        def unmute(user: User, reason: str) -> None:
            services.unmute_user(actor=request.user, user=user, reason=reason)

        return with_reason(self, request, queryset.order_by("pk"), title=_("Unmute in chat"),
                           verb=_("Unmute"), run=unmute,
                           done=ngettext_lazy("Unmuted %(count)s user.",
                                              "Unmuted %(count)s users.", "count"))


class ChatGameAdmin(GameAdmin):
    """The games' admin of moderation plus each game's chat, read-only."""

    inlines = [*GameAdmin.inlines, ChatInline]


# In place of moderation's own registrations (chat sits above moderation, which cannot
# name chat); importing moderation.admin above has registered those already.
admin.site.unregister(User)
admin.site.register(User, ChatUserAdmin)
admin.site.unregister(Game)
admin.site.register(Game, ChatGameAdmin)
