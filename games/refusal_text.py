"""The round's refusals (games/round/refusals.py) as the services' errors, in words.

Each typed refusal maps to the ServiceError class with the same code (games/errors.py);
the sentence is written here, translatable, from the refusal's parameters.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import errors, texts
from games.round import refusals


def service_error(refusal: refusals.Refusal) -> errors.GameError:
    """The ServiceError a client gets for `refusal` (same code, a sentence for people)."""
    p = refusal.params
    if isinstance(refusal, refusals.NotStarted):
        return errors.NotStarted(_("The game has not started yet."))
    if isinstance(refusal, refusals.AlreadyOver):
        return errors.GameOver(_("The game is already %(status)s.") % _status(p))
    if isinstance(refusal, refusals.GameOver):
        return errors.GameOver(_("The game is %(status)s.") % _status(p))
    if isinstance(refusal, refusals.StalePly):
        return errors.StalePly(_("The game is at ply %(ply)s, not %(sent)s.") % p)
    if isinstance(refusal, refusals.NotYourTurn):
        return errors.NotYourTurn(_("It is seat %(seat)s's turn.") % p)
    if isinstance(refusal, refusals.PassNotSent):
        return errors.IllegalActionError(_("a pass is recorded by the server, never sent"))
    if isinstance(refusal, refusals.IllegalAction):
        # The engine's own words, in the reader's language (games.texts).
        return errors.IllegalActionError(texts.sentence(str(p["reason"])))
    if isinstance(refusal, refusals.AlreadyLeft):
        return errors.AlreadyLeft(_("Seat %(seat)s has already left the game.") % p)
    if isinstance(refusal, refusals.FlagFell):
        return errors.FlagFell(
            _("Seat %(seat)s ran out of time; the game is now at ply %(ply)s.") % p)
    if isinstance(refusal, refusals.AlreadyStarted):
        return errors.AlreadyStarted(_("The game has started: resign instead.")
                                     if p.get("leaving") else
                                     _("The game has already started."))
    if isinstance(refusal, refusals.AlreadySeated):
        return errors.AlreadySeated(_("You already have a seat in this game."))
    if isinstance(refusal, refusals.GameFull):
        return errors.GameFull(_("Every seat is taken."))
    if isinstance(refusal, refusals.NoSuchSeat):
        return errors.InvalidRequest(_("This game has seats 0 to %(last)s.") % p)
    if isinstance(refusal, refusals.SeatTaken):
        return errors.SeatTaken(_("Seat %(seat)s is taken.") % p)
    if isinstance(refusal, refusals.NotSeated):
        return errors.NotAPlayer(_NOT_SEATED[str(p["doing"])]())
    if isinstance(refusal, refusals.NotABot):
        return errors.NotABot(_("Seat %(seat)s is not a bot's.") % p)
    if isinstance(refusal, refusals.HumansOnly):
        return errors.HumansOnly(_("Ranked games are between people: a seat that left is "
                                   "played out by its clock.") if p.get("handover") else
                                 _("Ranked games are between people."))
    if isinstance(refusal, refusals.TurnBasedGame):
        return errors.TurnBasedGame(_("A turn-based game has no grace period: the move's "
                                      "deadline decides."))
    if isinstance(refusal, refusals.OwnSeat):
        return errors.OwnSeat(_("That is your own seat: resign to leave it."))
    if isinstance(refusal, refusals.SeatFree):
        return errors.InvalidRequest(_("Seat %(seat)s is not taken in this game.") % p)
    if isinstance(refusal, refusals.AlreadyABot):
        return errors.AlreadyABot(_("The computer already plays seat %(seat)s.") % p)
    raise TypeError(f"no words for {refusal!r}")  # a new refusal needs its sentence here


_NOT_SEATED = {
    "leave": lambda: _("You have no seat in this game."),
    "add_bot": lambda: _("Only a seated player can add a bot."),
    "remove_bot": lambda: _("Only a seated player can remove a bot."),
    "hand_over": lambda: _("Only a player still in the game can hand a seat to a bot."),
}


def _status(params: dict[str, object]) -> dict[str, object]:
    """The refusal's parameters with the game's status in words ("terminada", not
    "finished")."""
    return {**params, "status": texts.status(str(params["status"]))}
