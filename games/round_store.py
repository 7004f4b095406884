"""Rounds in and out of the database: load, then write a progress in ONE guarded commit.

`load` takes a running game's round from this process's snapshot (games/state_cache.py)
or from its row. `commit` writes what `play` made of it: on PostgreSQL one statement
(one round trip) updates the row only if its `version` is still the one the round was
computed from, adding one to it, and appends the events only if that update matched; a
game's last progress adds its ratings in the same transaction. What the change causes
outside the game (a turn-based game's "your turn") is an outbox row written by the same
statement or transaction (games/outbox.py). The events are announced after commit, with
the new version (`v`). A guard that fails means another writer came first: nothing was
written, the caller reloads.
The event log's unique (game, ply) and append-only trigger hold whatever happens.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from bloqueio_site import jsontext, loop_db, model_rows
from bloqueio_site.postgres.base import outcome_unknown
from games import engine, outbox, state_cache
from games.announce import announce_committed, announce_on_commit
from games.engine import LEAVE_REASONS
from games.errors import GameNotFound
from games.live import writers
from games.models import Event, Game, LiveRankedSeat, Seat
from games.ranked import ratings
from games.round import Progress, Round, RoundEvent, SeatStatus, Status, waiting
from games.round import start as start_round
from games.round.clock import restored as restored_clock
from games.round.model import LEFT_BY
from games.selectors import seats_of


@dataclass(frozen=True)
class Loaded:
    """A game as read for a write: its row (its `version` is the guard), seats and
    round, and the stored state's JSON text. `cached`: from this process's snapshot,
    which the database has not confirmed (a refusal is decided again from the row)."""

    game: Game
    seats: list[Seat]
    round: Round
    state_text: str
    cached: bool = False


@dataclass(frozen=True)
class Written:
    """A committed progress: the row after it, the game's JSON as announced and the
    events appended."""

    game: Game
    seats: list[Seat]
    payload: dict[str, Any]
    events: Sequence[RoundEvent] = ()


# -- reading ------------------------------------------------------------------------------

# Fixed SQL, read without a RawQuerySet (bloqueio_site/model_rows.py): the ORM's per-call
# work cost more CPU than the database's.
_GAMES = model_rows.ModelRows(Game)
_SELECT_SQL = f"SELECT {_GAMES.columns('g')} FROM {Game._meta.db_table} g WHERE g.id = %s"


def lock_row(game_id: int, *, skip_locked: bool = False) -> tuple[Game, list[Seat]] | None:
    """The game row, locked until commit, with its seats; None if there is no such game
    (or, with `skip_locked`, if another transaction holds it).

    Two statements, not one: a statement that waited for the row's lock sees the row as
    the other transaction committed it, but everything else (a subquery of the seats
    too) as it was when the statement began, so a join that waited for another join
    would read the seats without the one just taken (tests/faults/test_burst.py)."""
    found = _row(game_id, lock=True, skip_locked=skip_locked)
    return None if found is None else (found, seats_of(found))


def _row(game_id: int, *, lock: bool, skip_locked: bool) -> Game | None:
    sql = _SELECT_SQL
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE SKIP LOCKED" if skip_locked else " FOR UPDATE"
    return model_rows.first(_GAMES, sql, [game_id])


def kept(game_id: int, ply: int | None = None) -> Loaded | None:
    """This process's snapshot of the game (at `ply`, if given), as loaded for a write;
    None if none is kept. No database access (the event loop's writes use it alone)."""
    found = state_cache.get(game_id, ply)
    if found is None:
        return None
    return Loaded(found.game, found.seats, found.round, found.state_text, cached=True)


def load(game_id: int, *, ply: int | None = None, lock: bool = False,
         skip_locked: bool = False) -> Loaded | None:
    """The game as it stands: this process's snapshot (at `ply`, if given) unless
    `lock`, else the row (locked until commit with `lock`). Raises GameNotFound; returns
    None only with `skip_locked`, when another transaction holds the row."""
    if not lock:
        found = kept(game_id, ply)
        if found is not None:
            return found
    game = _row(game_id, lock=lock, skip_locked=skip_locked)
    if game is None:
        if skip_locked:
            return None
        raise GameNotFound(_("No game %(id)s.") % {"id": game_id})
    seats = state_cache.seats(game)
    if seats is None:
        seats = seats_of(game)
    loaded = Loaded(game, seats, round_of(game), jsontext.dumps(game.state))
    state_cache.loaded(state_cache.Snapshot(game, seats, loaded.round, loaded.state_text))
    return loaded


def held(game: Game, seats: list[Seat]) -> Loaded:
    """A row the caller read under its lock (seating), ready for a write."""
    return Loaded(game, seats, round_of(game), jsontext.dumps(game.state))


def round_of(game: Game) -> Round:
    """The round a game row holds (its events' projection, as written by `commit`)."""
    rules = engine.get(game.kind)
    status = Status(game.status)
    if status is Status.WAITING:
        return waiting(game.kind)
    state = rules.state_from_json(game.state)
    clock = None
    if game.clock is not None and game.turn_started_at is not None:
        clock = restored_clock(game.time_control, game.clock, game.turn_started_at,
                               private=game.private, absence_forfeits=game.absence_forfeits)
    result = None
    if game.result is not None:
        stored = game.result
        scores = stored.get("scores")
        result = engine.Result(stored["winner"], tuple(stored["ranking"]), stored["reason"],
                               None if scores is None else tuple(scores))
    return Round(game.kind, state, status, _seat_statuses(game, state), clock, result,
                 game.started_at, game.finished_at)


def _seat_statuses(game: Game, state: Any) -> tuple[SeatStatus, ...]:
    """Who is still playing, and how the others left (their leaving events say)."""
    if all(state.in_game):
        return (SeatStatus.PLAYING,) * len(state.in_game)
    left = {seat: LEFT_BY[action["type"]] for seat, action in Event.objects.filter(
        game_id=game.pk, action__type__in=LEAVE_REASONS).values_list("seat", "action")}
    return tuple(SeatStatus.PLAYING if playing else left.get(seat, SeatStatus.RESIGNED)
                 for seat, playing in enumerate(state.in_game))


# -- writing ------------------------------------------------------------------------------

_SET = ("ply = %s, state = %s{json}, status = %s, result = %s{json}, clock = %s{json}, "
        "turn_started_at = %s, deadline = %s, started_at = %s, finished_at = %s, "
        "version = %s")
# ONE integer compare: the row is still at the version the round was computed from.
# Every writer of a game's row adds one to it in the statement that writes (a progress
# here; a seat taken, left or handed to a bot: `changed`; an annulment; `rebuild_games`'
# repair of the position), and a new game's first version is its creation time (ids
# can be reused after a restore: games/models.py), so a matching version means the row
# is the one the round was computed from: same ply, status, clock, position and seat
# holders. Under READ COMMITTED a concurrent writer's UPDATE waits for the row and
# re-checks the WHERE on the committed row, so two writers of one version cannot both
# match.
_GUARD = "id = %s AND version = %s"
_EVENT_COLUMNS = "(game_id, ply, seat, action, at)"
# PostgreSQL: the update and the insert in ONE statement. The events are inserted only
# if the update matched.
_PG_UPDATE = (f"WITH moved AS (UPDATE {Game._meta.db_table} SET "
              + _SET.format(json="::jsonb") + f" WHERE {_GUARD}")
_PG_SKIP_LOCKED = (f" AND id = (SELECT id FROM {Game._meta.db_table} WHERE id = %s "
                   "FOR UPDATE SKIP LOCKED)")
_PG_INSERT = (f", added AS (INSERT INTO {Event._meta.db_table} {_EVENT_COLUMNS} "
              "SELECT moved.id, e.ply, e.seat, e.action::jsonb, e.at FROM moved, "
              "(VALUES {rows}) AS e(ply, seat, action, at))")
_PG_ROW = "(%s::integer, %s::smallint, %s::text, %s::timestamptz)"
_PG_COUNT = " SELECT count(*) FROM moved"
# Elsewhere (SQLite, `make run`'s default): the same guard, then the insert, in one
# transaction.
_OTHER_UPDATE = (f"UPDATE {Game._meta.db_table} SET " + _SET.format(json="") + " WHERE "
                 + _GUARD)
_OTHER_INSERT = f"INSERT INTO {Event._meta.db_table} {_EVENT_COLUMNS} VALUES "


@dataclass(frozen=True)
class Write:
    """A decided progress, ready to be written: the row it makes (one version on), what
    it announces (`change`) and causes outside the game (`effects`). `ended`: it
    finishes or aborts the game. `rated`: it ends a ranked game or one with the
    computer, so the ratings commit with it (a transaction of several statements, not
    the one statement)."""

    loaded: Loaded
    progress: Progress
    game: Game
    state_text: str
    change: str
    effects: tuple[outbox.Effect, ...]
    ended: bool
    rated: bool


def prepared(loaded: Loaded, progress: Progress, change: str | None = None) -> Write:
    """What writing `progress` (computed from `loaded`) means, decided before any I/O:
    the change announced is `change`, or what the progress says ("events", "finished",
    "aborted"; "clock" for time given back alone: a version announced, so no socket sees
    a gap at the next change)."""
    after = progress.round_after
    game, state_text = projected(loaded, after)
    ended = after.status is not loaded.round.status and after.status in (Status.FINISHED,
                                                                         Status.ABORTED)
    if change is None and ended:
        change = "finished" if after.status is Status.FINISHED else "aborted"
    elif change is None:
        change = "events" if progress.events else "clock"
    effects = tuple(outbox.of_change(game, loaded.seats, after, change, progress.events))
    rated = ended and (game.ranked or any(s.bot for s in loaded.seats))
    return Write(loaded, progress, game, state_text, change, effects, ended, rated)


def commit(loaded: Loaded, progress: Progress, *, change: str | None = None,
           skip_locked: bool = False) -> Written | None:
    """Write `progress` (computed from `loaded`) if the row is still as loaded; None if
    it moved on (nothing written; the snapshot is forgotten). On this thread's Django
    connection: inside the caller's transaction, if any.

    After commit the change is announced (`prepared` says which) and the round kept for
    this process's next write. `skip_locked` (PostgreSQL): a row another transaction
    holds counts as moved on, instead of being waited for.
    """
    write = prepared(loaded, progress, change)
    game, effects = write.game, write.effects
    writers.ensure()  # a lease before the write it may have to answer for
    if connection.vendor == "postgresql" and not write.rated:
        try:
            matched = _write(loaded, game, write.state_text, progress.events, skip_locked,
                             effects)
        except (OperationalError, InterfaceError) as exc:
            if not connection.in_atomic_block and outcome_unknown(exc):
                # One statement in autocommit, broken under way: it may have committed,
                # unannounced (inside a transaction, the COMMIT says: postgres/base.py).
                writers.lost()
            raise
        if matched and effects:
            outbox.after_commit()
    else:
        with transaction.atomic(savepoint=False):
            matched = _write(loaded, game, write.state_text, progress.events, skip_locked)
            if matched and write.ended:
                _after_the_end(game, loaded.seats, progress.round_after)
            if matched:
                outbox.record(*effects)  # and carried out after commit, if in process
    if not matched:
        state_cache.stale(game.pk)
        return None
    return _done(write, on_commit=True)


async def commit_on_loop(write: Write) -> Written | None:
    """The same write made by the event loop on one of its own connections
    (bloqueio_site/loop_db.py), PostgreSQL only, for a write that is one statement (not
    `rated`); None if the row moved on. Raises `loop_db.Unusable` or `loop_db.Busy`
    (nothing sent), or OperationalError: the statement was sent and failed, so it may
    have committed or not (the snapshot is forgotten; the caller tells its client to
    read the game)."""
    assert not write.rated
    statement = guarded_statement(write.loaded, write.game, write.state_text,
                                  write.progress.events, effects=write.effects)
    async with loop_db.connection() as conn:
        try:
            cursor = await conn.execute(*statement)
            row = await cursor.fetchone()
        except psycopg.Error as exc:
            state_cache.stale(write.game.pk)
            if outcome_unknown(exc):  # it may have committed, unannounced
                writers.lost()  # every hub catches up when its lease ends
            raise OperationalError(f"the write's statement failed: {exc!r}") from exc
    if not row or not row[0]:
        state_cache.stale(write.game.pk)
        return None
    return _done(write, on_commit=False)


def _done(write: Write, *, on_commit: bool) -> Written:
    """After the write matched: keep the round for this process's next write (forget an
    ended game) and announce the change, after the caller's commit (`on_commit`) or at
    once (the event loop's own write, committed already)."""
    game, after = write.game, write.progress.round_after
    seats = write.loaded.seats
    if write.rated and after.status is Status.FINISHED:
        seats = seats_of(game)  # fresh: the final frame shows the new ratings
    snapshot = state_cache.Snapshot(game, seats, after, write.state_text)
    if on_commit:
        state_cache.committed(snapshot)
        payload = announce_on_commit(game, seats, write.progress.events, write.change)
    else:
        state_cache.written(snapshot)
        if write.effects:
            outbox.carry_out_here()
        payload = announce_committed(game, seats, write.progress.events, write.change)
    return Written(game, seats, payload, write.progress.events)


def projected(loaded: Loaded, after: Round) -> tuple[Game, str]:
    """The row `loaded` becomes with `after` on it (a copy, one version on) and its
    state's JSON text."""
    game = copy.copy(loaded.game)
    _set_fields(game, after)
    game.version = loaded.game.version + 1
    return game, jsontext.dumps(game.state)


def _set_fields(game: Game, round_: Round) -> None:
    """Put `round_` on the row's fields (the projection of its events)."""
    game.ply = round_.ply
    game.state = round_.state.to_json()
    game.status = str(round_.status)
    if round_.result is None:
        game.result = None
    elif game.result is None:  # a result once written stays (with the ratings' additions)
        game.result = round_.result.to_json()
    clock = round_.clock
    game.clock = None if clock is None else clock.to_json()
    game.turn_started_at = None if clock is None else clock.turn_started_at
    game.deadline = round_.deadline
    game.started_at = round_.started_at
    game.finished_at = round_.finished_at


def _write(loaded: Loaded, game: Game, state_text: str, events: Sequence[RoundEvent],
           skip_locked: bool, effects: Sequence[outbox.Effect] = ()) -> bool:
    """The guarded update (and the events' insert, and on PostgreSQL the `effects`'
    outbox rows): True if the row matched."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(*guarded_statement(loaded, game, state_text, events,
                                              skip_locked=skip_locked, effects=effects))
            return bool(cursor.fetchone()[0])
        params, rows = _values(loaded, game, state_text, events)
        cursor.execute(_OTHER_UPDATE, params)
        if cursor.rowcount != 1:
            return False
        if rows:
            cursor.execute(_OTHER_INSERT + ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows)),
                           [v for r in rows for v in (loaded.game.pk, *r)])
        return True


def _values(loaded: Loaded, game: Game, state_text: str, events: Sequence[RoundEvent]
            ) -> tuple[list[Any], list[tuple[Any, ...]]]:
    """The guarded update's parameters (the row after, then the row as loaded) and the
    events' rows."""
    # Not `connection.ops`: on the event loop, that made each socket a wrapper.
    as_json, as_time = jsontext.dumps, model_rows.database().ops.adapt_datetimefield_value
    row = loaded.game
    params: list[Any] = [
        game.ply, state_text, game.status,
        None if game.result is None else as_json(game.result),
        None if game.clock is None else as_json(game.clock),
        as_time(game.turn_started_at), as_time(game.deadline), as_time(game.started_at),
        as_time(game.finished_at), game.version,
        row.pk, row.version,
    ]
    rows = [(event.ply, event.seat, as_json(event.action), as_time(event.at))
            for event in events]
    return params, rows


def guarded_statement(loaded: Loaded, game: Game, state_text: str,
                      events: Sequence[RoundEvent], *, skip_locked: bool = False,
                      effects: Sequence[outbox.Effect] = ()) -> tuple[str, list[Any]]:
    """PostgreSQL's one statement for a progress and its parameters: it answers one row,
    the count of game rows it updated (1: written; 0: the row moved on, nothing written).
    The `effects` (games/outbox.py) are inserted with the events, only if it matched."""
    params, rows = _values(loaded, game, state_text, events)
    sql = _PG_UPDATE
    if skip_locked:
        sql += _PG_SKIP_LOCKED
        params.append(loaded.game.pk)
    sql += " RETURNING id)"
    if rows:
        sql += _PG_INSERT.format(rows=", ".join([_PG_ROW] * len(rows)))
    branch, effect_params = outbox.statement_branch(effects)
    return (sql + branch + _PG_COUNT,
            params + [v for r in rows for v in r] + effect_params)


def _after_the_end(game: Game, seats: list[Seat], after: Round) -> None:
    """In the transaction that ended the game: a ranked game is rated from its final
    ranking (result and rating changes commit together) and its players are free to
    queue again; a game with the computer rates the bots (games/ranked/ratings.py)."""
    if after.status is Status.FINISHED and after.result is not None:
        ranking = list(after.result.ranking)
        now: datetime = after.finished_at  # type: ignore[assignment]
        if game.ranked:
            # The result shows whether the game was rated (and why not) and what it
            # did to each rating (the page's "+12").
            game.result = {**game.result, **ratings.apply_result(
                game=game, seats=seats, ranking=ranking, now=now)}
            Game.objects.filter(pk=game.pk).update(result=game.result)
        elif any(s.bot for s in seats):
            ratings.rate_bots(game=game, seats=seats, ranking=ranking, now=now)
    if game.ranked:
        LiveRankedSeat.objects.filter(game=game).delete()


def annul(game: Game, seats: list[Seat], at: datetime,
          result: dict[str, Any] | None) -> Game | None:
    """Write the annulment of the finished `game` (games/table.py), as read: its row one
    version on, with `annulled_at` and the annulled `result`, in ONE statement guarded by
    the version it was read at; None if the row moved on (nothing written). Announced
    after commit as a change of its own ("annulled", no events); returns the row after
    it."""
    matched = Game.objects.filter(pk=game.pk, version=game.version).update(
        annulled_at=at, result=result, version=F("version") + 1)
    state_cache.stale(game.pk)  # whatever this process kept of it is older now
    if not matched:
        return None
    after = copy.copy(game)
    after.annulled_at, after.result, after.version = at, result, game.version + 1
    announce_on_commit(after, seats, [], "annulled")
    return after


def start(game: Game, seats: list[Seat], now: datetime, change: str) -> Game:
    """Start the waiting `game` (row locked by the caller, every seat taken): its round
    begins, clock running; announced as `change`. Returns the row after it."""
    written = commit(held(game, seats),
                     Progress((), start_round(game.kind, game.time_control, now,
                                                private=game.private,
                                                absence_forfeits=game.absence_forfeits)),
                     change=change)
    if written is None:  # the caller holds the row's lock: nothing can have moved it
        raise RuntimeError(f"game {game.pk} changed under its lock")
    return written.game
