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
them at once).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from games.selectors import absent_seats
from tournaments.models import Entry, Round, Table, Tournament, Withdrawal

ABSENCES_TO_WITHDRAW = 2


def absences(tables: Iterable[Table]) -> Counter[int]:
    """Each player's number of absences at these tables (players never absent: 0)."""
    by_game = {table.game_id: table for table in tables}
    found: Counter[int] = Counter()
    for game_id, seat in absent_seats(list(by_game)):
        user_id = by_game[game_id].seats[seat]
        if user_id is not None:  # a bot seat is never absent, but be sure
            found[user_id] += 1
    return found


def withdraw_absent(tournament: Tournament, closed: Round, now: datetime) -> list[int]:
    """Under the tournament's lock, as `closed` ends: withdraw the players still in who
    were absent in it and are absent ABSENCES_TO_WITHDRAW times in all. Returns their ids."""
    tables = list(Table.objects.filter(round__tournament=tournament))
    total = absences(tables)
    now_absent = absences(t for t in tables if t.round_id == closed.pk)
    out = sorted(uid for uid in now_absent if total[uid] >= ABSENCES_TO_WITHDRAW)
    if out:
        Entry.objects.filter(tournament=tournament, user_id__in=out, withdrawn_at=None
                             ).update(withdrawn_at=now, withdrawn_because=Withdrawal.ABSENT)
    return out
