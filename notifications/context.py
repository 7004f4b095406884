"""The unread count for the header's badge, counted only when a page shows it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from notifications.selectors import unread_count


def unread(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"notifications_unread": SimpleLazyObject(lambda: unread_count(user.pk))}
