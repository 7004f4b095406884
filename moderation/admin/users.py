"""Users in Django admin, with bans (moderation) going through `moderation.services`.
(Chat mutes are added by `chat.admin`, which sits above moderation.)

Ban and unban ask for a reason and are logged. Unticking "active" in the change form is
a ban and ticking it again an unban (with the reason field under "Moderation"): both
call the same services as the list actions, so a ban from anywhere also ends the user's
token, sessions, sockets and seats (docs/operations.md, "Moderation").
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy

from accounts import credentials, services
from accounts.models import User
from bloqueio_site.errors import ServiceError
from moderation import services as moderation
from moderation.admin.reason import with_reason
from moderation.errors import OwnGame, StaffProtected
from moderation.models import REASON_MAX

MODERATION_FIELDSET = (gettext_lazy("Moderation"), {
    "fields": ("moderation_reason",),
    "description": gettext_lazy("Unticking Active bans the user, ticking it unbans: "
                                "say why here."),
})


def _ban_summary(report: services.BanReport) -> str:
    parts = [ngettext("%(count)s session ended", "%(count)s sessions ended", report.sessions)
             % {"count": report.sessions}]
    if report.done:
        left, removed = len(report.left_waiting), len(report.removed_from)
        parts.append(ngettext("left %(count)s waiting game", "left %(count)s waiting games",
                              left) % {"count": left})
        parts.append(ngettext("removed from %(count)s active game",
                              "removed from %(count)s active games", removed)
                     % {"count": removed})
    else:
        parts.append(_("its seats are released once this change commits"))
    return ", ".join(parts)


def _checked_username(form: ModelForm, username: str | None) -> str | None:
    """Refuse, as a form error, a name registration would refuse (another case, a
    look-alike, invisible characters), rather than fail on the unique keys."""
    if username and (problem := services.username_refusal(username,
                                                          exclude_pk=form.instance.pk)):
        raise ValidationError(problem)
    return username


class NameCheckedCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str | None:
        return _checked_username(self, super().clean_username())


class ModerationUserChangeForm(UserChangeForm):
    moderation_reason = forms.CharField(
        label=gettext_lazy("Reason for a ban or unban"), required=False, max_length=REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}))

    def clean_username(self) -> str | None:
        return _checked_username(self, self.cleaned_data.get("username"))


@admin.register(User)
class BloqueioUserAdmin(UserAdmin):
    form = ModerationUserChangeForm
    add_form = NameCheckedCreationForm
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    actions = ["ban_users", "unban_users"]

    def has_ban_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.ban_user")

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and self.has_change_permission(request, obj):
            return [*fieldsets, MODERATION_FIELDSET]
        return fieldsets

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> type[ModelForm]:
        form = super().get_form(request, obj, **kwargs)
        moderator = request.user

        class BanCheckedForm(form):  # type: ignore[valid-type,misc]
            """Refuse, as a form error, a ban the services would refuse."""

            def clean(self) -> dict[str, Any]:
                cleaned: dict[str, Any] = super().clean()
                if self.instance.pk is None or "is_active" not in cleaned:
                    return cleaned
                if cleaned["is_active"] == self.instance.is_active:
                    return cleaned
                if not moderator.has_perm("moderation.ban_user"):
                    raise ValidationError({"is_active": _("You may not ban or unban users.")})
                if cleaned["is_active"] is False:
                    try:
                        moderation.check_can_ban(actor=moderator, user=self.instance)
                    except (services.BanRefused, OwnGame, StaffProtected) as exc:
                        raise ValidationError({"is_active": exc.detail}) from None
                else:  # an unban: staff are a superuser's to unban (moderation.services)
                    try:
                        moderation.check_can_moderate(actor=moderator, users=[self.instance])
                    except StaffProtected as exc:
                        raise ValidationError({"is_active": exc.detail}) from None
                if not cleaned.get("moderation_reason", "").strip():
                    raise ValidationError(
                        {"moderation_reason": _("A ban or unban needs a reason.")})
                return cleaned

        return BanCheckedForm

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        flipped = change and "is_active" in form.changed_data
        banning = flipped and not obj.is_active
        reason = form.cleaned_data.get("moderation_reason", "")
        if flipped:
            obj.is_active = not obj.is_active  # save the rest; the service flips it
        super().save_model(request, obj, form, change)
        if banning:
            report = moderation.moderate_ban(actor=request.user, user=obj, reason=reason)
            self.message_user(request, _("%(name)s is banned: %(summary)s.")
                              % {"name": obj.username, "summary": _ban_summary(report)})
        elif flipped:
            moderation.moderate_unban(actor=request.user, user=obj, reason=reason)
            self.message_user(request, _("%(name)s is active again.") % {"name": obj.username})

    def user_change_password(self, request: HttpRequest, id: str,
                             form_url: str = "") -> HttpResponse:
        """Django's page; a password set here ends the user's sessions and tokens too
        (accounts/credentials.py), the administrator's own session staying."""
        response = super().user_change_password(request, id, form_url)
        if request.method == "POST" and response.status_code == 302:
            user = self.get_object(request, unquote(id))
            if user is not None:
                own = user.pk == request.user.pk
                credentials.password_changed(
                    user=user, keep_session=request.session.session_key if own else None)
        return response

    @admin.action(description=gettext_lazy("Ban selected users (disable, log out, close "
                                           "sockets, leave games)…"), permissions=["ban"])
    def ban_users(self, request: HttpRequest,
                  queryset: QuerySet[User]) -> TemplateResponse | None:
        def ban(user: User, reason: str) -> str:
            report = moderation.moderate_ban(actor=request.user, user=user, reason=reason)
            problems = "".join(" " + _("Problem: %(problem)s") % {"problem": p}
                               for p in report.problems)
            return f"{user.username}: {_ban_summary(report)}.{problems}"

        return with_reason(self, request, queryset.order_by("pk"), title=_("Ban users"),
                           verb=_("Ban"), run=ban,
                           done=ngettext_lazy("Banned %(count)s user.", "Banned %(count)s users.",
                                              "count"))

    @admin.action(description=gettext_lazy("Unban selected users…"), permissions=["ban"])
    def unban_users(self, request: HttpRequest,
                    queryset: QuerySet[User]) -> TemplateResponse | None:
        def unban(user: User, reason: str) -> None:
            if user.is_active:
                raise ServiceError(_("%(name)s is not banned.") % {"name": user.username},
                                   code="not_banned")
            moderation.moderate_unban(actor=request.user, user=user, reason=reason)

        return with_reason(self, request, queryset.order_by("pk"), title=_("Unban users"),
                           verb=_("Unban"), run=unban,
                           done=ngettext_lazy("Unbanned %(count)s user.",
                                              "Unbanned %(count)s users.", "count"))
