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
