"""The refusals of moderation services, each with its stable code and HTTP status."""

from __future__ import annotations

from bloqueio_site.errors import ServiceError


class ReasonRequired(ServiceError):
    code = "reason_required"
    status = 400


class NotAModerator(ServiceError):
    """The actor lacks the permission for this moderator action."""

    code = "forbidden"
    status = 403


class StaffProtected(ServiceError):
    """A moderator who is not a superuser acted on staff (or their messages, seats,
    games or reports): moderators stay off staff; a superuser may."""

    code = "staff_protected"
    status = 403


class OwnGame(ServiceError):
    """A moderator (a superuser too) acted on a game they sit or sat in, or banned
    someone they are playing against: the action would decide their own result."""

    code = "own_game"
    status = 403


class InvalidReport(ServiceError):
    code = "invalid"
    status = 400


class CannotReportSelf(ServiceError):
    code = "cannot_report_self"
    status = 400


class TargetNotFound(ServiceError):
    code = "not_found"
    status = 404


class AlreadyReported(ServiceError):
    code = "already_reported"
    status = 409


class ReportClosed(ServiceError):
    code = "report_closed"
    status = 409


class RateLimited(ServiceError):
    code = "rate_limited"
    status = 429
