"""Every write to tournaments: create, join, withdraw, start, and the advance from one
round to the next that the worker runs (tournaments/jobs.py). An Arena's own life (its
pairing as players come free, its end, its standings) is tournaments/arenas.py's: the
functions here dispatch to it by the tournament's system.

A tournament's row is locked (SELECT ... FOR UPDATE) by every change to it, so a join
and a round's start, or two workers advancing it, queue in the database. A round is
seated by the pure core (tournaments/seating.py) and each of its tables is a game
started through games' one door for seating (`games.services.start_table`), in the
transaction that records the round: a round is seated once, whatever crashes.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import engine, outbox, services
from games.errors import InvalidRequest
from games.models import Game, Rating
from games.models import Status as GameStatus
from games.round import default_time_control
from tournaments import absences, arenas, live, seating
from tournaments.errors import (
    NotOrganiser,
    RemovedByModerator,
    RoundPlaying,
    TooFewPlayers,
    TooManyTournaments,
    TournamentClosed,
    TournamentNotFound,
)
from tournaments.models import (
    GAME_ENDED,
    Entry,
    Round,
    State,
    System,
    Table,
    Tournament,
    Withdrawal,
)
from tournaments.standings import RoundResult, standings

ROUNDS = (1, 15)
# How far ahead a start may be set, and how many upcoming tournaments one player may
# have created (staff: no cap).
AHEAD = timedelta(days=30)
UPCOMING_PER_USER = 3
# The computer's level at a table of three people and a bot (docs/tournaments.md).
BOT_LEVEL = "medium"


def create(*, user: AbstractBaseUser, kind: str, rounds: int | None = None,
           time_control: dict[str, int] | None = None, starts_at: datetime | None = None,
           ranked: bool = True, system: str = System.SWISS, minutes: int | None = None,
           now: datetime | None = None) -> Tournament:
    """A new Swiss of `rounds` rounds at tables of the kind's size, or an Arena of
    `minutes` for a two-seat kind, upcoming until its creator starts it or `starts_at`
    comes. Nobody is entered, the creator included."""
    now = now or timezone.now()
    if kind not in engine.kinds():
        raise InvalidRequest(_("Unknown game kind %(kind)s.") % {"kind": repr(kind)},
                             code="unknown_kind")
    if system not in System.values:
        raise InvalidRequest(_("Unknown tournament system %(system)s.")
                             % {"system": repr(system)}, code="unknown_system")
    clean = services.validate_time_control(time_control) or default_time_control(kind)
    if system == System.ARENA:
        if rounds is not None:
            raise InvalidRequest(_("An Arena lasts minutes and has no rounds."),
                                 code="rounds_swiss_only")
        minutes = arenas.validate(kind=kind, minutes=minutes, time_control=clean)
    else:
        if minutes is not None:
            raise InvalidRequest(_("A Swiss plays rounds and has no length in minutes."),
                                 code="minutes_arena_only")
        if type(rounds) is not int or not ROUNDS[0] <= rounds <= ROUNDS[1]:
            raise InvalidRequest(_("rounds must be a whole number from %(low)s to %(high)s.")
                                 % {"low": ROUNDS[0], "high": ROUNDS[1]})
    if starts_at is not None and not now < starts_at <= now + AHEAD:
        raise InvalidRequest(_("starts_at must be in the next %(days)s days.")
                             % {"days": AHEAD.days})
    with transaction.atomic():
        if not getattr(user, "is_staff", False):
            # The creator's row, locked: two creates by one player count in turn.
            User.objects.select_for_update().filter(pk=user.pk).first()
            upcoming = Tournament.objects.filter(created_by=user.pk,
                                                 status=State.UPCOMING).count()
            if upcoming >= UPCOMING_PER_USER:
                raise TooManyTournaments(
                    _("You have %(count)s upcoming tournaments (at most %(cap)s): start or "
                      "wait for one of them first.") % {"count": upcoming,
                                                        "cap": UPCOMING_PER_USER})
        return Tournament.objects.create(kind=kind, system=system, round_count=rounds,
                                         minutes=minutes, time_control=clean,
                                         starts_at=starts_at, ranked=ranked,
                                         created_by_id=user.pk)


def _locked(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise TournamentNotFound(_("No tournament %(id)s.") % {"id": tournament_id})
    return found


def _closed(tournament: Tournament) -> TournamentClosed:
    """The refusal of what its status no longer allows, naming the status."""
    return TournamentClosed(_("The tournament is %(status)s.")
                            % {"status": tournament.get_status_display()})


def _open_for_entries(tournament: Tournament) -> None:
    """Entries change before the start and between rounds, never while one plays (an
    Arena's at any time: a player is paired only while in, and a game goes on)."""
    if tournament.status not in (State.UPCOMING, State.RUNNING):
        raise _closed(tournament)
    if tournament.system == System.ARENA:
        return
    if Round.objects.filter(tournament=tournament, finished_at=None).exists():
        raise RoundPlaying(_("A round is playing: entries change between rounds."))


def join(*, tournament_id: int, user: AbstractBaseUser) -> Tournament:
    """Enter the tournament (again, after a withdrawal of one's own or for absence, not
    after a moderator's): seated from the next round on."""
    if getattr(user, "bot_level", ""):
        raise InvalidRequest(_("Tournaments are for people."), code="bot_account")
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _open_for_entries(tournament)
        entry, created = Entry.objects.get_or_create(tournament=tournament, user_id=user.pk)
        back = not created and entry.withdrawn_at is not None
        if back:
            if entry.withdrawn_because == Withdrawal.REMOVED:
                raise RemovedByModerator(_("A moderator took you out of this tournament."))
            entry.withdrawn_at = None
            entry.withdrawn_because = ""
            update = ["withdrawn_at", "withdrawn_because"]
            if tournament.system == System.ARENA:  # free from now; absences counted afresh
                entry.joined_at = timezone.now()
                update.append("joined_at")
            entry.save(update_fields=update)
        if created or back:
            live.changed(tournament)
    return tournament


def withdraw(*, tournament_id: int, user: AbstractBaseUser) -> Tournament:
    """Leave the tournament before the start or between rounds: seated no more (the
    tables played still count, for everyone's standings)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _open_for_entries(tournament)
        updated = Entry.objects.filter(tournament=tournament, user_id=user.pk,
                                       withdrawn_at=None).update(
                                           withdrawn_at=timezone.now(),
                                           withdrawn_because=Withdrawal.WITHDREW)
        if not updated:
            raise InvalidRequest(_("You are not in this tournament."), code="not_entered")
        live.changed(tournament)
    return tournament


def start(*, tournament_id: int, user: AbstractBaseUser,
          now: datetime | None = None) -> Tournament:
    """Its creator (or staff) starts an upcoming tournament: round one is seated now."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.created_by_id != user.pk and not getattr(user, "is_staff", False):
            raise NotOrganiser(_("Only the tournament's creator can start it."))
        if tournament.status != State.UPCOMING:
            raise _closed(tournament)
        _start(tournament, now or timezone.now())
        live.changed(tournament)
    return tournament


def _start(tournament: Tournament, now: datetime) -> None:
    seats = seating.table_size(tournament.kind)
    players = Entry.objects.filter(tournament=tournament, withdrawn_at=None).count()
    if players < seats:
        raise TooFewPlayers(_("A table of this game has %(seats)s seats: %(seats)s players "
                              "at least, and %(players)s have entered.")
                            % {"seats": seats, "players": players})
    tournament.status = State.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    if tournament.system == System.ARENA:
        arenas.advance(tournament, now)
    else:
        _seat_next_round(tournament, now)


def cancel(*, tournament_id: int, because: str, now: datetime | None = None) -> Tournament:
    """End an upcoming or running tournament without standings (a moderator, or too few
    players at its start time). Its tables' games play on as ordinary games."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status in (State.FINISHED, State.CANCELLED):
            raise _closed(tournament)
        _end(tournament, State.CANCELLED, now or timezone.now(), because=because)
        Round.objects.filter(tournament=tournament, finished_at=None).update(
            finished_at=tournament.finished_at)
        live.changed(tournament)
    return tournament


def remove_player(*, tournament_id: int, user_id: int, now: datetime | None = None
                  ) -> Tournament:
    """A moderator takes a player out (withdrawn, at any time): not seated from the next
    round on; a game they play now goes on (a seat's removal is the game's moderation)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status in (State.FINISHED, State.CANCELLED):
            raise _closed(tournament)
        updated = Entry.objects.filter(tournament=tournament, user_id=user_id,
                                       withdrawn_at=None).update(
                                           withdrawn_at=now or timezone.now(),
                                           withdrawn_because=Withdrawal.REMOVED)
        if not updated:
            raise InvalidRequest(_("That player is not in this tournament."),
                                 code="not_entered")
        live.changed(tournament)
    return tournament


# -- rounds -------------------------------------------------------------------------------

def _history(tournament: Tournament) -> tuple[list[Round], list[seating.Round]]:
    rows = list(Round.objects.filter(tournament=tournament).prefetch_related("tables"))
    return rows, [seating.Round(tables=tuple(seating.Table(tuple(t.seats))
                                             for t in row.tables.all()),
                                byes=tuple(row.byes)) for row in rows]


def _seat_next_round(tournament: Tournament, now: datetime) -> Round:
    """Under the tournament's lock: seat and start the next round (every table a game
    where absence forfeits: tournaments/absences.py), each table's people told that it
    is ready through the outbox, in this transaction."""
    seats = seating.table_size(tournament.kind)
    rows, history = _history(tournament)
    entrants = list(Entry.objects.filter(tournament=tournament, withdrawn_at=None)
                    .order_by("user_id").values_list("user_id", flat=True))
    points = {line.player: float(line.points) for line in _lines(tournament, rows, history)}
    rating = dict(Rating.objects.filter(kind=tournament.kind, user_id__in=entrants)
                  .values_list("user_id", "rating"))
    number = len(rows) + 1
    seated = seating.seat_round(
        [seating.Entrant(uid, points.get(uid, 0.0), rating.get(uid, 0)) for uid in entrants],
        history, seats, seed=tournament.pk * 100 + number)
    row = Round.objects.create(tournament=tournament, number=number,
                               byes=list(seated.byes), started_at=now)
    ready = []
    for at, table in enumerate(seated.tables, 1):
        game = services.start_table(kind=tournament.kind, holders=list(table.seats),
                                    ranked=tournament.ranked, bot_level=BOT_LEVEL,
                                    time_control=tournament.time_control, now=now,
                                    absence_forfeits=True)
        Table.objects.create(round=row, number=at, game=game, seats=list(table.seats))
        ready.append(_table_ready(tournament, number, game, table.seats))
    outbox.record(*ready, now=now)
    return row


def _table_ready(tournament: Tournament, number: int, game: Game,
                 seats: tuple[int | None, ...]) -> outbox.Effect:
    """The "your table is ready" row: all its handler needs, in plain words
    (notifications/handlers.py; notifications does not read tournaments)."""
    return outbox.Effect(outbox.TABLE_READY, game.pk, {
        "user_ids": [uid for uid in seats if uid is not None], "kind": tournament.kind,
        "tournament": tournament.pk, "system": tournament.system, "round": number})


def round_pause() -> timedelta:
    """The pause between a round's last game and the next round's seating: entries
    change then (settings.TOURNAMENT_ROUND_PAUSE_SECONDS)."""
    return timedelta(seconds=float(settings.TOURNAMENT_ROUND_PAUSE_SECONDS))


def advance(*, tournament_id: int, now: datetime | None = None) -> bool:
    """The worker's step for one tournament: start it when its time has come; once
    every table of the playing round has ended, close the round (and the tournament
    after its last); once the pause after a round is over, seat the next. True if
    anything changed."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status == State.UPCOMING:
            if tournament.starts_at is None or tournament.starts_at > now:
                return False
            try:
                _start(tournament, now)
            except TooFewPlayers:
                _end(tournament, State.CANCELLED, now, because="too_few_players")
            live.changed(tournament)
            return True
        if tournament.status != State.RUNNING:
            return False
        if tournament.system == System.ARENA:
            if arenas.over(tournament, now):
                _end(tournament, State.FINISHED, now)
            elif not arenas.advance(tournament, now):
                return live.note_game_ends(tournament)  # a game's end moves the standings
            live.changed(tournament)
            return True
        last = Round.objects.filter(tournament=tournament).order_by("-number").first()
        assert last is not None  # a running tournament seated its first round
        if last.finished_at is None:
            tables = Table.objects.filter(round=last).values("game")
            if Game.objects.filter(pk__in=tables).exclude(status__in=GAME_ENDED).exists():
                return live.note_game_ends(tournament)  # a table's end moves the standings
            last.finished_at = now
            last.save(update_fields=["finished_at"])
            absences.withdraw_absent(tournament, last, now)
            if last.number >= tournament.round_count:
                _end(tournament, State.FINISHED, now)
            live.changed(tournament)
            return True
        if now < last.finished_at + round_pause():
            return False
        players = Entry.objects.filter(tournament=tournament, withdrawn_at=None).count()
        if players < seating.table_size(tournament.kind):
            _end(tournament, State.FINISHED, now)  # too few left to seat a table
        else:
            _seat_next_round(tournament, now)
        live.changed(tournament)
        return True


def _end(tournament: Tournament, status: State, now: datetime, because: str = "") -> None:
    tournament.status = status
    tournament.finished_at = now
    tournament.cancelled_because = because
    tournament.save(update_fields=["status", "finished_at", "cancelled_because"])


def advance_due(now: datetime | None = None) -> int:
    """Advance every running tournament and every upcoming one whose time has come."""
    now = now or timezone.now()
    due = list(Tournament.objects.filter(status=State.RUNNING).values_list("pk", flat=True))
    due += Tournament.objects.filter(status=State.UPCOMING, starts_at__lte=now
                                     ).values_list("pk", flat=True)
    return sum(advance(tournament_id=pk, now=now) for pk in due)


# -- reading ------------------------------------------------------------------------------

def _lines(tournament: Tournament, rows: list[Round], history: list[seating.Round]
           ) -> list[Any]:
    games = {t.game_id: t for row in rows for t in row.tables.all()}
    results = dict(Game.objects.filter(pk__in=list(games), status=GameStatus.FINISHED)
                   .values_list("pk", "result"))
    done = []
    for row, pure in zip(rows, history, strict=True):
        rankings = []
        for table in row.tables.all():
            result = results.get(table.game_id)
            rankings.append(tuple(result["ranking"]) if result else None)
        done.append(RoundResult(pure, tuple(rankings)))
    players = Entry.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    return standings(done, seating.table_size(tournament.kind), players)


def detail(tournament: Tournament) -> dict[str, Any]:
    """The tournament as `GET /api/tournaments/{id}/` shows it (docs/api.md)."""
    rows, history = _history(tournament)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("joined_at", "pk"))
    names = dict(User.objects.filter(pk__in=[e.user_id for e in entries])
                 .values_list("pk", "username"))

    def name(uid: int | None) -> str | None:
        return None if uid is None else names.get(uid)

    if tournament.system == System.ARENA:
        absent = absences.absences(arenas.played(tournament))
    else:
        absent = absences.absences(t for row in rows for t in row.tables.all())
    players = [{"username": names[e.user_id], "withdrawn": e.withdrawn_at is not None,
                "withdrawn_because": e.withdrawn_because or None,
                "absences": absent[e.user_id]}
               for e in entries]
    if tournament.system == System.ARENA:
        return {**summary(tournament), "players": players, "rounds": [],
                **arenas.detail(tournament, name)}
    lines = _lines(tournament, rows, history)
    return {
        **summary(tournament),
        "players": players,
        "rounds": [{"number": row.number, "finished": row.finished_at is not None,
                    "byes": [name(uid) for uid in row.byes],
                    "tables": [{"game_id": t.game_id, "seats": [name(uid) for uid in t.seats]}
                               for t in row.tables.all()]}
                   for row in rows],
        "standings": [{**line.to_json(), "username": name(line.player)} for line in lines],
        "games": [],
    }


def summary(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk, "kind": tournament.kind, "system": tournament.system,
        "status": tournament.status, "round_count": tournament.round_count,
        "minutes": tournament.minutes, "ends_at": arenas.ends_at(tournament),
        "time_control": tournament.time_control, "ranked": tournament.ranked,
        "starts_at": tournament.starts_at, "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
        "cancelled_because": tournament.cancelled_because or None,
        "v": tournament.v,
    }


def listing() -> dict[str, list[dict[str, Any]]]:
    """Upcoming (soonest first), running, and the 20 last finished or cancelled."""
    upcoming = Tournament.objects.filter(status=State.UPCOMING).order_by("starts_at", "pk")
    running = Tournament.objects.filter(status=State.RUNNING).order_by("-started_at")
    ended = Tournament.objects.filter(status__in=(State.FINISHED, State.CANCELLED)
                                      ).order_by("-finished_at")[:20]
    return {"upcoming": [summary(t) for t in upcoming],
            "running": [summary(t) for t in running],
            "finished": [summary(t) for t in ended]}


def get(tournament_id: int) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise TournamentNotFound(_("No tournament %(id)s.") % {"id": tournament_id})
    return found
