"""Users in Django admin, with bans (moderation) going through `accounts.services`.

Unticking "active" in the change form is a ban and ticking it again an unban: both
call the same services as the list actions, so a ban from anywhere also ends the
user's token, sessions, sockets and seats (docs/operations.md, "Moderation").
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from accounts import services
from accounts.models import User


def _ban_summary(report: services.BanReport) -> str:
    parts = [f"{report.sessions} session(s) ended"]
    if report.done:
        parts.append(f"left {len(report.left_waiting)} waiting game(s)")
        parts.append(f"removed from {len(report.removed_from)} active game(s)")
    else:
        parts.append("its seats are released once this change commits")
    return ", ".join(parts)


@admin.register(User)
class BloqueioUserAdmin(UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    actions = ["ban_users", "unban_users"]

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> type[ModelForm]:
        form = super().get_form(request, obj, **kwargs)
        moderator = request.user

        class BanCheckedForm(form):  # type: ignore[valid-type,misc]
            """Refuse, as a form error, a ban the service would refuse."""

            def clean(self) -> dict[str, Any]:
                cleaned: dict[str, Any] = super().clean()
                was_active = self.instance.pk is not None and self.instance.is_active
                if was_active and cleaned.get("is_active") is False:
                    try:
                        services.check_can_ban(user=self.instance, by=moderator)
                    except services.BanRefused as exc:
                        raise ValidationError({"is_active": exc.detail}) from None
                return cleaned

        return BanCheckedForm

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        flipped = change and "is_active" in form.changed_data
        banning = flipped and not obj.is_active
        if flipped:
            obj.is_active = not obj.is_active  # save the rest; the service flips it
        super().save_model(request, obj, form, change)
        if banning:
            report = services.ban_user(obj, by=request.user)
            self.message_user(request, f"{obj.username} is banned: {_ban_summary(report)}.")
        elif flipped:
            services.unban_user(obj)
            self.message_user(request, f"{obj.username} is active again.")

    @admin.action(description="Ban selected users (disable, log out, close sockets, "
                              "leave games)")
    def ban_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        banned = 0
        for user in queryset.order_by("pk"):
            try:
                report = services.ban_user(user, by=request.user)
            except services.BanRefused as exc:
                self.message_user(request, f"{user.username}: {exc.detail}", messages.WARNING)
                continue
            banned += 1
            self.message_user(request, f"{user.username}: {_ban_summary(report)}.")
            for problem in report.problems:
                self.message_user(request, f"{user.username}: {problem}", messages.WARNING)
        self.message_user(request, f"Banned {banned} user(s).")

    @admin.action(description="Unban selected users")
    def unban_users(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = 0
        for user in queryset.filter(is_active=False).order_by("pk"):
            services.unban_user(user)
            count += 1
        self.message_user(request, f"Unbanned {count} user(s).")
