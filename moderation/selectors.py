"""Moderation reads shared by the API, the pages and the admin."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from moderation.models import Report


def reports_of(user: AbstractBaseUser) -> QuerySet[Report]:
    """A user's own reports, newest first."""
    return Report.objects.filter(reporter_id=user.pk).order_by("-created_at", "-id")


def report_json(report: Report) -> dict[str, Any]:
    """What a reporter sees of their report (not the moderators' note)."""
    return {
        "id": report.pk, "target_type": report.target_type, "target_id": report.target_id,
        "category": report.category, "reason": report.reason, "status": report.status,
        "created_at": _iso(report.created_at), "handled_at": _iso(report.handled_at),
    }


def _iso(moment: Any) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None
