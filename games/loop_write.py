"""A live move over a socket, written by the event loop itself: the hot case of the one
write path (games/playing.py) without a worker thread.

The same decision and the same statement: the round is this process's snapshot at the
client's ply, `games.round.play` decides, and `round_store.guarded_statement` commits the
progress, on one of the loop's own connections (bloqueio_site/loop_db.py) instead of a
worker thread's; the snapshot is kept and the change announced as `round_store.commit`
does. Only a move that needs nothing more is written here. Anything else answers None,
and the caller takes `playing.submit_action` on a worker thread, which decides again
from the row:

- no snapshot at the client's ply (another process wrote the game; nothing kept here);
- the caller holds no seat, or several (a bot account says which);
- the seat to move is past its deadline (the flag asks the clock worker's heartbeat);
- any refusal (decided again from the row, and said in the socket's language);
- a progress that ends the game (ratings and the ranked queue commit with it) or
  writes nothing;
- a turn-based game (its announcement writes notifications: notifications/listeners.py);
- a lost race (the guard did not match: the snapshot is forgotten, and the row then
  says `stale_ply`), no free connection, or any database error (the thread path meets
  the database as it always does and answers `unavailable` if it is down).
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

import psycopg
from django.utils import timezone

from bloqueio_site import loop_db
from games import round_store, state_cache
from games.announce import announce_committed
from games.errors import GameError
from games.playing import Submitted
from games.round import Act, Status, play, turn_based
from games.round.refusals import Refusal

log = logging.getLogger(__name__)

# Moves written here and moves passed on to the thread path, per process (tests read it).
counts: Counter[str] = Counter()


async def submit(*, game_id: int, user_id: int, action: Any, ply: int) -> Submitted | None:
    """Write the caller's move from the event loop; None: take `submit_action` instead."""
    done = await _submit(game_id, user_id, action, ply)
    counts["written" if done is not None else "passed_on"] += 1
    return done


async def _submit(game_id: int, user_id: int, action: Any, ply: int) -> Submitted | None:
    if not loop_db.enabled():
        return None
    kept = state_cache.get(game_id, ply)
    if kept is None or turn_based(kept.game.time_control):
        return None
    seats = [held.seat for held in kept.seats if held.user_id == user_id]
    now = timezone.now()
    if len(seats) != 1 or kept.round.overdue(now):
        return None
    try:
        progress = play(kept.round, seats[0], Act(action, ply), now)
    except (Refusal, GameError):
        return None
    after = progress.round_after
    if progress.refused is not None or not progress.events or after.status is not Status.ACTIVE:
        return None
    loaded = round_store.Loaded(kept.game, kept.seats, kept.round, kept.state_text,
                                cached=True)
    game, state_text = round_store.projected(loaded, after)
    statement = round_store.guarded_statement(loaded, game, state_text, progress.events)
    try:
        async with loop_db.connection() as conn:
            cursor = await conn.execute(*statement)
            row = await cursor.fetchone()
    except (loop_db.Busy, psycopg.Error) as exc:
        log.info("loop write of game %s passed on (%r)", game_id, exc)
        state_cache.stale(game_id)  # the thread path reads the row
        return None
    if not row or not row[0]:
        state_cache.stale(game_id)
        return None
    state_cache.written(state_cache.Snapshot(game, kept.seats, after, state_text))
    payload = announce_committed(game, kept.seats, progress.events, "events")
    return Submitted(event=progress.events[0], events=list(progress.events), payload=payload)
