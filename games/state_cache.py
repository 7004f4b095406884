"""Per-process snapshots of running games, for the write path's hot case.

A write needs the game's `Round` (its engine state above all). Rebuilding it from the
stored JSON (`state_from_json`) is the engine's costliest step, and the process that
wrote the game's last move already holds it. So after each commit the writer keeps a
`Snapshot`: the game row as committed, its seats, the round and the state's JSON text.
A row read outside any transaction is committed data too, and is kept the same way.

The database stays the truth: a snapshot is only a guess at the row. The write path
(games/round_store.py) commits a progress computed from one only if its guarded
statement finds the row still at the snapshot's `version` (every change to the row adds
one), and re-decides any refusal from the row. So a stale snapshot (another process
wrote the game, the clock worker gave time back) costs a miss, never a wrong write.

This module alone decides what is kept and what is forgotten: `committed` after a write
(kept while the game runs, forgotten once it ended; `written` for the event loop's own
writes, which have no Django transaction, at once), `stale` after a
lost race. Bounded (oldest entry first out) and safe across the threads of a process:
a snapshot is never mutated once stored, and the map is changed under a lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction

if TYPE_CHECKING:
    from games.models import Game, Seat
    from games.round import Round

MAX_GAMES = 10_000


@dataclass(frozen=True)
class Snapshot:
    """A game as this process committed (or read) it: never mutated."""

    game: Game
    seats: list[Seat]
    round: Round
    state_text: str  # the stored state's JSON text, for the write's guard

    @property
    def ply(self) -> int:
        return int(self.game.ply)

    @property
    def state(self) -> Any:
        return self.round.state


_snapshots: dict[int, Snapshot] = {}
_lock = threading.Lock()


def get(game_id: int, ply: int | None = None) -> Snapshot | None:
    """The snapshot of `game_id` (at `ply`, if given), or None."""
    found = _snapshots.get(game_id)
    if found is None or (ply is not None and found.ply != ply):
        return None
    return found


def seats(game: Game) -> list[Seat] | None:
    """The seats kept for this very row (same id and version), once started. A row at
    another version may have had its seats change hands (a bot's hand-over adds a
    version like a move does): its seats are read again."""
    found = _snapshots.get(game.pk)
    if (found is None or game.status == "waiting"
            or found.game.version != game.version):
        return None
    return found.seats


def committed(snapshot: Snapshot) -> None:
    """After the commit of the write that left the game as `snapshot` says: keep it
    while the game runs, forget the game once it ended (a rolled-back write does
    neither)."""
    if snapshot.round.status == "active":
        transaction.on_commit(partial(put, snapshot))
    else:
        transaction.on_commit(partial(drop, snapshot.game.pk))


def written(snapshot: Snapshot) -> None:
    """After a write committed outside any Django transaction (the event loop's own,
    games/table.py): at once, kept while the game runs, forgotten once it ended."""
    if snapshot.round.status == "active":
        put(snapshot)
    else:
        drop(snapshot.game.pk)


def loaded(snapshot: Snapshot) -> None:
    """A running game just read from the database: keep it, unless the read was inside
    a transaction (whose own writes may still roll back)."""
    if snapshot.round.status == "active" and not connection.in_atomic_block:
        put(snapshot)


def stale(game_id: int) -> None:
    """The row moved on without this process (a write's guard failed): forget it."""
    drop(game_id)


def put(snapshot: Snapshot) -> None:
    """Keep `snapshot`; an older one of the same game is replaced, a newer one stays."""
    game_id = snapshot.game.pk
    with _lock:
        current = _snapshots.pop(game_id, None)
        # Versions order every change of a game, and a game that reuses an id after a
        # restore starts above the lost one's (games/models.py).
        if current is not None and current.game.version > snapshot.game.version:
            _snapshots[game_id] = current  # a later commit was kept first: keep it
            return
        if len(_snapshots) >= MAX_GAMES:
            del _snapshots[next(iter(_snapshots))]
        _snapshots[game_id] = snapshot


def drop(game_id: int) -> None:
    with _lock:
        _snapshots.pop(game_id, None)


def clear() -> None:
    with _lock:
        _snapshots.clear()
