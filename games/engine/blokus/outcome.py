"""Scores and results: -1 per square in hand, +15 for all placed, +5 more for I1 last."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import Result, standings
from .pieces import ALL_PLACED_BONUS, I1_LAST_BONUS, hand_squares

if TYPE_CHECKING:
    from .rules import BlokusRules
    from .state import State


def colour_score(hand: int, last_piece: str | None) -> int:
    """One colour's score from its hand bitmask and the piece it placed last."""
    if hand:
        return -hand_squares(hand)
    return ALL_PLACED_BONUS + (I1_LAST_BONUS if last_piece == "I1" else 0)


def seat_scores(rules: BlokusRules, state: State) -> tuple[int, ...]:
    """Per seat, the sum of its colours' scores (seats that left included)."""
    scores = [0] * rules.seats
    for c, seat in enumerate(rules.colour_seats):
        scores[seat] += colour_score(state.hand[c], state.last_piece[c])
    return tuple(scores)


def result(rules: BlokusRules, state: State) -> Result | None:
    """None while the game runs. Ranking: seats still in by score (ties share a rank),
    then the leavers, latest first; the winner is a sole rank 1, else None."""
    if state.turn is not None:
        return None
    cached: Result | None = state.cache.get("result")
    if cached is not None:
        return cached
    playing = [s for s in range(rules.seats) if state.in_game[s]]
    if len(playing) == 1:
        reason = "last_standing"
    elif all(
        not rules.able(c, state.hand, state.out, state.in_game) for c in range(rules.ncolours)
    ):
        reason = "score"
    else:
        reason = "move_limit"
    scores = seat_scores(rules, state)
    ranking = standings(rules.seats, {s: -scores[s] for s in playing}, state.left_order)
    firsts = [s for s in playing if ranking[s] == 1]
    winner = firsts[0] if len(firsts) == 1 else None
    cached = Result(winner, ranking, reason, scores)
    state.cache["result"] = cached
    return cached
