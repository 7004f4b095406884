"""The fixed statements of seating players: what every game start runs, a create and
its joins, written without the ORM.

The ORM compiles each query afresh on every call, 0.4-0.6 ms of CPU apiece here, more
than PostgreSQL spends answering it, and a game's start (a create and three joins) ran
six of them (docs/performance.md, "Cheaper starts"). These are the statements, their SQL
fixed once, for both databases the site runs on (PostgreSQL, and SQLite for the
embedded default). Every seat row is written here: inserted (a create, a join, a bot
added, a match, a rematch), deleted (a leave, a bot taken off) or handed to a bot.

A change of who sits where that is not a game's start moves the game's `version` on
(`one_version_on`): the version orders the game's announcements (a socket drops a stale
one) and guards every later write, so no process writes with the seats as they were.
On PostgreSQL the seat's row and the version are one statement (a data-modifying
`WITH`); SQLite runs the two in turn, in the caller's transaction.

Like the ORM's writes, each marks its transaction for rollback when it fails, and the
lock of the open-games check is refused outside a transaction (where it would hold
nothing).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from accounts.models import User
from bloqueio_site import model_rows
from games.models import Game, Invitation, InvitationStatus, Seat, Status

_LOCK_USER = f"SELECT id FROM {User._meta.db_table} WHERE id = %s"
_WAITING_CREATED = (
    f"SELECT COUNT(*) FROM {Game._meta.db_table} g "
    f"JOIN {Seat._meta.db_table} s ON s.game_id = g.id AND s.user_id = g.created_by_id "
    "WHERE g.created_by_id = %s AND g.status = %s")
_ACCEPT_INVITATION = (
    f"UPDATE {Invitation._meta.db_table} SET status = %s "
    "WHERE game_id = %s AND invited_id = %s AND status = %s")


@functools.cache
def _insert_sql(rows: int) -> str:
    values = ", ".join(["(%s, %s, %s, %s, %s)"] * rows)
    return (f"INSERT INTO {Seat._meta.db_table} (game_id, seat, user_id, joined_at, bot) "
            f"VALUES {values}")


def waiting_created(user_id: int) -> int:
    """In a transaction: lock the user's row, then count the waiting games they created
    and still sit in. The lock queues two creates by one user here, so both cannot pass
    a cap on the count. Two statements, not one: a statement that waited for the lock
    would count as of before the other create committed (round_store.lock_row says
    why)."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("waiting_created locks a row: call it in a "
                                         "transaction")
    lock = _LOCK_USER + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(lock, [user_id])
        cursor.execute(_WAITING_CREATED, [user_id, Status.WAITING.value])
        row = cursor.fetchone()
    return int(row[0])


def insert(game_id: int, seats: Sequence[tuple[int, int, bool]], *,
           one_version_on: Game | None = None) -> None:
    """Seat (seat number, user id, is a bot) rows of game `game_id`, one statement; a
    taken seat or a person seated twice raises IntegrityError (the table's
    constraints), as the ORM's insert would."""
    if not seats:
        return
    now = model_rows.database().ops.adapt_datetimefield_value(timezone.now())
    params: list[object] = []
    for seat, user_id, bot in seats:
        params += [game_id, seat, user_id, now, bot]
    _run(_insert_sql(len(seats)), params, one_version_on)


def remove(game_id: int, seat: int, *, one_version_on: Game | None) -> None:
    """Seat `seat` of game `game_id` is free again (a leave, a bot taken off)."""
    _run(_DELETE, [game_id, seat], one_version_on)


def hand_to_bot(game: Game, seat: int, bot_id: int, replaced_id: int) -> None:
    """Seat `seat` of the running `game` is the bot account `bot_id`'s from now on, in
    place of `replaced_id`; one version on."""
    _run(_HAND_TO_BOT, [bot_id, replaced_id, game.pk, seat], game)


_DELETE = f"DELETE FROM {Seat._meta.db_table} WHERE game_id = %s AND seat = %s"
_HAND_TO_BOT = (f"UPDATE {Seat._meta.db_table} SET user_id = %s, bot = TRUE, replaced_id = %s "
                "WHERE game_id = %s AND seat = %s")
_NEXT_VERSION = f"UPDATE {Game._meta.db_table} SET version = version + 1 WHERE id = %s"


@functools.cache
def _with_next_version(statement: str) -> str:
    return f"WITH seat_change AS ({statement}) {_NEXT_VERSION}"


def _run(statement: str, params: list[object], one_version_on: Game | None) -> None:
    """`statement` on the seats, and with `one_version_on` that game's version moved on
    (one statement on PostgreSQL); fails as the ORM's write would (rollback marked)."""
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        if one_version_on is None:
            cursor.execute(statement, params)
            return
        if connection.vendor == "postgresql":
            cursor.execute(_with_next_version(statement), [*params, one_version_on.pk])
        else:
            cursor.execute(statement, params)
            cursor.execute(_NEXT_VERSION, [one_version_on.pk])
    one_version_on.version += 1


def accept_invitation(game_id: int, user_id: int) -> None:
    """The user's pending invitation to the game, if any, is accepted (they joined)."""
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(_ACCEPT_INVITATION, [InvitationStatus.ACCEPTED.value, game_id,
                                            user_id, InvitationStatus.PENDING.value])
