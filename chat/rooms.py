"""Who writes to and reads which room of a game's chat: pure rules, no database.

A game has two rooms. Its players (seated, and still in the game while it runs) write to
the players' room; everyone else (spectators, and a player who resigned or timed out of
a running game) to the spectators'. While a game runs its players read only their own
room, so spectators cannot coach them (as on lichess); before it starts and once it is
over everyone reads both. The consumers apply the same rules to live messages.
"""

from __future__ import annotations

from collections.abc import Sequence

PLAYERS = "players"
SPECTATORS = "spectators"
BOTH = frozenset({PLAYERS, SPECTATORS})
PLAYERS_ONLY = frozenset({PLAYERS})


def is_playing(status: str, seat: int | None, in_game: Sequence[bool] | None) -> bool:
    """A seated user who has not left the game (any seated user outside a running game)."""
    if seat is None:
        return False
    if status != "active":
        return True
    return bool(in_game is not None and 0 <= seat < len(in_game) and in_game[seat])


def writing_room(status: str, seat: int | None, in_game: Sequence[bool] | None) -> str:
    return PLAYERS if is_playing(status, seat, in_game) else SPECTATORS


def readable_rooms(status: str, seat: int | None,
                   in_game: Sequence[bool] | None) -> frozenset[str]:
    if status == "active" and is_playing(status, seat, in_game):
        return PLAYERS_ONLY
    return BOTH
