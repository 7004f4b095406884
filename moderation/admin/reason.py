"""The confirmation page every moderator action goes through: it asks for a reason.

A list action called without a `reason` in the POST answers with this page; the page
posts the same action and selection back with the reason, and the action runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Model
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bloqueio_site.errors import ServiceError
from moderation.models import REASON_MAX

TEMPLATE = "admin/moderation/reason.html"


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX, strip=True,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=gettext_lazy("Kept in the moderation log with the outcome."),
    )


def reason_page(modeladmin: admin.ModelAdmin, request: HttpRequest, *, title: str,
                form: forms.Form, objects: Iterable[Model], verb: str,
                action: str | None = None, extra: dict[str, Any] | None = None
                ) -> TemplateResponse:
    """Render the confirmation page (for a list action when `action` is given)."""
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title, "form": form, "objects": list(objects), "verb": verb,
        "action": action, "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "opts": opts, "app_label": opts.app_label, "media": modeladmin.media + form.media,
        **(extra or {}),
    }
    request.current_app = modeladmin.admin_site.name
    return TemplateResponse(request, TEMPLATE, context)


def with_reason(modeladmin: admin.ModelAdmin, request: HttpRequest, objects: Iterable[Model],
                *, title: str, verb: str, done: Promise, run: Callable[[Any, str], str | None],
                label: str | None = None) -> TemplateResponse | None:
    """Ask for a reason, then `run(obj, reason)` for each object.

    `run` returns a message for the object (or None) and raises ServiceError on a
    refusal, which is shown as a warning (the services have logged it already). `done`
    says how many were done: `ngettext_lazy("Banned %(count)s user.", ..., "count")`.
    """
    form = ReasonForm(request.POST if "reason" in request.POST else None)
    form.fields["reason"].label = label or _("Reason")
    if not form.is_valid():
        return reason_page(modeladmin, request, title=title, form=form, objects=objects,
                           verb=verb, action=request.POST.get("action", ""))
    reason = form.cleaned_data["reason"]
    objects = list(objects)
    count = 0
    for obj in objects:
        try:
            note = run(obj, reason)
        except ServiceError as exc:
            modeladmin.message_user(request, f"{obj}: {exc.detail}", messages.WARNING)
            continue
        count += 1
        if note:
            modeladmin.message_user(request, note)
    modeladmin.message_user(request, done % {"count": count})
    return None
