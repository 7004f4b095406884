"""Who sits where: the pure decision of a seat taken or given up before the start, and
of a leaver's seat handed to the computer during a casual live game.

The sibling of `play` for the table's seats (games/table.py writes what it decides):
`seat(table, change)` answers the table after the change, and whether that starts the
game (every seat taken) or ends it (no person left: bots alone never start a game), or
raises a typed refusal (games/round/refusals.py). What needs the database to be known
(an invitation, a private game's token, a ranked booking, the open-games cap, which bot
levels a kind offers, whether a leaver's sockets are closed and their grace is over) is
checked by the caller; everything about the seats is here.

>>> t = Table(seat_count=2, status=Status.WAITING, ranked=False,
...           holders=(Holder(7, bot=False), None))
>>> done = seat(t, Sit(user_id=9))
>>> done.seat, done.starts, done.table_after.holders[1]
(1, True, Holder(user_id=9, bot=False))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.round import refusals
from games.round.model import Status


@dataclass(frozen=True)
class Holder:
    """Who holds a seat: a person's or a bot account's id."""

    user_id: int
    bot: bool = False


@dataclass(frozen=True)
class Table:
    """A game's seats as the seating rules see them: one entry a seat, None if free."""

    seat_count: int
    status: Status
    ranked: bool
    holders: tuple[Holder | None, ...]
    in_game: tuple[bool, ...] = ()  # a running game's seats still playing (all: empty)
    turn_based: bool = False

    def playing(self, number: int) -> bool:
        return number >= len(self.in_game) or self.in_game[number]

    def seat_of(self, user_id: int) -> int | None:
        for number, holder in enumerate(self.holders):
            if holder is not None and holder.user_id == user_id and not holder.bot:
                return number
        return None


@dataclass(frozen=True)
class Sit:
    """`user_id` takes `seat` (the lowest free one if None). A bot (`bot`) is seated by
    `by`, a person at the table."""

    user_id: int
    seat: int | None = None
    bot: bool = False
    by: int | None = None


@dataclass(frozen=True)
class Stand:
    """`user_id` gives their seat up before the start."""

    user_id: int


@dataclass(frozen=True)
class Unseat:
    """`by`, a person at the table, takes the bot off `seat` before the start."""

    by: int
    seat: int


@dataclass(frozen=True)
class HandOver:
    """`by`, a player still in the running game, hands `seat` (a person's, who left) to
    the bot account `bot_id`."""

    by: int
    seat: int
    bot_id: int


Change = Sit | Stand | Unseat | HandOver


@dataclass(frozen=True)
class Seated:
    """What a change did: the table after it, the seat it took, freed or handed over,
    the word the sockets read ("joined", "left", "handover"), and whether the game now
    starts or is aborted."""

    table_after: Table
    seat: int
    change: str
    starts: bool = False
    aborts: bool = False


def seat(table: Table, change: Change) -> Seated:
    """Decide `change` at `table`; raises a `refusals.Refusal`, never changes `table`."""
    if isinstance(change, Stand):
        if table.status is not Status.WAITING:  # after the start, leaving is resigning
            raise refusals.AlreadyStarted(status=str(table.status), leaving=True)
        number = table.seat_of(change.user_id)
        if number is None:
            raise refusals.NotSeated(doing="leave")
        after = _with(table, number, None)
        people = any(h is not None and not h.bot for h in after.holders)
        return Seated(after, number, "left", aborts=not people)
    if isinstance(change, HandOver):
        return _hand_over(table, change)
    _require_waiting(table)
    if isinstance(change, Sit):
        return _sit(table, change)
    if table.seat_of(change.by) is None:
        raise refusals.NotSeated(doing="remove_bot")
    holder = table.holders[change.seat] if 0 <= change.seat < table.seat_count else None
    if holder is None or not holder.bot:
        raise refusals.NotABot(seat=change.seat)
    return Seated(_with(table, change.seat, None), change.seat, "left")


def _require_waiting(table: Table) -> None:
    if table.status in (Status.FINISHED, Status.ABORTED):
        raise refusals.GameOver(status=str(table.status))
    if table.status is not Status.WAITING:
        raise refusals.AlreadyStarted(status=str(table.status), leaving=False)


def _sit(table: Table, change: Sit) -> Seated:
    if change.bot:
        if table.ranked:
            raise refusals.HumansOnly()
        if change.by is None or table.seat_of(change.by) is None:
            raise refusals.NotSeated(doing="add_bot")
    elif table.seat_of(change.user_id) is not None:
        raise refusals.AlreadySeated()
    free = [n for n, holder in enumerate(table.holders) if holder is None]
    if not free:
        raise refusals.GameFull()
    number = change.seat
    if number is None:
        number = free[0]
    elif not 0 <= number < table.seat_count:
        raise refusals.NoSuchSeat(last=table.seat_count - 1)
    elif number not in free:
        raise refusals.SeatTaken(seat=number)
    after = _with(table, number, Holder(change.user_id, change.bot))
    return Seated(after, number, "joined", starts=len(free) == 1)


def _hand_over(table: Table, change: HandOver) -> Seated:
    number = change.seat
    if not 0 <= number < table.seat_count:
        raise refusals.NoSuchSeat(last=table.seat_count - 1)
    if table.ranked:
        raise refusals.HumansOnly(handover=True)
    mine = table.seat_of(change.by)
    if mine is None or not table.playing(mine):
        raise refusals.NotSeated(doing="hand_over")
    if table.status is Status.WAITING:
        raise refusals.NotStarted()
    if table.status is not Status.ACTIVE:
        raise refusals.GameOver(status=str(table.status))
    if table.turn_based:
        raise refusals.TurnBasedGame()
    if mine == number:
        raise refusals.OwnSeat()
    holder = table.holders[number]
    if holder is None:
        raise refusals.SeatFree(seat=number)
    if not table.playing(number):
        raise refusals.AlreadyLeft(seat=number)
    if holder.bot:
        raise refusals.AlreadyABot(seat=number)
    return Seated(_with(table, number, Holder(change.bot_id, bot=True)), number, "handover")


def _with(table: Table, number: int, holder: Holder | None) -> Table:
    holders = list(table.holders)
    holders[number] = holder
    return replace(table, holders=tuple(holders))
