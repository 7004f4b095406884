"""An Arena for the two-seat kinds: pairing the players who are free, and lichess-like
scoring with streaks (docs/tournaments.md#arena).

Pure: no Django, no I/O. The caller says who is free now and when each became free;
the games and the clock are the integration's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .seating import Player

# A rating gap of this many points weighs as much as one point of arena score.
RATING_PER_POINT = 100.0
# Two players who just played each other are paired again only once both have waited
# this long (seconds) with nobody else free for them.
REMATCH_AFTER = 30.0

Outcome = Literal["win", "draw", "loss"]


@dataclass(frozen=True, slots=True)
class FreePlayer:
    """A player waiting for a game: arena score, rating, last opponent, free since
    (seconds on any clock the caller keeps), and whether they moved first last game."""

    id: Player
    score: int
    rating: float
    last_opponent: Player | None = None
    free_since: float = 0.0
    moved_first_last: bool = False


def pair(free: Sequence[FreePlayer], now: float, *,
         rematch_after: float = REMATCH_AFTER) -> list[tuple[Player, Player]]:
    """Pairs of the free players, each (moves first, moves second).

    The longest-waiting player first takes the nearest free player, by arena score and
    then rating (``RATING_PER_POINT``), never the last opponent (either's) unless both
    have waited ``rematch_after`` seconds; and so on down the queue. A player left over
    waits for the next call. Who moves first: the one who moved second last game, else
    the one who waited longer.
    """
    ids = [p.id for p in free]
    if len(set(ids)) != len(ids):
        raise ValueError("a free player is listed twice")
    queue = sorted(free, key=lambda p: (p.free_since, str(p.id)))
    taken: set[Player] = set()
    pairs = []
    for p in queue:
        if p.id in taken:
            continue
        best: tuple[float, float, str, FreePlayer] | None = None
        for q in queue:
            if q.id == p.id or q.id in taken:
                continue
            if _rematch(p, q) and not (now - p.free_since >= rematch_after
                                       and now - q.free_since >= rematch_after):
                continue
            cost = abs(p.score - q.score) + abs(p.rating - q.rating) / RATING_PER_POINT
            key = (cost, q.free_since, str(q.id), q)
            if best is None or key[:3] < best[:3]:
                best = key
        if best is None:
            continue
        q = best[3]
        taken.update((p.id, q.id))
        first, second = (q, p) if p.moved_first_last and not q.moved_first_last else (p, q)
        pairs.append((first.id, second.id))
    return pairs


def _rematch(p: FreePlayer, q: FreePlayer) -> bool:
    return p.last_opponent == q.id or q.last_opponent == p.id


@dataclass(frozen=True, slots=True)
class ArenaGame:
    """One finished arena game from a player's side; ``berserk``: they halved their clock
    (the integration passes it only when the berserk counts, e.g. enough moves)."""

    outcome: Outcome
    berserk: bool = False


@dataclass(frozen=True, slots=True)
class ArenaSheet:
    """A player's arena score: the total, each game's points, and whether the next
    game counts double (``on_fire``)."""

    points: int
    sheet: tuple[int, ...]
    on_fire: bool
    wins: int


BASE = {"win": 2, "draw": 1, "loss": 0}


def score(games: Sequence[ArenaGame]) -> ArenaSheet:
    """Lichess's arena scoring: win 2, draw 1, loss 0; after two wins in a row a player
    is on fire and every game's points double until a game is not a win; a berserk win
    earns one point more (not doubled)."""
    streak = wins = 0
    sheet = []
    for game in games:
        if game.outcome not in BASE:
            raise ValueError(f"unknown outcome {game.outcome!r}")
        points = BASE[game.outcome] * (2 if streak >= 2 else 1)
        if game.outcome == "win":
            points += game.berserk
            streak += 1
            wins += 1
        else:
            streak = 0
        sheet.append(points)
    return ArenaSheet(sum(sheet), tuple(sheet), streak >= 2, wins)


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    rank: int
    player: Player
    points: int
    wins: int
    games: int
    on_fire: bool


def standings(games: Mapping[Player, Sequence[ArenaGame]]) -> list[ArenaStanding]:
    """The live standings: by points, then wins; equal lines share a rank."""
    lines = []
    for p, played in games.items():
        sheet = score(played)
        lines.append((p, sheet.points, sheet.wins, len(played), sheet.on_fire))
    lines.sort(key=lambda x: (-x[1], -x[2], str(x[0])))
    out: list[ArenaStanding] = []
    for i, (p, points, wins, count, on_fire) in enumerate(lines):
        rank = i + 1
        if out and (out[-1].points, out[-1].wins) == (points, wins):
            rank = out[-1].rank
        out.append(ArenaStanding(rank, p, points, wins, count, on_fire))
    return out
