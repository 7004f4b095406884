"""The absence rule (docs/tournaments.md, "Absence"): a player who never came to their
table loses it by the clock, and is withdrawn after a second absence.

Losing is the game's doing: every table is started with `absence_forfeits`
(games/round/clock.py), so a seat whose first move never comes runs out of time like
any other, the others play on, and the game's ranking places it last among those who
left then. Here is what the tournament makes of it: an absence is a table where the
player's seat ran out of time without ever having moved; when a round closes, a player
still in who was absent in it and has ABSENCES_TO_WITHDRAW absences in all is withdrawn
(`withdrawn_because: "absent"`), as a withdrawal between rounds: their tables count,
they are not seated again (unless they join again, and then a next absence withdraws
them at once). An Arena's games start the same way; its player is withdrawn at the
worker's first step after their second absence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol, TypeVar

from games.selectors import absent_seats
from tournaments.models import Entry, Pairing, Round, Table, Tournament, Withdrawal

ABSENCES_TO_WITHDRAW = 2


class _Seated(Protocol):
    """A tournament's game and who sat where: a Swiss's `Table`, an Arena's `Pairing`."""

    game_id: int
    seats: list[int | None]


_SeatedT = TypeVar("_SeatedT", bound=_Seated)


def _absent(tables: Iterable[_SeatedT]) -> list[tuple[_SeatedT, int]]:
    """(table, user id) of each absence at these tables or games."""
    by_game = {table.game_id: table for table in tables}
    found = []
    for game_id, seat in absent_seats(list(by_game)):
        user_id = by_game[game_id].seats[seat]
        if user_id is not None:  # a bot seat is never absent, but be sure
            found.append((by_game[game_id], user_id))
    return found


def absences(tables: Iterable[_Seated]) -> Counter[int]:
    """Each player's number of absences at these tables or games (never absent: 0)."""
    return Counter(user_id for _, user_id in _absent(tables))


def _withdraw(tournament: Tournament, user_ids: list[int], now: datetime) -> list[int]:
    if user_ids:
        Entry.objects.filter(tournament=tournament, user_id__in=user_ids, withdrawn_at=None
                             ).update(withdrawn_at=now, withdrawn_because=Withdrawal.ABSENT)
    return user_ids


def withdraw_absent(tournament: Tournament, closed: Round, now: datetime) -> list[int]:
    """Under the tournament's lock, as `closed` ends: withdraw the players still in who
    were absent in it and are absent ABSENCES_TO_WITHDRAW times in all. Returns their ids."""
    tables = list(Table.objects.filter(round__tournament=tournament))
    total = absences(tables)
    now_absent = absences(t for t in tables if t.round_id == closed.pk)
    return _withdraw(tournament, sorted(uid for uid in now_absent
                                        if total[uid] >= ABSENCES_TO_WITHDRAW), now)


def withdraw_absent_in_arena(tournament: Tournament, games: Sequence[Pairing],
                             now: datetime) -> list[int]:
    """Under the arena's lock, before it pairs: withdraw the players still in who are
    absent ABSENCES_TO_WITHDRAW times in its `games` since they (last) joined (an Arena
    has no rounds: the second absence withdraws at once, so nobody is paired to wait
    for them again; one who joins again starts afresh). Returns their ids."""
    joined = dict(Entry.objects.filter(tournament=tournament, withdrawn_at=None)
                  .values_list("user_id", "joined_at"))
    total = Counter(uid for game, uid in _absent(games)
                    if uid in joined and game.started_at >= joined[uid])
    return _withdraw(tournament, sorted(uid for uid, count in total.items()
                                        if count >= ABSENCES_TO_WITHDRAW), now)
