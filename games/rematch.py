"""Rematch with the same table: after a game finished, any of its players offers to play
again; every person at the table is asked, bots accept at once, one "no" cancels it, and
when everyone said yes the new game starts: same kind and time control, casual and
private (a ranked game's rematch too: a rating game is found by matchmaking, never
chosen), each seat moved one place on (seat i plays seat i + 1).

One offer per game: `Rematch`'s primary key is the game, and every answer is written
under the finished game's row lock, so two players asking at once make one offer and
the last "yes" makes one game.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games import announce, outbox, privacy, round_store, services
from games.errors import GameNotFound, NotAPlayer, NotFinished, RematchClosed
from games.models import Game, Rematch, Seat, Status


def _people(seats: list[Seat]) -> list[int]:
    """The user ids of the table's people, in seat order, once each."""
    return list(dict.fromkeys(s.user_id for s in seats if not s.bot))


def state_of(rematch: Rematch, seats: list[Seat]) -> dict[str, Any]:
    """The `rematch` field of a finished game's JSON: who accepted, who declined, who
    has not answered, and the new game once made."""
    names = {s.user_id: s.user.username for s in seats}
    answers = {int(uid): yes for uid, yes in rematch.answers.items()}
    people = _people(seats)
    if rematch.new_game_id is not None:
        status = "started"
    elif False in answers.values():
        status = "declined"
    else:
        status = "pending"
    return {
        "status": status,
        "offered_by": names.get(rematch.offered_by_id),
        "accepted": [names[u] for u in people if answers.get(u) is True],
        "declined": [names[u] for u in people if answers.get(u) is False],
        "waiting": [names[u] for u in people if u not in answers],
        "game_id": rematch.new_game_id,
    }


def rematch_json(game: Game, seats: list[Seat] | None = None) -> dict[str, Any] | None:
    """A game's `rematch` field (None when nobody offered one)."""
    if game.status != Status.FINISHED:
        return None
    found = Rematch.objects.filter(game_id=game.pk).first()
    if found is None:
        return None
    return state_of(found, seats if seats is not None else list(game.seats.all()))


def still_asks(game_id: Any, user_id: int) -> bool:
    """Whether the rematch offered of `game_id` still asks `user_id` something: offered,
    neither started nor declined, and not yet answered by them. Its notice's e-mail is
    for such an offer only (notifications/kinds.py)."""
    found = Rematch.objects.filter(game_id=game_id, new_game__isnull=True).first() \
        if isinstance(game_id, int) else None
    return (found is not None and False not in found.answers.values()
            and str(user_id) not in found.answers)


def _locked(game_id: int, user: AbstractBaseUser) -> tuple[Game, list[Seat]]:
    found = round_store.lock_row(game_id)
    if found is None:
        raise privacy.not_found(game_id)
    game, seats = found
    if not any(s.user_id == user.pk and not s.bot for s in seats):
        privacy.hide_from_strangers(game, user, seats=seats)
        raise NotAPlayer(_("Only the game's players can ask for a rematch."))
    if game.status != Status.FINISHED:
        raise NotFinished(_("A rematch is offered once the game is finished."))
    return game, seats


def _closed(rematch: Rematch) -> None:
    if rematch.new_game_id is not None:
        raise RematchClosed(_("The rematch has started already."), code="rematch_started")
    if False in rematch.answers.values():
        raise RematchClosed(_("The rematch was declined."))


def offer(*, game_id: int, user: AbstractBaseUser) -> dict[str, Any]:
    """Offer a rematch of finished game `game_id`, or accept the one offered: the same
    call for both. Returns the game's `rematch` field after it."""
    with transaction.atomic():
        game, seats = _locked(game_id, user)
        rematch, created = Rematch.objects.get_or_create(
            game=game, defaults={"offered_by_id": user.pk, "answers": {}})
        if rematch.answers.get(str(user.pk)) is True:  # a retry: already said yes
            return state_of(rematch, seats)
        _closed(rematch)
        rematch.answers[str(user.pk)] = True
        people = _people(seats)
        if all(rematch.answers.get(str(uid)) is True for uid in people):
            rematch.new_game = _start(game, seats, rematch.offered_by_id)
        rematch.save()
        state = state_of(rematch, seats)
        event = ("rematch_started" if rematch.new_game_id is not None
                 else "rematch_offered" if created else "rematch_accepted")
        _tell(game, people, event, state)
        if created and rematch.new_game_id is None:
            others = [uid for uid in people if uid != user.pk]
            outbox.record(outbox.Effect(outbox.REMATCH_OFFERED, game.pk, {
                "by": user.get_username(), "user_ids": others, "kind": game.kind}))
    return state


def decline(*, game_id: int, user: AbstractBaseUser) -> dict[str, Any]:
    """Decline the rematch offered for `game_id`: it is cancelled for everyone."""
    with transaction.atomic():
        game, seats = _locked(game_id, user)
        rematch = Rematch.objects.filter(game=game).first()
        if rematch is None:
            raise GameNotFound(_("Nobody offered a rematch of this game."),
                               code="no_rematch")
        if rematch.answers.get(str(user.pk)) is False:
            return state_of(rematch, seats)
        _closed(rematch)
        rematch.answers[str(user.pk)] = False
        rematch.save(update_fields=["answers"])
        state = state_of(rematch, seats)
        _tell(game, _people(seats), "rematch_declined", state)
    return state


def _start(game: Game, seats: list[Seat], offered_by: int) -> Game:
    """The new game, seats rotated by one, started at once through the one start path
    (games.services.start_rematch), under the old game's lock, so it is made once."""
    return services.start_rematch(
        of=game, offered_by=offered_by,
        seats=[((s.seat + 1) % game.seat_count, s.user_id, s.bot) for s in seats])


def _tell(game: Game, people: list[int], event: str, state: dict[str, Any]) -> None:
    """After commit, tell the table's people (their `/ws/me/` sockets)."""
    announce.send_on_commit(announce.ToUsers(people, {
        "event": event, "game_id": game.pk, "rematch": state}))
