"""A Swiss's standings: placement points per table and tie-breaks from table-mates'
points (docs/tournaments.md#points).

A table of m players (bot seats left out) at a k-seat kind pays place p (1..m) the
points (k - 1)(m - p)/(m - 1): 3/2/1/0 at a full four-seat table, 3/1.5/0 for the three
players of a table with a bot seat, 1/0 in a duel. Players sharing a rank share the
points of the places they span (a drawn duel: 1/2 each). A bye pays (k - 1)/2, a full
table's mean. Arithmetic is exact (``Fraction``) so equal tie-breaks compare equal.

Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .seating import Player, Round, Table


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A round and, per table, the game's ranking (the engine's ``Result.ranking``:
    per seat, a competition rank from 1, bot seats included), None while it plays."""

    round: Round
    rankings: tuple[tuple[int, ...] | None, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; ``rank`` is shared by lines equal on every key."""

    rank: int
    player: Player
    points: Fraction
    buchholz: Fraction
    berger: Fraction
    wins: int
    games: int
    byes: int

    def to_json(self) -> dict[str, object]:
        return {"rank": self.rank, "player": self.player, "points": float(self.points),
                "tiebreak": float(self.buchholz), "berger": float(self.berger),
                "wins": self.wins, "games": self.games, "byes": self.byes}


def bye_points(seats: int) -> Fraction:
    """A bye pays a full table's mean placement points: 1.5 at four seats, 1/2 in a duel."""
    return Fraction(seats - 1, 2)


def table_points(table: Table, ranking: Sequence[int], seats: int) -> dict[Player, Fraction]:
    """Each player's placement points at a finished table (bot seats left out)."""
    if len(ranking) != len(table.seats):
        raise ValueError("a ranking has one rank per seat")
    ranks = {p: ranking[s] for s, p in enumerate(table.seats) if p is not None}
    m = len(ranks)
    if m < 2:
        raise ValueError("a table has at least two players")
    out = {}
    for p, rank in ranks.items():
        place = 1 + sum(1 for r in ranks.values() if r < rank)
        shared = sum(1 for r in ranks.values() if r == rank)
        spanned = [Fraction((seats - 1) * (m - q), m - 1) for q in range(place, place + shared)]
        out[p] = sum(spanned, Fraction(0)) / shared
    return out


@dataclass(slots=True)
class _Sheet:
    points: Fraction = Fraction(0)
    # per table played: every player's rank there (bots left out)
    tables: list[dict[Player, int]] = field(default_factory=list)
    byes: int = 0
    wins: int = 0


def standings(rounds: Sequence[RoundResult], seats: int,
              players: Iterable[Player] = ()) -> list[Standing]:
    """The standings after ``rounds`` (tables still playing count for nothing yet) of
    ``players`` and everyone seated: by points, then Buchholz, then Berger, then wins.

    Buchholz: per round played, the mean final points of the player's table-mates; per
    bye, the player's own final points (a virtual opponent who did as well). Berger: per
    table, the final points of the table-mates the player finished ahead of (half for a
    tie), over the number of mates: in a duel, the Sonneborn-Berger score.
    """
    sheets: dict[Player, _Sheet] = {p: _Sheet() for p in players}
    for done in rounds:
        if len(done.rankings) != len(done.round.tables):
            raise ValueError("a round has one ranking (or None) per table")
        for p in done.round.players():
            sheets.setdefault(p, _Sheet())
        for p in done.round.byes:
            sheets[p].points += bye_points(seats)
            sheets[p].byes += 1
        for table, ranking in zip(done.round.tables, done.rankings, strict=True):
            if ranking is None:
                continue
            paid = table_points(table, ranking, seats)
            ranks = {p: ranking[s] for s, p in enumerate(table.seats) if p is not None}
            best = min(ranks.values())
            for p, points in paid.items():
                sheets[p].points += points
                sheets[p].tables.append(ranks)
                sheets[p].wins += ranks[p] == best
    lines = []
    for p, sheet in sheets.items():
        buchholz = sheet.byes * sheet.points
        berger = Fraction(0)
        for ranks in sheet.tables:
            mates = [q for q in ranks if q != p]
            buchholz += sum((sheets[q].points for q in mates), Fraction(0)) / len(mates)
            beaten = Fraction(0)
            for q in mates:
                if ranks[p] < ranks[q]:
                    beaten += sheets[q].points
                elif ranks[p] == ranks[q]:
                    beaten += sheets[q].points / 2
            berger += beaten / len(mates)
        lines.append((p, sheet.points, buchholz, berger, sheet.wins, len(sheet.tables),
                      sheet.byes))
    lines.sort(key=lambda x: (-x[1], -x[2], -x[3], -x[4], str(x[0])))
    out: list[Standing] = []
    for i, (p, points, buchholz, berger, wins, games, byes) in enumerate(lines):
        rank = i + 1
        if out and (out[-1].points, out[-1].buchholz, out[-1].berger, out[-1].wins) == (
                points, buchholz, berger, wins):
            rank = out[-1].rank
        out.append(Standing(rank, p, points, buchholz, berger, wins, games, byes))
    return out
