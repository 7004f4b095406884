"""Strict reading of Blokus state JSON: anything malformed or impossible is ``InvalidState``.

Beyond shapes and types it checks what can be checked cheaply: each colour's squares
on the board match the pieces gone from its hand, a colour that placed anything covers
its start square, ``last_piece`` agrees with the hand, and ``turn``/``colour`` agree
with whether the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import state_bools, state_frame, state_int, state_list
from ..errors import InvalidState, brief
from .pieces import COUNT, FULL_HAND, INDEX, TOTAL_SQUARES, hand_squares
from .state import State

if TYPE_CHECKING:
    from .rules import BlokusRules

KEYS = ("turn", "colour", "board", "hands", "out", "last_piece", "in_game", "ply", "left_order")


def _piece(value: object, what: str) -> int:
    if not isinstance(value, str) or value not in INDEX:
        raise InvalidState(f"{what}: unknown piece {brief(value)}")
    return INDEX[value]


def _hand(value: object, colour: int) -> int:
    hand = 0
    last = -1
    for name in state_list(value, f"hand of colour {colour}", None):
        p = _piece(name, f"hand of colour {colour}")
        if p <= last:
            raise InvalidState(f"hand of colour {colour} must list pieces once, in canonical order")
        hand |= 1 << p
        last = p
    return hand


def _board(rules: BlokusRules, value: object) -> list[int]:
    geo = rules.geo
    n = rules.ncolours
    occ = [0] * n
    for r, row in enumerate(state_list(value, "board", geo.size)):
        for c, v in enumerate(state_list(row, f"board row {r}", geo.size)):
            if v is None:
                continue
            colour = state_int(v, f"board [{r},{c}]", 0, n - 1)
            occ[colour] |= 1 << geo.bit(r, c)
    return occ


def state_from_json(rules: BlokusRules, obj: object) -> State:
    """Validate ``obj`` field by field, then as a position; build the state."""
    n, seats, geo = rules.ncolours, rules.seats, rules.geo
    obj, turn, in_game, ply, left_order = state_frame(obj, KEYS, seats, rules.max_plies)
    out = state_bools(obj["out"], "out", n)
    colour = None if obj["colour"] is None else state_int(obj["colour"], "colour", 0, n - 1)
    if not any(in_game):
        raise InvalidState("no seat is in the game")
    hand = tuple(_hand(h, c) for c, h in enumerate(state_list(obj["hands"], "hands", n)))
    last_piece: list[str | None] = []
    for c, raw in enumerate(state_list(obj["last_piece"], "last_piece", n)):
        if raw is None:
            if hand[c] != FULL_HAND:
                raise InvalidState(f"colour {c} has placed pieces, so last_piece is needed")
            last_piece.append(None)
            continue
        p = _piece(raw, f"last_piece of colour {c}")
        if (hand[c] >> p) & 1:
            raise InvalidState(f"last_piece of colour {c} ({raw}) is still in its hand")
        last_piece.append(str(raw))
    occ = _board(rules, obj["board"])
    placed = 0
    for c in range(n):
        on_board = occ[c].bit_count()
        expected = TOTAL_SQUARES - hand_squares(hand[c])
        if on_board != expected:
            raise InvalidState(
                f"colour {c} covers {on_board} squares but has placed pieces of {expected}"
            )
        if occ[c] and not occ[c] & geo.start_bits[c]:
            raise InvalidState(f"colour {c} has pieces down but not on its start square")
        if out[c] and not hand[c]:
            raise InvalidState(f"colour {c} placed every piece, so it cannot be out")
        placed += COUNT - hand[c].bit_count()
    if ply < placed + sum(out) + len(left_order):
        raise InvalidState("ply is smaller than the events the state records")
    able = [rules.able(c, hand, out, in_game) for c in range(n)]
    ended = sum(in_game) <= 1 or ply >= rules.max_plies or not any(able)
    if (turn is None) != (colour is None):
        raise InvalidState("turn and colour must both be null (game over) or both set")
    if colour is None:
        if not ended:
            raise InvalidState("turn is null but the game is not over")
    else:
        if ended:
            raise InvalidState("the game is over, so turn and colour must be null")
        if turn != rules.colour_seats[colour]:
            raise InvalidState(f"colour {colour} belongs to seat {rules.colour_seats[colour]}")
        if not able[colour]:
            raise InvalidState(f"colour {colour} cannot take a turn (out, done or left)")
    return State(
        rules.kind,
        turn,
        colour,
        tuple(occ),
        hand,
        out,
        tuple(last_piece),
        in_game,
        ply,
        left_order,
        geo,
    )
