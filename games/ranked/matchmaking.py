"""Ranked matchmaking: a queue per kind and time control (the kind's live clock, or a
turn-based `{"days": N}`); a match forms when enough players of close rating wait in
the same queue, and the allowed rating spread widens with waiting time.

Expiry: an entry lives QUEUE_TTL after the last `GET /api/matchmaking/` (clients poll
every few seconds while they wait), so players who close the page drop out on their own.

Concurrency: `match` locks the kind's queue rows with SKIP LOCKED, so two matchers
(the worker, two requests) work on disjoint players; the entries of a formed group are
deleted in the transaction that creates the game, and LiveRankedSeat's unique user is
the last word: one player can never be booked into two live ranked games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bloqueio_site.jsontext import iso
from games import engine, services
from games.errors import HumansOnly, InRankedGame, InvalidRequest
from games.models import LiveRankedSeat, QueueEntry, Rating
from games.ranked import places, rating_model
from games.round import turn_based

QUEUE_TTL = timedelta(seconds=30)
BASE_SPREAD = 100  # rating points between the strongest and weakest of a group
SPREAD_PER_SECOND = 10  # ... plus this per second the group's newest member has waited


def spread(entry: QueueEntry, now: datetime) -> int:
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return int(BASE_SPREAD + SPREAD_PER_SECOND * waited)


@dataclass(frozen=True)
class Candidate:
    user_id: int
    skill: int
    joined_at: datetime
    allowed: int


def pick_groups(candidates: list[Candidate], size: int) -> list[list[Candidate]]:
    """Groups of `size`, longest waiters first, each the closest-rated window around
    its anchor whose rating range every member accepts (pure, for tests)."""
    free = sorted(candidates, key=lambda c: (c.skill, c.joined_at))
    groups = []
    for anchor in sorted(candidates, key=lambda c: c.joined_at):
        if anchor not in free or len(free) < size:
            continue
        at = free.index(anchor)
        best: list[Candidate] | None = None
        for start in range(max(0, at - size + 1), min(at, len(free) - size) + 1):
            window = free[start:start + size]
            width = window[-1].skill - window[0].skill
            if width <= min(c.allowed for c in window) and (
                    best is None or width < best[-1].skill - best[0].skill):
                best = window
        if best is not None:
            groups.append(best)
            free = [c for c in free if c not in best]
    return groups


def _time_control(days: int | None) -> dict[str, int] | None:
    """The game's time control for a queue: None (the kind's live clock) or `{days}`."""
    return None if days is None else {"days": days}


def queue_days(time_control: Any) -> int | None:
    """The queue a `time_control` asks for: None (the kind's live clock) or its days.
    Refuses a live `{initial, increment}`: ranked queues play the kind's own clock."""
    clean = services.validate_time_control(time_control)
    if clean is None:
        return None
    if not turn_based(clean):
        raise InvalidRequest(_("Ranked queues play the kind's own clock, or {days} per "
                               "move for a turn-based game."))
    return clean["days"]


def match(*, kind: str, days: int | None = None, now: datetime | None = None) -> list[int]:
    """Form every match the queue of `kind` (live, or `days` per move) allows now;
    returns the new game ids."""
    now = now or timezone.now()
    size = engine.get(kind).seats
    created = []
    with transaction.atomic():
        # SKIP LOCKED: entries another matcher holds are not ours to place this round.
        entries = list(QueueEntry.objects.select_for_update(skip_locked=True)
                       .filter(kind=kind, days=days, expires_at__gt=now)
                       .order_by("joined_at", "id"))
        if len(entries) < size:
            return []
        candidates = [Candidate(e.user_id, e.skill, e.joined_at, spread(e, now)) for e in entries]
        for group in pick_groups(candidates, size):
            ids = [c.user_id for c in sorted(group, key=lambda c: c.joined_at)]
            try:
                game = services.start_ranked_game(kind=kind, user_ids=ids, now=now,
                                                  time_control=_time_control(days))
            except InRankedGame:
                # Someone of them took a ranked seat elsewhere: they leave the queue.
                QueueEntry.objects.filter(
                    user_id__in=LiveRankedSeat.objects.filter(user_id__in=ids)
                    .values("user_id")).delete()
                continue
            created.append(game.pk)
    return created


def _skill(user_id: int, kind: str) -> int:
    mu = (Rating.objects.filter(user_id=user_id, kind=kind).values_list("mu", flat=True).first()
          or rating_model.MU)
    return rating_model.skill_points(mu)


def join_queue(*, user: AbstractBaseUser, kind: str, time_control: Any = None,
               now: datetime | None = None, address: str | None = None) -> dict[str, Any]:
    """Queue for `kind` with `time_control` (None: the kind's live clock; or a
    turn-based `{days}`), moving from any other queue, then try to match at once.
    `address`, the client's, is noted as a place the user plays from (places.py)."""
    now = now or timezone.now()
    try:
        engine.get(kind)
    except engine.UnknownKind:
        raise InvalidRequest(_("Unknown game kind %(kind)s.") % {"kind": repr(kind)},
                             code="unknown_kind") from None
    days = queue_days(time_control)
    if getattr(user, "bot_level", ""):
        raise HumansOnly(_("Ranked queues are for people."))
    with transaction.atomic():
        # Lock (or create) the user's entry first: a matcher placing this user commits
        # before we read LiveRankedSeat below, so we see its game.
        entry, created = QueueEntry.objects.select_for_update().get_or_create(
            user_id=user.pk, defaults={"kind": kind, "days": days,
                                       "skill": _skill(user.pk, kind),
                                       "joined_at": now, "expires_at": now + QUEUE_TTL})
        if LiveRankedSeat.objects.filter(user_id=user.pk).exists():
            raise InRankedGame(_("You are already playing a ranked game."))
        if not created:
            if (entry.kind, entry.days) != (kind, days):
                entry.kind, entry.days, entry.joined_at = kind, days, now
                entry.skill = _skill(user.pk, kind)
            entry.expires_at = now + QUEUE_TTL
            entry.save()
        places.note(user, address, now)
    match(kind=kind, days=days, now=now)
    return status(user=user, now=now)


def leave_queue(*, user: AbstractBaseUser) -> None:
    QueueEntry.objects.filter(user_id=user.pk).delete()


def poll(*, user: AbstractBaseUser, now: datetime | None = None) -> dict[str, Any]:
    """Keep the caller's entry alive, try to match, and say where they stand."""
    now = now or timezone.now()
    queue = (QueueEntry.objects.filter(user_id=user.pk, expires_at__gt=now)
             .values_list("kind", "days").first())
    if queue is not None:
        QueueEntry.objects.filter(user_id=user.pk).update(expires_at=now + QUEUE_TTL)
        match(kind=queue[0], days=queue[1], now=now)
    return status(user=user, now=now)


def status(*, user: AbstractBaseUser, now: datetime | None = None) -> dict[str, Any]:
    """{state: idle|queued|playing, ...}: `playing` carries the live ranked game's id
    (turn-based ranked games are not "playing": they keep nobody from queueing)."""
    now = now or timezone.now()
    live = LiveRankedSeat.objects.filter(user_id=user.pk).values_list("game_id", flat=True).first()
    if live is not None:
        return {"state": "playing", "game_id": live}
    entry = QueueEntry.objects.filter(user_id=user.pk, expires_at__gt=now).first()
    if entry is None:
        return {"state": "idle"}
    return {"state": "queued", "kind": entry.kind,
            "time_control": _time_control(entry.days), "rating": entry.skill,
            "joined_at": iso(entry.joined_at), "expires_at": iso(entry.expires_at),
            "spread": spread(entry, now)}


def tick(now: datetime | None = None) -> int:
    """The worker job: drop expired entries, then match every kind (spreads widen)."""
    now = now or timezone.now()
    QueueEntry.objects.filter(expires_at__lte=now).delete()
    queues = set(QueueEntry.objects.values_list("kind", "days").distinct())
    return sum(len(match(kind=kind, days=days, now=now))
               for kind, days in sorted(queues, key=lambda q: (q[0], q[1] or 0)))
