"""An Arena's life (docs/tournaments.md#arena): games paired as players come free, for
`minutes` from its start; the standings from the games that ended in time.

The pure core (tournaments/arena.py) pairs and scores; here are the rows. Every call
that changes an arena runs under its tournament's row lock (tournaments/services.py
takes it), so two workers never pair one player twice. Each game is started through
games' one door for seating (`games.services.start_table`), in the transaction that
records its `Pairing`.

The end: at `started_at + minutes` nobody is paired any more and the arena is finished
at once. A game still playing then goes on as an ordinary (rated) game but does not
count: only games that ended by the end time score (lichess's rule), so the final
standings are known the moment the arena ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from games import services
from games.errors import InvalidRequest
from games.models import Game, Rating
from games.models import Status as GameStatus
from games.round import turn_based
from tournaments import absences, arena, seating
from tournaments.models import GAME_ENDED, Entry, Pairing, Tournament

# How long an arena may last (minutes).
MINUTES = (5, 360)
# The rating the pairing assumes for a player without one in the kind.
UNRATED = 1500


def validate(*, kind: str, minutes: Any, time_control: dict[str, int]) -> int:
    """The arena's length, checked: for the two-seat kinds, with a live clock."""
    if seating.table_size(kind) != 2:
        raise InvalidRequest(_("An Arena is for the two-player games."),
                             code="arena_duels_only")
    if turn_based(time_control):
        raise InvalidRequest(_("An Arena is played with a live clock."),
                             code="arena_live_only")
    if type(minutes) is not int or not MINUTES[0] <= minutes <= MINUTES[1]:
        raise InvalidRequest(_("minutes must be a whole number from %(low)s to %(high)s.")
                             % {"low": MINUTES[0], "high": MINUTES[1]})
    return minutes


def ends_at(tournament: Tournament) -> datetime | None:
    if tournament.started_at is None or tournament.minutes is None:
        return None
    return tournament.started_at + timedelta(minutes=tournament.minutes)


def over(tournament: Tournament, now: datetime) -> bool:
    """A running arena's end time has come (the caller finishes it)."""
    end = ends_at(tournament)
    assert end is not None  # a running arena has started
    return now >= end


def advance(tournament: Tournament, now: datetime) -> bool:
    """Under the tournament's lock, while it runs and before its end: withdraw the
    players absent a second time, pair the players who are free. True if anything
    changed."""
    games = played(tournament)
    withdrawn = absences.withdraw_absent_in_arena(tournament, games, now)
    return bool(_pair_free(tournament, games, now) or withdrawn)


def _pair_free(tournament: Tournament, games: list[Pairing], now: datetime
               ) -> list[Pairing]:
    """Start a game for each pair `arena.pair` makes of the players who are in and free
    (not in a game of this arena that has not ended)."""
    entrants = list(Entry.objects.filter(tournament=tournament, withdrawn_at=None)
                    .values_list("user_id", "joined_at"))
    busy = {uid for p in games if p.game.status not in GAME_ENDED for uid in p.seats}
    free = [(uid, joined) for uid, joined in entrants if uid not in busy]
    if len(free) < 2:
        return []
    points = {uid: arena.score([g.outcome for g in sheet]).points
              for uid, sheet in _sheets(tournament, games).items()}
    rating = dict(Rating.objects.filter(kind=tournament.kind, user_id__in=[u for u, _ in free])
                  .values_list("user_id", "rating"))
    last: dict[int, Pairing] = {}
    for p in games:  # in the order they started: the last one stays
        for uid in p.seats:
            last[uid] = p
    waiting = []
    for uid, joined in free:
        since = max(joined, tournament.started_at or joined)
        previous = last.get(uid)
        opponent = None
        if previous is not None:
            opponent = next(u for u in previous.seats if u != uid)
            since = max(since, previous.game.finished_at or previous.started_at)
        waiting.append(arena.FreePlayer(
            id=uid, score=points.get(uid, 0), rating=float(rating.get(uid, UNRATED)),
            last_opponent=opponent, free_since=since.timestamp(),
            moved_first_last=previous is not None and previous.seats[0] == uid))
    made = []
    for first, second in arena.pair(waiting, now.timestamp()):
        game = services.start_table(kind=tournament.kind, holders=[first, second],
                                    ranked=tournament.ranked, bot_level="",
                                    time_control=tournament.time_control, now=now,
                                    absence_forfeits=True)
        made.append(Pairing.objects.create(tournament=tournament, game=game,
                                           seats=[first, second], started_at=now))
    return made


def played(tournament: Tournament) -> list[Pairing]:
    """The arena's games, in the order they started."""
    return list(Pairing.objects.filter(tournament=tournament).select_related("game")
                .order_by("started_at", "pk"))


@dataclass(frozen=True, slots=True)
class _Scored:
    pairing: Pairing
    outcome: arena.ArenaGame


def _counts(tournament: Tournament, game: Game) -> bool:
    """A game scores if it finished (an aborted game pays nobody) by the end time."""
    end = ends_at(tournament)
    return (game.status == GameStatus.FINISHED and game.finished_at is not None
            and (end is None or game.finished_at <= end))


def _sheets(tournament: Tournament, played: list[Pairing]) -> dict[int, list[_Scored]]:
    """Each player's scoring games from their side, in the order they ended."""
    done = sorted((p for p in played if _counts(tournament, p.game)),
                  key=lambda p: (p.game.finished_at, p.pk))
    sheets: dict[int, list[_Scored]] = {}
    for p in done:
        ranking = p.game.result["ranking"]
        for seat, uid in enumerate(p.seats):
            mine, theirs = ranking[seat], ranking[1 - seat]
            outcome = "win" if mine < theirs else "loss" if mine > theirs else "draw"
            sheets.setdefault(uid, []).append(_Scored(p, arena.ArenaGame(outcome)))
    return sheets


def detail(tournament: Tournament, name: Callable[[int], str | None]) -> dict[str, Any]:
    """An arena's `games` and `standings` as `GET /api/tournaments/{id}/` shows them."""
    games = played(tournament)
    sheets = _sheets(tournament, games)
    players = Entry.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    by_player = {uid: [s.outcome for s in sheets.get(uid, [])] for uid in players}
    lines = []
    for line in arena.standings(by_player):
        outcomes = by_player[line.player]
        sheet = arena.score(outcomes)
        streak = 0
        for game in reversed(outcomes):
            if game.outcome != "win":
                break
            streak += 1
        lines.append({
            "rank": line.rank, "username": name(line.player), "points": line.points,
            "tiebreak": line.wins, "wins": line.wins, "games": line.games,
            "streak": streak, "on_fire": line.on_fire,
            "sheet": [{"game_id": s.pairing.game_id, "outcome": s.outcome.outcome,
                       "points": points}
                      for s, points in zip(sheets.get(line.player, []), sheet.sheet,
                                           strict=True)],
        })
    return {
        "games": [{"game_id": p.game_id, "seats": [name(uid) for uid in p.seats],
                   "status": p.game.status, "counted": _counts(tournament, p.game),
                   "ranking": (p.game.result or {}).get("ranking")
                   if p.game.status == GameStatus.FINISHED else None}
                  for p in reversed(games)],
        "standings": lines,
    }
