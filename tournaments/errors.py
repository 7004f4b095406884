"""The refusals of tournament services, each with its stable code and HTTP status."""

from __future__ import annotations

from bloqueio_site.errors import ServiceError


class TournamentNotFound(ServiceError):
    code = "not_found"
    status = 404


class TournamentClosed(ServiceError):
    """Joining, withdrawing or starting is not open now (`status` says why)."""

    code = "tournament_closed"
    status = 409


class RoundPlaying(ServiceError):
    """Entries change between rounds only: the round playing now seated who it seated."""

    code = "round_playing"
    status = 409


class NotOrganiser(ServiceError):
    code = "not_organiser"
    status = 403


class TooFewPlayers(ServiceError):
    code = "too_few_players"
    status = 409


class TooManyTournaments(ServiceError):
    code = "too_many_tournaments"
    status = 409


class RemovedByModerator(ServiceError):
    """A player a moderator took out does not join again."""

    code = "removed_by_moderator"
    status = 403
