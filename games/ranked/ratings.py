"""Rating writes: apply a ranked game's result, and revert a game's effect (its
annulment, written and announced by games/table.py).

Both run inside the caller's transaction; `apply_result` is called by round_store.commit
in the very transaction that finishes the game, so a result and its rating changes
commit together or not at all. Rating rows are locked in user-id order (no deadlocks
between two games finishing with overlapping players).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from games.errors import NotRanked
from games.models import Game, Rating, RatingChange, Seat, Status
from games.ranked import fair_play, rating_model


def _locked_ratings(user_ids: Iterable[int], kind: str) -> dict[int, Rating]:
    ids = sorted(set(user_ids))
    fresh = rating_model.Skill()
    Rating.objects.bulk_create(
        [Rating(user_id=uid, kind=kind, mu=fresh.mu, sigma=fresh.sigma,
                rating=rating_model.display(fresh.mu, fresh.sigma)) for uid in ids],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(kind=kind, user_id__in=ids).order_by("user_id")
    return {r.user_id: r for r in rows}


def _set(row: Rating, skill: rating_model.Skill) -> None:
    row.mu, row.sigma = skill.mu, skill.sigma
    row.rating = rating_model.display(skill.mu, skill.sigma)
    row.provisional = rating_model.provisional(row.games, skill.sigma)


_FIELDS = ["mu", "sigma", "games", "rating", "provisional", "last_played_at"]


def _record(
    game: Game, rows: dict[int, Rating],
    rated: list[tuple[Seat, rating_model.Skill, rating_model.Skill]], ranking: list[int],
    now: datetime,
) -> list[RatingChange]:
    """Write each rated seat's new rating (locked `rows`) and its RatingChange."""
    changes = []
    for seat, old, new in rated:
        row = rows[seat.user_id]
        rating_before = row.rating
        row.games += 1
        row.last_played_at = now
        _set(row, new)
        changes.append(RatingChange(
            game=game, user_id=seat.user_id, kind=game.kind, seat=seat.seat,
            rank=ranking[seat.seat], mu_before=old.mu, sigma_before=old.sigma,
            mu_after=new.mu, sigma_after=new.sigma, rating_before=rating_before,
            rating_after=row.rating, at=now,
        ))
    Rating.objects.bulk_update([rows[seat.user_id] for seat, _, _ in rated], _FIELDS)
    RatingChange.objects.bulk_create(changes)
    return changes


def apply_result(
    *, game: Game, seats: list[Seat], ranking: list[int], now: datetime
) -> dict[str, Any]:
    """Rate a finished ranked game from its final ranking (one rank per seat), as far as
    the fair-play rules allow (`fair_play.decide`: too short, repeated pairing,
    newcomers). Returns what the game's result adds: `rated`, `unrated` (a reason per
    seat, None where rated) and, when any seat was rated, `rating_changes` (each seat's
    change of displayed rating, None where not rated)."""
    by_seat = sorted(seats, key=lambda s: s.seat)
    # The players' rating rows that exist are locked (user-id order) before their past
    # games are counted: two games finishing at once with the same players count in
    # turn. Rows are made only for seats that get rated.
    played = dict(Rating.objects.select_for_update()
                  .filter(kind=game.kind, user_id__in=[s.user_id for s in by_seat])
                  .order_by("user_id").values_list("user_id", "games"))
    table = fair_play.decide(game=game, seats=by_seat, played=played, now=now)
    fields: dict[str, Any] = {"rated": table.rated, "unrated": table.unrated}
    if not table.rated:
        return fields
    rows = _locked_ratings([s.user_id for group in table.tables.values() for s in group],
                           game.kind)

    def skill(seat: Seat) -> rating_model.Skill:
        return rating_model.Skill(rows[seat.user_id].mu, rows[seat.user_id].sigma)

    outcomes: dict[tuple[int, ...], list[rating_model.Skill]] = {}
    rated = []
    for seat in by_seat:
        group = table.tables.get(seat.seat)
        if group is None:
            continue
        key = tuple(s.seat for s in group)
        if key not in outcomes:
            outcomes[key] = rating_model.rate([skill(s) for s in group],
                                              [ranking[s.seat] for s in group])
        rated.append((seat, skill(seat), outcomes[key][key.index(seat.seat)]))
    changes = _record(game, rows, rated, ranking, now)
    deltas: list[int | None] = [None] * game.seat_count
    for change in changes:
        deltas[change.seat] = change.rating_after - change.rating_before
    fields["rating_changes"] = deltas
    return fields


