"""The values of a round: the round itself, what may be done to it, and its progress."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from games import engine
from games.round.clock import Clock, started
from games.round.refusals import Refusal


class Status(StrEnum):
    """The same words as the game row's status."""

    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class SeatStatus(StrEnum):
    """Where a seat stands: still playing, or how it left (resign, timeout, removal)."""

    PLAYING = "playing"
    RESIGNED = "resigned"
    FLAGGED = "flagged"
    REMOVED = "removed"

    @property
    def left(self) -> bool:
        return self is not SeatStatus.PLAYING


LEFT_BY = {"resign": SeatStatus.RESIGNED, "timeout": SeatStatus.FLAGGED,
           "removed": SeatStatus.REMOVED}


@dataclass(frozen=True, slots=True)
class Round:
    """A game as its rules of play see it: the engine state (whose `ply` is the game's),
    the seats, the clock, the status and, once over, the result."""

    kind: str
    state: Any  # the engine's GameState
    status: Status
    seats: tuple[SeatStatus, ...]
    clock: Clock | None = None
    result: engine.Result | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def ply(self) -> int:
        return int(self.state.ply)

    @property
    def deadline(self) -> datetime | None:
        """When the seat to move flags; None when no clock runs."""
        if self.clock is None or self.status is not Status.ACTIVE:
            return None
        turn = self.state.turn
        return None if turn is None else self.clock.deadline(turn)

    def overdue(self, now: datetime) -> bool:
        """The seat to move's deadline has passed at `now` (a flag, if it was watched)."""
        deadline = self.deadline
        return deadline is not None and now >= deadline


def waiting(kind: str) -> Round:
    """A game still waiting for players: the initial position, nothing running."""
    rules = engine.get(kind)
    return Round(kind, rules.initial(), Status.WAITING, (SeatStatus.PLAYING,) * rules.seats)


def start(kind: str, time_control: dict[str, int] | None, now: datetime, *,
          private: bool = False, absence_forfeits: bool = False) -> Round:
    """A round starting at `now`, its clock running if it has a time control (`private`:
    the table was chosen; `absence_forfeits`: a seat that never moves loses on time
    rather than aborting the game; games/round/clock.py)."""
    rules = engine.get(kind)
    clock = None if time_control is None else started(
        rules.seats, time_control, now, private=private, absence_forfeits=absence_forfeits)
    return Round(kind, rules.initial(), Status.ACTIVE, (SeatStatus.PLAYING,) * rules.seats,
                 clock=clock, started_at=now)


# -- what may be done to a round ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """A seat's own action (untrusted JSON), sent for the game's ply `ply`."""

    action: object
    ply: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The seat leaves: "resign" (its own choice), "removed" (a moderator) or "timeout"."""

    why: str = "resign"


@dataclass(frozen=True, slots=True)
class Flag:
    """The clock's check: the seat to move flags if its time is up (and was watched)."""


@dataclass(frozen=True, slots=True)
class Abort:
    """End a waiting or running game with no result (moderation, abandonment)."""


@dataclass(frozen=True, slots=True)
class Resume:
    """The clock worker is back after nobody watched since `since` (its last beat):
    the running turn gets that time back."""

    since: datetime | None


Action = Act | Leave | Flag | Abort | Resume


# -- what came of it --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundEvent:
    """One entry of the game's history (docs/api.md's event), as `play` recorded it."""

    ply: int
    seat: int
    action: dict[str, Any]
    at: datetime

    def as_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "action": self.action,
                "at": self.at.isoformat().replace("+00:00", "Z")}


@dataclass(frozen=True, slots=True)
class Progress:
    """What one call of `play` did: the events to append (maybe none: an abort, time
    given back), the round after them, and the result if the round ended here.

    `refused` is set when something else happened first and the caller's own action
    was not applied (a flag fell): the progress is still to be written, then refused.
    """

    events: tuple[RoundEvent, ...]
    round_after: Round
    result: engine.Result | None = None
    refused: Refusal | None = None

    @property
    def ranking(self) -> tuple[int, ...] | None:
        """The ratings' input: each seat's place (1 = first, competition style), or
        None while the round goes on or when it was aborted (nobody placed)."""
        if self.result is None or self.round_after.status is not Status.FINISHED:
            return None
        return self.result.ranking
