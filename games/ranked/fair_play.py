"""Which seats of a finished ranked game are rated: the rules that keep rating farming out.

Issue #25: one person with throw-away accounts went from 1500 to 1900 in 18 games and
20 seconds (a ranked game, one move each, the throw-away resigns); issue #44: with two
moves each, and ten puppets that first made each other established, 2138 in 50 games.
Four rules (docs/ranked.md, "Rated play that cannot be farmed"):

- **too_short**: a seat that made fewer than MIN_ACTIONS actions of its own (server
  passes, resigning, timing out and removal are not its actions) is not rated, and
  nobody is rated against it. Fewer than two seats left: the game is not rated at all.
  (lichess aborts games with fewer than two moves each, unrated.)
- **same_address**: accounts that took ranked seats from one place (games/ranked/
  places.py: an IPv4 address or IPv6 /64, in the last RANKED_ADDRESS_DAYS) are not
  rated, and nobody is rated against them: a ring of accounts at one place, however it
  plays, moves no rating. Fewer than two seats left: the game is not rated.
- **repeated_pairing**: two accounts rated against each other in RANKED_PAIR_GAMES
  (default 5) games of the kind in the last 24 hours are not rated against each other
  again until that window moves on: the game is not rated.
- **newcomer**: an account with fewer than RANKED_NEWCOMER_GAMES (default 10) rated
  games of the kind is rated against everyone, but its results do not move the ratings
  of established players (they are rated among themselves only; one established seat
  alone is not rated, `newcomer_opponents`). Fresh accounts therefore cannot feed anyone
  points until each has played that many real games.

Reasons are per seat (null: rated) and go into the game's result (`rated`, `unrated`),
so the rule that applied is visible in the API.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

from bloqueio_site.env import env_int
from games.models import Event, Game, RatingChange, Seat
from games.ranked import places

MIN_ACTIONS = 2
PAIR_WINDOW = timedelta(hours=24)
# Events the server writes for a seat: not that seat's own play.
NOT_OWN = frozenset({"pass", "resign", "timeout", "removed"})

TOO_SHORT = "too_short"
SAME_ADDRESS = "same_address"
REPEATED_PAIRING = "repeated_pairing"
NEWCOMER_OPPONENTS = "newcomer_opponents"


def pair_games() -> int:
    """RANKED_PAIR_GAMES: rated games two accounts may play each other per 24 hours."""
    return env_int("RANKED_PAIR_GAMES", 5, minimum=1)


def newcomer_games() -> int:
    """RANKED_NEWCOMER_GAMES: rated games before an account's results move others."""
    return env_int("RANKED_NEWCOMER_GAMES", 10, minimum=0)


@dataclass(frozen=True)
class Table:
    """Who is rated against whom: `tables` are groups of seats rated together (each
    seat in exactly one table, which holds it and the seats its rating is measured
    against); `unrated` is the reason per seat, None for a rated seat."""

    tables: dict[int, list[Seat]]
    unrated: list[str | None]

    @property
    def rated(self) -> bool:
        return any(reason is None for reason in self.unrated)


def decide(*, game: Game, seats: list[Seat], played: dict[int, int], now: datetime) -> Table:
    """Apply the four rules to finished ranked `game`; `played` is each player's count
    of rated games of the kind (none: 0), read under the caller's lock of those rows."""
    unrated: list[str | None] = [None] * game.seat_count
    for seat in range(game.seat_count):
        if not any(s.seat == seat for s in seats):
            unrated[seat] = TOO_SHORT  # an empty seat (a game that started short)
    counted = long_enough(game, seats)
    for seat in seats:
        if seat not in counted:
            unrated[seat.seat] = TOO_SHORT
    if len(counted) < 2:
        return _none(unrated, counted, TOO_SHORT)
    together = places.linked(game, [s.user_id for s in counted], now)
    for seat in counted:
        if seat.user_id in together:
            unrated[seat.seat] = SAME_ADDRESS
    counted = [s for s in counted if s.user_id not in together]
    if len(counted) < 2:
        return _none(unrated, counted, SAME_ADDRESS)
    if _met_too_often(game, [s.user_id for s in counted], now):
        return _none(unrated, counted, REPEATED_PAIRING)
    threshold = newcomer_games()
    established = [s for s in counted if played.get(s.user_id, 0) >= threshold]
    tables: dict[int, list[Seat]] = {}
    for seat in counted:
        if seat in established and len(established) < len(counted):
            if len(established) < 2:
                unrated[seat.seat] = NEWCOMER_OPPONENTS
                continue
            tables[seat.seat] = established  # newcomers' results do not move them
        else:
            tables[seat.seat] = counted
    return Table(tables, unrated)


def long_enough(game: Game, seats: list[Seat]) -> list[Seat]:
    """The seats of `seats` that made MIN_ACTIONS actions of their own in `game`: the
    only ones a finished game may rate (ranked players and bots alike)."""
    actions = Counter(
        seat for seat, kind in Event.objects.filter(game=game)
        .values_list("seat", "action__type") if kind not in NOT_OWN)
    return [seat for seat in seats if actions[seat.seat] >= MIN_ACTIONS]


def _none(unrated: list[str | None], seats: list[Seat], reason: str) -> Table:
    for seat in seats:
        unrated[seat.seat] = unrated[seat.seat] or reason
    return Table({}, unrated)


def _met_too_often(game: Game, user_ids: list[int], now: datetime) -> bool:
    """Has any two of `user_ids` been rated against each other in `pair_games()` games
    of the kind within PAIR_WINDOW before `now`?"""
    recent = (RatingChange.objects.filter(kind=game.kind, user_id__in=user_ids,
                                          at__gt=now - PAIR_WINDOW)
              .exclude(game=game).values_list("game_id", "user_id"))
    players: dict[int, set[int]] = {}
    for game_id, user_id in recent:
        players.setdefault(game_id, set()).add(user_id)
    met = Counter(pair for together in players.values()
                  for pair in combinations(sorted(together), 2))
    limit = pair_games()
    return any(count >= limit for count in met.values())
