"""A player's own live games, the ones where it is their turn first (issue #31's "My
games": the page, `GET /api/me/games/` and the lobby's count read the same list)."""

from __future__ import annotations

from typing import Any

from bloqueio_site.jsontext import iso
from games.models import LIVE_STATUSES, Game, Seat, Status


def held_seats(user_id: int) -> list[tuple[int, Game]]:
    """(seat, game) of every seat `user_id` still holds in a live game, oldest game
    first: a seat left by resigning or running out of time is no longer theirs. One
    query. What a ban frees (games/bans.py) and what My games lists."""
    seats = (Seat.objects.filter(user_id=user_id, game__status__in=LIVE_STATUSES)
             .select_related("game").order_by("game_id").only(
                 "seat", "game__id", "game__kind", "game__ranked", "game__status",
                 "game__state", "game__ply", "game__deadline", "game__created_at",
                 "game__time_control"))
    return [(seat.seat, seat.game) for seat in seats
            if seat.game.status != Status.ACTIVE or seat.game.state["in_game"][seat.seat]]


def active_games(user_id: int) -> list[dict[str, Any]]:
    """Every game `user_id` still plays or waits in (`held_seats`): theirs to move
    first, soonest deadline first (untimed after timed; a turn-based game's deadline,
    days away, sorts with the live ones by the instant itself); then the others, the
    newest first."""

    def order(entry: tuple[int, Game]) -> tuple[bool, bool, float, float]:
        seat, game = entry
        deadline = game.deadline
        return (not _your_turn(game, seat), deadline is None,
                deadline.timestamp() if deadline else 0.0, -game.created_at.timestamp())

    return [_summary(game, seat) for seat, game in sorted(held_seats(user_id), key=order)]


def _your_turn(game: Game, seat: int) -> bool:
    return game.status == Status.ACTIVE and game.state.get("turn") == seat


def _summary(game: Game, seat: int) -> dict[str, Any]:
    active = game.status == Status.ACTIVE
    return {"id": game.pk, "kind": game.kind, "ranked": game.ranked, "status": game.status,
            "seat": seat, "your_turn": _your_turn(game, seat),
            "turn": game.state.get("turn") if active else None, "ply": game.ply,
            "deadline": iso(game.deadline), "time_control": game.time_control,
            "created_at": iso(game.created_at)}
