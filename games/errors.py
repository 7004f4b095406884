"""The refusals of game services, each with its stable code and HTTP status."""

from __future__ import annotations

from bloqueio_site.errors import ServiceError


class GameError(ServiceError):
    """Base of every game refusal."""


class InvalidRequest(GameError):
    code = "invalid"
    status = 400


class IllegalActionError(GameError):
    code = "illegal_action"
    status = 400


class NotAPlayer(GameError):
    code = "not_a_player"
    status = 403


class NotYourTurn(GameError):
    code = "not_your_turn"
    status = 403


class GameNotFound(GameError):
    code = "not_found"
    status = 404


class StalePly(GameError):
    code = "stale_ply"
    status = 409


class GameFull(GameError):
    code = "game_full"
    status = 409


class SeatTaken(GameError):
    code = "seat_taken"
    status = 409


class AlreadyStarted(GameError):
    code = "already_started"
    status = 409


class AlreadySeated(GameError):
    code = "already_seated"
    status = 409


class NotStarted(GameError):
    code = "not_started"
    status = 409


class GameOver(GameError):
    code = "game_over"
    status = 409


class AlreadyLeft(GameError):
    code = "already_left"
    status = 409


class NotRanked(GameError):
    code = "not_rated"
    status = 409


class FlagFell(GameError):
    """The seat to move ran out of time; the timeout (or abort) was recorded instead."""

    code = "flag_fell"
    status = 409


class InRankedGame(GameError):
    code = "in_ranked_game"
    status = 409


class TooManyOpenGames(GameError):
    """The creator already has OPEN_GAMES_PER_USER games waiting for players."""

    code = "too_many_open_games"
    status = 409



class HumansOnly(GameError):
    """Ranked play is between people: no bot seats, no bots in queues."""

    code = "ranked_humans_only"
    status = 409


class NotABot(GameError):
    code = "not_a_bot"
    status = 409


class UnknownUser(GameError):
    code = "unknown_user"
    status = 404


class CannotInvite(GameError):
    """Inviting yourself, a bot, or someone who declined this game's invitation; the
    code says which (`cannot_invite_self`, `cannot_invite_bot`, `invitation_declined`)."""

    code = "cannot_invite"
    status = 400


class TooManyInvitations(GameError):
    """The game has INVITATIONS_PER_GAME invitations by name already."""

    code = "too_many_invitations"
    status = 409


class InvitationClosed(GameError):
    """Answering an invitation that is no longer pending."""

    code = "invitation_closed"
    status = 409


class NotFinished(GameError):
    """A rematch is offered after a game finished."""

    code = "not_finished"
    status = 409


class RematchClosed(GameError):
    """Answering a rematch offer someone declined (`rematch_declined`) or that already
    made its game (`rematch_started`)."""

    code = "rematch_declined"
    status = 409


class TurnBasedGame(GameError):
    """A turn-based game's seat is not handed over: the move's deadline decides."""

    code = "turn_based_game"
    status = 409


class OwnSeat(GameError):
    code = "own_seat"
    status = 409


class AlreadyABot(GameError):
    code = "already_a_bot"
    status = 409
