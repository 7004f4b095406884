"""Reads shared by the REST API, the WebSocket consumers and the pages.

`game_json` is the single place a game becomes its public JSON shape (docs/api.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F, OuterRef, Prefetch, QuerySet, Subquery

from bloqueio_site import jsontext, model_rows
from bloqueio_site.jsontext import iso
from games import engine
from games.engine import LEAVE_REASONS
from games.models import Event, Game, Rating, Seat
from games.round.clock import restored as restored_clock

User = get_user_model()


def game_list(*, status: str | None = None, kind: str | None = None) -> QuerySet[Game]:
    """The listed games: never a private one (games/privacy.py)."""
    games = games_with_seats().filter(private=False).order_by("-created_at", "-id")
    if status:
        games = games.filter(status=status)
    if kind:
        games = games.filter(kind=kind)
    return games


def get_game(game_id: int) -> Game | None:
    """The game with its seats, their users and ratings, as `games_with_seats()` gives it
    (`game.seats.all()` costs no query), in one statement and one round trip.

    Every REST answer about a game and every socket's `hello` and catch-up read one: the
    ORM's two queries (the game, then the prefetched seats with the rating subquery) cost
    more CPU to compile than PostgreSQL spent running them (docs/performance.md)."""
    return read_game(_GAME_SQL, [game_id])


@dataclass(frozen=True)
class GameQuery:
    """A statement that reads one game with its seats (`game_with_seats_sql`): the
    game's columns, then its seats as JSON, then `extras`, each an attribute of the game
    `read_game` returns."""

    sql: str
    extras: tuple[str, ...] = ()


_GAMES = model_rows.ModelRows(Game)


def game_with_seats_sql(**extras: str) -> GameQuery:
    """The statement of `get_game` (its last placeholder: the game's id), with each of
    `extras` (name=SQL expression) as a column after the game's own: each becomes an
    attribute of the game `read_game` returns."""
    more = "".join(f", {expression} AS {name}" for name, expression in extras.items())
    return GameQuery(f"SELECT {_GAMES.columns('g')}, {_SEATS_JSON} AS seats_json{more} "
                     f"FROM {Game._meta.db_table} g WHERE g.id = %s", tuple(extras))


def read_game(query: GameQuery, params: list[Any]) -> Game | None:
    """The game a `game_with_seats_sql` statement finds, its seats attached.

    A plain cursor and `Model.from_db` with the columns known in advance
    (bloqueio_site/model_rows.py): a RawQuerySet worked out the column order, the
    model's init order and the converters afresh on every call, a third of a socket
    open's read (docs/performance.md)."""
    with connection.cursor() as cursor:
        cursor.execute(query.sql, params)
        row = cursor.fetchone()
    return None if row is None else game_from_row(query, row)


def game_from_row(query: GameQuery, row: Sequence[Any]) -> Game:
    """The game of a row `query` answered, however it was read (a Django cursor, or the
    event loop's own connection: games/live/hello.py), its seats attached."""
    count = len(_GAMES)
    game = _GAMES.load(row)
    for name, value in zip(query.extras, row[count + 1:], strict=True):
        setattr(game, name, value)
    attach_seats(game, seats_from_json(game, row[count]))
    return game


def seats_of(game: Game) -> list[Seat]:
    """`game`'s seats with their users and ratings, as `seats_with_ratings()` gives them,
    in one fixed statement (no query compiled)."""
    with connection.cursor() as cursor:
        cursor.execute(_SEATS_SQL, [game.pk])
        row = cursor.fetchone()
    return seats_from_json(game, row[0] if row else "[]")


# The seats of game `g` as one JSON array text, in seat order: per seat [id, seat, user
# id, bot, username, bot level, rating for the game's kind or null, the username of the
# person a bot replaced or null]. PostgreSQL's form,
# and SQLite's for the embedded default of `make run` (no ORDER BY inside an aggregate
# before SQLite 3.44: the rows come from an ordered subquery).
_SEATS_ROWS = f"""
    FROM {Seat._meta.db_table} s JOIN {User._meta.db_table} u ON u.id = s.user_id
    LEFT JOIN {Rating._meta.db_table} r ON r.user_id = s.user_id AND r.kind = g.kind
    LEFT JOIN {User._meta.db_table} ru ON ru.id = s.replaced_id
    WHERE s.game_id = g.id"""
if connection.vendor == "postgresql":
    _SEATS_JSON = f"""(
    SELECT COALESCE(json_agg(json_build_array(
        s.id, s.seat, s.user_id, s.bot, u.username, u.bot_level, r.rating, ru.username)
        ORDER BY s.seat), '[]')::text {_SEATS_ROWS})"""
else:
    _SEATS_JSON = f"""(
    SELECT COALESCE(json_group_array(json_array(
        x.id, x.seat, x.user_id, x.bot, x.username, x.bot_level, x.rating, x.replaced)), '[]')
    FROM (SELECT s.id, s.seat, s.user_id, s.bot, u.username, u.bot_level, r.rating,
                 ru.username AS replaced
          {_SEATS_ROWS} ORDER BY s.seat) x)"""
_GAME_SQL = game_with_seats_sql()
_SEATS_SQL = f"SELECT {_SEATS_JSON} FROM {Game._meta.db_table} g WHERE g.id = %s"


def _loaded(model: type[Any], db: str, values: dict[str, Any]) -> Any:
    """A `model` instance as the ORM loads one with only these fields (`.only()`): the
    others are deferred, read from the database if ever touched."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(db, names, [values[name] for name in names])


def seats_from_json(game: Game, text: str) -> list[Seat]:
    """Seat instances (user and `user_rating` loaded) from `_SEATS_JSON`'s text."""
    db = game._state.db or "default"
    seats = []
    for (seat_id, index, user_id, bot, username, bot_level, rating,
         replaced) in jsontext.loads(text):
        seat = _loaded(Seat, db, {"id": seat_id, "game_id": game.pk, "seat": index,
                                  "user_id": user_id, "bot": bool(bot)})
        seat.user = _loaded(User, db, {"id": user_id, "username": username,
                                       "bot_level": bot_level})
        seat.replaced_name = replaced
        seat.game = game
        seat.user_rating = rating
        seats.append(seat)
    return seats


def attach_seats(game: Game, seats: list[Seat]) -> None:
    """Make `game.seats.all()` answer `seats` without a query, as
    `prefetch_related("seats")` leaves it (Django keeps prefetched rows this way).

    The cached queryset is the relation's own filter (so `game.seats.filter(...)` still
    reads this game's seats only, though without setting each `seat.game` as the
    relation's would), built from the model's manager, not the game's: the
    relation's manager looks up the connection of the calling context, and on the event
    loop each socket is a context of its own, so every `hello` made a DatabaseWrapper
    (~15 objects in a cycle) that the collector freed when the socket went."""
    cached = Seat.objects.filter(game_id=game.pk)  # not run
    cached._result_cache = seats
    cached._prefetch_done = True
    game._prefetched_objects_cache = {"seats": cached}


def detach_seats(game: Game) -> None:
    """Forget the seats `attach_seats` cached on `game`, once a read is done with it.
    Attached, the game holds its seats and each seat its game (`seat.game`): a cycle of
    ~45 objects (game, seats, users, the cached queryset) that only the garbage
    collector frees, and a busy process reads a game with its seats at every socket's
    `hello` (docs/performance.md, "Pauses")."""
    vars(game).pop("_prefetched_objects_cache", None)


def seats_with_ratings() -> QuerySet[Seat]:
    """Seats with their users and each user's current rating for the game's kind
    (`user_rating`, a subquery: no extra query per seat or per game)."""
    rating = Rating.objects.filter(user=OuterRef("user_id"), kind=OuterRef("game__kind"))
    return Seat.objects.select_related("user").annotate(
        user_rating=Subquery(rating.values("rating")[:1]),
        replaced_name=F("replaced__username")).order_by("seat")


def games_with_seats() -> QuerySet[Game]:
    """Games with their seats, users and ratings loaded in one extra query."""
    return Game.objects.prefetch_related(Prefetch("seats", queryset=seats_with_ratings()))


def seats_json(game: Game, seats: list[Seat] | None = None) -> list[dict[str, Any]]:
    taken = {s.seat: s for s in (seats if seats is not None else game.seats.all())}
    out = []
    for index in range(game.seat_count):
        seat = taken.get(index)
        out.append({
            "seat": index,
            "username": seat.user.username if seat is not None else None,
            "rating": getattr(seat, "user_rating", None) if seat is not None else None,
            # The bot's level ("easy", "medium", "hard") when the computer holds the seat.
            "bot": (seat.user.bot_level or None) if seat is not None else None,
            # The person the bot took the seat over from (games/leavers.py), else null.
            "replaced": getattr(seat, "replaced_name", None) if seat is not None else None,
        })
    return out


def clocks_json(game: Game) -> dict[str, Any] | None:
    """The `clocks` field: remaining time per seat as of `turn_started_at`; the
    `running` seat's clock ticks down from there to `deadline` (games/ranked/clocks.py)."""
    clock = game.clock
    if clock is None:
        return None
    running = game.state.get("turn") if game.status == "active" else None
    first_move = running is not None and not clock["moved"][running]
    aborts = first_move and game.turn_started_at is not None and restored_clock(
        game.time_control, clock, game.turn_started_at,
        private=game.private,
        absence_forfeits=game.absence_forfeits).missed_first_move_aborts(running)
    return {
        "remaining_ms": list(clock["remaining_ms"]),
        "turn_started_at": iso(game.turn_started_at),
        "running": running,
        "deadline": iso(game.deadline),
        "first_move": first_move,
        # Missing this first move's deadline aborts the game (else it flags the seat).
        "first_move_aborts": bool(aborts),
    }


def absent_seats(game_ids: Sequence[int]) -> set[tuple[int, int]]:
    """(game id, seat) of the seats of these games that ran out of time without ever
    having moved: they never came to the table (games where absence forfeits)."""
    flagged = Event.objects.filter(game_id__in=list(game_ids), action__type="timeout"
                                   ).values_list("game_id", "seat")
    found = set(flagged)
    clocks = dict(Game.objects.filter(pk__in={g for g, _ in found}
                                      ).values_list("pk", "clock"))
    return {(g, s) for g, s in found
            if clocks.get(g) and not clocks[g]["moved"][s]}


def game_json(game: Game, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The public JSON of a game (docs/api.md); `seats` must carry their users."""
    return {
        "id": game.pk,
        "kind": game.kind,
        "ranked": game.ranked,
        "private": game.private,
        "status": game.status,
        "seats": seats_json(game, seats),
        "ply": game.ply,
        # The game's version: one more with every change (docs/realtime.md, "v").
        "v": game.version,
        "state": game.state,
        "time_control": game.time_control,
        "clocks": clocks_json(game),
        "result": game.result,
        "created_at": iso(game.created_at),
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
    }


def seat_of(game: Game, user_id: int | None) -> int | None:
    """The seat `user_id` holds in `game` (uses prefetched seats when present)."""
    if user_id is None:
        return None
    for seat in game.seats.all():
        if seat.user_id == user_id:
            return seat.seat
    return None


def events_after(game_id: int, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
    rows = Event.objects.filter(game_id=game_id, ply__gt=after).order_by("ply")
    if upto is not None:
        rows = rows.filter(ply__lte=upto)
    return [event.as_json() for event in rows]


class CaughtUp(NamedTuple):
    """A catch-up read: the events, the game they lead to and its version (which orders
    every announcement of the game: games/live/game_socket.py)."""

    events: list[dict[str, Any]]
    game: dict[str, Any]
    v: int


def events_and_game(game_id: int, after: int, v: int | None = None) -> CaughtUp | None:
    """Events after `after` and the game they lead to, consistent with each other (None:
    no such game). `v`: the version the asker holds; a game still at it has no event
    the asker lacks, and none is read.

    The game row is read first; events up to its ply are committed with it (same
    transaction), so capping the events there keeps the game and events in step even
    when another event commits between the two reads.
    """
    game = get_game(game_id)
    if game is None:
        return None
    events = [] if v is not None and game.version <= v else events_after(
        game_id, after, upto=game.ply)
    return CaughtUp(events, game_json(game), game.version)


def engine_event(action: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event row as the engine reads it: leaving events carry their seat."""
    if action.get("type") in LEAVE_REASONS:
        return {"type": action["type"], "seat": seat}
    return action


def engine_events(game_id: int, upto: int | None = None) -> list[dict[str, Any]]:
    rows = Event.objects.filter(game_id=game_id).order_by("ply")
    if upto is not None:
        rows = rows.filter(ply__lte=upto)
    return [engine_event(action, seat) for action, seat in rows.values_list("action", "seat")]


def state_at(game: Game, ply: int) -> engine.GameState:
    rules = engine.get(game.kind)
    return rules.replay(engine_events(game.pk, upto=ply))
