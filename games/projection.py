"""Re-deriving a game's projection (state, ply, result, status) from its events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from games import engine
from games.announce import announce_on_commit
from games.models import Game, RatingChange, Seat, Status
from games.selectors import engine_events


@dataclass
class Drift:
    """What the stored projection says versus what the events say."""

    game_id: int
    fields: dict[str, tuple[Any, Any]]  # field -> (stored, derived)


def derive(game: Game) -> dict[str, Any]:
    """The projection fields as the event log defines them."""
    rules = engine.get(game.kind)
    state = rules.replay(engine_events(game.pk))
    derived: dict[str, Any] = {"ply": state.ply, "state": state.to_json()}
    if game.status == Status.ABORTED:
        return derived  # an abort is a moderation decision, not an event: keep its result
    result = rules.result(state)
    derived["result"] = None if result is None else result.to_json()
    if result is not None and game.ranked and game.annulled_at is None:
        # The rating changes the game made are facts of their own (RatingChange rows).
        changes = dict(RatingChange.objects.filter(game=game).values_list(
            "seat", F("rating_after") - F("rating_before")))
        if changes:
            derived["result"]["rating_changes"] = [changes.get(s)
                                                   for s in range(game.seat_count)]
    if result is not None and game.ranked and game.result:
        # Whether it was rated was decided at the finish, from a history that has moved
        # on since (games/ranked/fair_play.py): kept as recorded.
        for key in ("rated", "unrated"):
            if key in game.result:
                derived["result"][key] = game.result[key]
    if result is not None:
        derived["status"] = Status.FINISHED
    elif game.status == Status.FINISHED:
        derived["status"] = Status.ACTIVE
    return derived


def check(game: Game) -> Drift | None:
    derived = derive(game)
    diff = {
        name: (getattr(game, name), value)
        for name, value in derived.items()
        if getattr(game, name) != value
    }
    return Drift(game.pk, diff) if diff else None


def repair(game_id: int) -> Drift | None:
    """Rewrite one game's projection from its events, under the game's row lock."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        drift = check(game)
        if drift is not None:
            for name, (_, value) in drift.fields.items():
                setattr(game, name, value)
            # One version on: a process that holds the game as it was (its snapshot)
            # loses its next write's guard and reads the repaired row.
            game.version += 1
            game.save(update_fields=[*drift.fields, "version"])
            # Announced like every change (no audit reads versions on a timer any more:
            # games/live/writers.py): the sockets of the game show the repaired one.
            announce_on_commit(game, list(Seat.objects.filter(game=game)), [], "repaired")
    return drift
