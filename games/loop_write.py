"""A live move over a socket, written by the event loop itself: the hot case of the one
write path (games/playing.py) without a worker thread.

The same decision and the same statement: the round is this process's snapshot at the
client's ply, `games.round.play` decides, and `round_store.guarded_statement` commits the
progress (with its outbox rows: a turn-based game's "your turn", games/outbox.py), on
one of the loop's own connections (bloqueio_site/loop_db.py) instead of a worker
thread's; the snapshot is kept and the change announced as `round_store.commit`
does. Only a move that needs nothing more is written here. Anything else answers None,
and the caller takes `playing.submit_action` on a worker thread, which decides again
from the row:

- no snapshot at the client's ply (another process wrote the game; nothing kept here);
- the caller holds no seat, or several (a bot account says which);
- the seat to move is past its deadline (the flag asks the clock worker's heartbeat);
- any refusal (decided again from the row, and said in the socket's language);
- a progress that ends the game (ratings and the ranked queue commit with it) or
  writes nothing;
- a lost race (the guard matched no row: the snapshot is forgotten and the row decides,
  `stale_ply` if another move took that ply);
- no connection to be had (the loop's writes are off, or the database could not be
  reached a moment ago: nothing was sent, and the thread path meets the database with
  the pool's reconnection and timeout).

Moves queue for one of the loop's connections; one still waiting after the pool's
timeout is answered `unavailable` (loop_db.Busy), as a request that waited for the pool.

A statement that was sent and failed may have committed or not: the snapshot is
forgotten and the socket answers `unavailable`, as the thread path does when its commit
fails, so the client reads the game (`sync`); if it did commit, the fan-out's audit
announces it (games/live/fanout.py). Once submitted, a move is seen through even if the
socket's task is cancelled (the write is shielded).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import psycopg
from django.db import OperationalError
from django.utils import timezone

from bloqueio_site import loop_db
from games import outbox, round_store, state_cache
from games.announce import announce_committed
from games.errors import GameError
from games.playing import Submitted
from games.round import Act, Progress, Status, play
from games.round.refusals import Refusal

# Per process: moves "written" here and "passed_on" to the thread path, of which
# "unusable" (no connection: nothing sent) and "lost_race" (the guard matched no row);
# "busy": answered `unavailable` after waiting the pool's timeout for a connection.
counts: Counter[str] = Counter()
_committing: set[asyncio.Future[Submitted | None]] = set()


async def submit(*, game_id: int, user_id: int, action: Any, ply: int) -> Submitted | None:
    """Write the caller's move from the event loop; None: take `submit_action` instead."""
    done = await _submit(game_id, user_id, action, ply)
    counts["written" if done is not None else "passed_on"] += 1
    return done


async def _submit(game_id: int, user_id: int, action: Any, ply: int) -> Submitted | None:
    if not loop_db.enabled():
        return None
    loaded = round_store.kept(game_id, ply)
    if loaded is None:
        return None
    seats = [held.seat for held in loaded.seats if held.user_id == user_id]
    now = timezone.now()
    if len(seats) != 1 or loaded.round.overdue(now):
        return None
    try:
        progress = play(loaded.round, seats[0], Act(action, ply), now)
    except (Refusal, GameError):
        return None
    after = progress.round_after
    if progress.refused is not None or not progress.events or after.status is not Status.ACTIVE:
        return None
    game, state_text = round_store.projected(loaded, after)
    effects = outbox.of_change(game, loaded.seats, after, "events", progress.events)
    statement = round_store.guarded_statement(loaded, game, state_text, progress.events,
                                              effects=effects)
    # Shielded: once submitted, the move is seen through (sent, kept, announced) even if
    # the socket's task is cancelled meanwhile (a closing socket, a shutdown), as a
    # worker thread's call would be.
    commit = asyncio.ensure_future(_commit(statement, state_cache.Snapshot(
        game, loaded.seats, after, state_text), progress, bool(effects)))
    _committing.add(commit)
    commit.add_done_callback(_committing.discard)
    return await asyncio.shield(commit)


async def _commit(statement: tuple[str, list[Any]], after: state_cache.Snapshot,
                  progress: Progress, effects: bool) -> Submitted | None:
    game_id = after.game.pk
    try:
        async with loop_db.connection() as conn:
            try:
                cursor = await conn.execute(*statement)
                row = await cursor.fetchone()
            except psycopg.Error as exc:
                # Sent: it may have committed or not. The row decides from now on, and
                # the client is told to `sync`, as the thread path tells it.
                state_cache.stale(game_id)
                raise OperationalError(f"the move's statement failed: {exc!r}") from exc
    except loop_db.Busy:
        counts["busy"] += 1  # waited the pool's timeout: `unavailable`, as the pool says
        raise
    except loop_db.Unusable:
        counts["unusable"] += 1
        return None  # nothing sent; the snapshot still holds
    if not row or not row[0]:
        counts["lost_race"] += 1
        state_cache.stale(game_id)
        return None
    state_cache.written(after)
    if effects:
        outbox.carry_out_here()
    payload = announce_committed(after.game, after.seats, progress.events, "events")
    return Submitted(event=progress.events[0], events=list(progress.events), payload=payload)