def rate_bots(*, game: Game, seats: list[Seat], ranking: list[int], now: datetime) -> None:
    """A finished casual game with bots and people: rate the bots only.

    Each bot level's rating per kind says how it fares against the people it meets:
    the people count at their current rating (a fresh one if they have none) and are
    not changed (casual games are unrated for people); a bot account on several seats
    is rated once, at its best place; games between bots alone rate nobody, and a bot
    that took over a leaver's seat is not rated for that game. As in ranked play
    (`fair_play.long_enough`), only seats that made MIN_ACTIONS actions of their own count:
    a person who resigns before moving twice rates no bot (issue #44: fourteen
    resignations at ply 0 took the easy bot from 952 to 1792).
    """
    played = fair_play.long_enough(game, seats)
    people = [s for s in played if not s.bot]
    if not people:
        return
    best: dict[int, Seat] = {}
    for seat in played:
        if getattr(seat, "replaced_name", None):
            continue  # took a leaver's seat mid-game (games/leavers.py): not its own game
        if seat.bot and (seat.user_id not in best
                         or ranking[seat.seat] < ranking[best[seat.user_id].seat]):
            best[seat.user_id] = seat
    if not best:
        return
    known = {r.user_id: r for r in Rating.objects.filter(
        kind=game.kind, user_id__in=[s.user_id for s in people])}
    fresh = rating_model.Skill()
    rows = _locked_ratings(best, game.kind)
    entrants = [*people, *best.values()]
    before = [rating_model.Skill(known[s.user_id].mu, known[s.user_id].sigma)
              if s.user_id in known else fresh for s in people]
    before += [rating_model.Skill(rows[uid].mu, rows[uid].sigma) for uid in best]
    after = rating_model.rate(before, [ranking[s.seat] for s in entrants])
    _record(game, rows, list(zip(entrants[len(people):], before[len(people):],
                                 after[len(people):], strict=True)), ranking, now)


ANNULLED = "annulled"


def require_annullable(game: Game) -> None:
    """Refuse to annul anything but a finished, rated, not yet annulled ranked game."""
    if (not game.ranked or game.status != Status.FINISHED or game.annulled_at is not None
            or (game.result or {}).get("rated") is False):
        raise NotRanked(_("Only a finished, rated, not yet annulled game can be annulled."))


def annulled_result(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """A game's result once annulled: the same outcome, the rating changes it showed
    gone, unrated (`annulled`) wherever it was rated."""
    if not result:
        return result
    annulled = {k: v for k, v in result.items() if k != "rating_changes"}
    if "rated" in annulled:
        annulled["rated"] = False
        annulled["unrated"] = [reason or ANNULLED for reason in annulled["unrated"]]
    return annulled


def revert(game: Game) -> None:
    """In the annulment's transaction (games.table.annul_game): undo the game's rating
    changes.

    Its players' ratings are recomputed as if it never happened: from their values
    before it, replaying their later games of the kind in order with the opponents'
    recorded pre-game values held fixed (opponents are not touched). The game's history
    rows go.
    """
    own = list(RatingChange.objects.filter(game=game))
    if not own:
        return
    rows = _locked_ratings([c.user_id for c in own], game.kind)
    current = {c.user_id: rating_model.Skill(c.mu_before, c.sigma_before) for c in own}
    played = {c.user_id: rows[c.user_id].games - 1 for c in own}
    first = own[0]
    later_ids = list(
        RatingChange.objects.filter(kind=game.kind, user_id__in=current)
        .filter(Q(at__gt=first.at) | Q(at=first.at, game_id__gt=game.pk))
        .order_by("at", "game_id").values_list("game_id", flat=True).distinct()
    )
    later = {}
    for change in RatingChange.objects.filter(game_id__in=later_ids).order_by("seat"):
        later.setdefault(change.game_id, []).append(change)
    updated: list[RatingChange] = []
    for gid in sorted(later, key=lambda g: (later[g][0].at, g)):
        table = later[gid]
        skills = [current.get(c.user_id, rating_model.Skill(c.mu_before, c.sigma_before))
                  for c in table]
        new = rating_model.rate(skills, [c.rank for c in table])
        for change, old, skill in zip(table, skills, new, strict=True):
            if change.user_id not in current:
                continue
            change.mu_before, change.sigma_before = old.mu, old.sigma
            change.mu_after, change.sigma_after = skill.mu, skill.sigma
            change.rating_before = rating_model.display(old.mu, old.sigma)
            change.rating_after = rating_model.display(skill.mu, skill.sigma)
            current[change.user_id] = skill
            updated.append(change)
    RatingChange.objects.bulk_update(updated, [
        "mu_before", "sigma_before", "mu_after", "sigma_after",
        "rating_before", "rating_after"])
    for uid, row in rows.items():
        row.games = played[uid]
        _set(row, current[uid])
    Rating.objects.bulk_update(list(rows.values()), _FIELDS)
    RatingChange.objects.filter(game=game).delete()
