"""Why `play` refused: typed, with a stable code and the facts as parameters.

No sentences here: the platform words them (games/refusal_text.py) in the reader's
language. `code` is the machine word clients already know (docs/api.md).
"""

from __future__ import annotations

from typing import Any, ClassVar


class Refusal(Exception):
    """Base of every refusal of `play`; `params` are the facts a message may quote."""

    code: ClassVar[str] = "refused"

    def __init__(self, **params: Any) -> None:
        super().__init__(self.code, params)
        self.params = params

    def __str__(self) -> str:
        return f"{self.code} {self.params}"


class NotStarted(Refusal):
    """The game is still waiting for players."""

    code = "not_started"


class GameOver(Refusal):
    """The game is finished or aborted (`status`)."""

    code = "game_over"


class AlreadyOver(GameOver):
    """An abort of a game that already ended (`status`)."""


class StalePly(Refusal):
    """The action was sent for ply `sent`; the game is at `ply`."""

    code = "stale_ply"


class NotYourTurn(Refusal):
    """Seat `seat` is to move (None: nobody)."""

    code = "not_your_turn"


class IllegalAction(Refusal):
    """The rules refuse the action; `reason` is the engine's own account of why."""

    code = "illegal_action"


class PassNotSent(IllegalAction):
    """A pass is the server's to record, never a client's to send."""


class AlreadyLeft(Refusal):
    """Seat `seat` left the game before."""

    code = "already_left"


class FlagFell(Refusal):
    """Seat `seat` ran out of time first; the game is now at `ply` (what that changed
    was recorded in the same progress)."""

    code = "flag_fell"


# -- seating (games/round/seating.py) -----------------------------------------------------

class AlreadyStarted(Refusal):
    """The game is no longer waiting for players (`status`); `leaving`: a seat given
    up, which after the start is a resignation."""

    code = "already_started"


class AlreadySeated(Refusal):
    """The person already holds a seat at this table."""

    code = "already_seated"


class GameFull(Refusal):
    """Every seat is taken."""

    code = "game_full"


class NoSuchSeat(Refusal):
    """The table has seats 0 to `last`."""

    code = "invalid"


class SeatTaken(Refusal):
    """Seat `seat` is someone's."""

    code = "seat_taken"


class NotSeated(Refusal):
    """Only a person at the table may do this (`doing`: "leave", "add_bot",
    "remove_bot", "hand_over": a person still in the running game)."""

    code = "not_a_player"


class NotABot(Refusal):
    """Seat `seat` is not a bot's."""

    code = "not_a_bot"


class HumansOnly(Refusal):
    """A ranked table seats people only (`handover`: a seat that left is played out by
    its clock)."""

    code = "ranked_humans_only"


# -- the hand-over of a leaver's seat (games/leavers.py) -----------------------------------

class TurnBasedGame(Refusal):
    """A turn-based game has no grace period: the move's deadline decides."""

    code = "turn_based_game"


class OwnSeat(Refusal):
    """The one asking holds that seat: resigning is how to leave it."""

    code = "own_seat"


class SeatFree(Refusal):
    """Seat `seat` is nobody's."""

    code = "invalid"


class AlreadyABot(Refusal):
    """The computer plays seat `seat` already."""

    code = "already_a_bot"
