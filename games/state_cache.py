"""Per-process snapshots of active games, keyed by (game, ply), for the move's hot path.

A move needs the engine `State` at the game's current ply. Rebuilding it from the stored
JSON (`state_from_json`) on every move is the engine's costliest step, and the process
that wrote the previous move already holds that state. So after each commit the writer
keeps a `Snapshot`: the game row as committed, its seats and the engine state.

The database stays the truth. A snapshot is used only when the ply of the locked row
equals the snapshot's (events are append-only and unique per (game, ply), so the state at
a ply never changes), or, on the one-statement path of `services`, when that statement's
WHERE finds the row still at the snapshot's ply and clock. Another process writing the
same game therefore only causes misses here, which fall back to the JSON. Snapshots are
put only after commit, so a rolled-back write never leaves one behind.

Bounded (oldest entry first out) and safe across the worker threads of a process: a
snapshot is never mutated once stored, and the map is changed under a lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games import engine
    from games.models import Game, Seat

MAX_GAMES = 10_000


@dataclass(frozen=True)
class Snapshot:
    """A game as this process committed it: never mutated (copy before changing)."""

    game: Game
    seats: list[Seat]
    state: engine.GameState

    @property
    def ply(self) -> int:
        return int(self.game.ply)


_snapshots: dict[int, Snapshot] = {}
_lock = threading.Lock()


def get(game_id: int, ply: int | None = None) -> Snapshot | None:
    """The snapshot of `game_id` (at `ply`, if given), or None."""
    found = _snapshots.get(game_id)
    if found is None or (ply is not None and found.ply != ply):
        return None
    return found


def put(snapshot: Snapshot) -> None:
    """Keep `snapshot` (after its commit); an older one of the same game is replaced."""
    game_id = snapshot.game.pk
    with _lock:
        current = _snapshots.pop(game_id, None)
        if (current is not None and current.ply > snapshot.ply
                and current.game.created_at == snapshot.game.created_at):
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
