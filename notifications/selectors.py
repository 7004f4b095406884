"""Reading notifications: the list (unread first, newest first) and the unread count."""

from __future__ import annotations

from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, Q

from notifications.kinds import sentence
from notifications.models import Notification


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def notification_json(note: Notification) -> dict[str, Any]:
    return {
        "id": note.pk, "kind": note.kind, "game_id": note.game_id, "data": note.data,
        "created_at": note.created_at.isoformat().replace("+00:00", "Z"),
        "read": note.read_at is not None,
    }


def listing(user_id: int, *, unread_only: bool = False, limit: int = 50) -> dict[str, Any]:
    """The user's latest notifications, unread first, then newest first, each with its
    sentence in the current language."""
    rows = Notification.objects.filter(user_id=user_id)
    if unread_only:
        rows = rows.filter(read_at__isnull=True)
    unread = ExpressionWrapper(Q(read_at__isnull=True), output_field=BooleanField())
    rows = rows.order_by(unread.desc(), "-created_at", "-pk")
    return {"unread": unread_count(user_id),
            "results": [{**notification_json(n), "text": sentence(n, n.kind)}
                        for n in rows[:limit]]}
