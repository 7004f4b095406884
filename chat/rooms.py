"""Who writes to and reads which room of a game's chat: pure rules, no database.

A game has two rooms. Its players (seated, and still in the game while it runs) write to
the players' room; everyone else (spectators, and a player who resigned or timed out of
a running game) to the spectators'. While a game runs each side reads only its own room
(as on lichess): spectators cannot coach the players, and the players' talk is theirs
(moderators read both); before it starts and once it is over everyone reads both. The
REST view, the socket's `hello`, `chat_history`, `sync` and its live messages all ask
`readable_rooms`.
"""

from __future__ import annotations

from collections.abc import Sequence

PLAYERS = "players"
SPECTATORS = "spectators"
BOTH = frozenset({PLAYERS, SPECTATORS})
PLAYERS_ONLY = frozenset({PLAYERS})
SPECTATORS_ONLY = frozenset({SPECTATORS})


def is_playing(status: str, seat: int | None, in_game: Sequence[bool] | None) -> bool:
    """A seated user who has not left the game (any seated user outside a running game)."""
    if seat is None:
        return False
    if status != "active":
        return True
    return bool(in_game is not None and 0 <= seat < len(in_game) and in_game[seat])


def writing_room(status: str, seat: int | None, in_game: Sequence[bool] | None) -> str:
    return PLAYERS if is_playing(status, seat, in_game) else SPECTATORS


def readable_rooms(status: str, seat: int | None, in_game: Sequence[bool] | None,
                   *, moderator: bool = False) -> frozenset[str]:
    if status != "active" or moderator:
        return BOTH
    return PLAYERS_ONLY if is_playing(status, seat, in_game) else SPECTATORS_ONLY
