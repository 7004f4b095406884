"""Properties of the Blokus engine on seeded random games of every kind.

The legal set is checked against a brute-force oracle written from docs/rules.md over the
JSON board (no bitboards), so the fast generator and the plain rule text must agree.
"""

from __future__ import annotations

import itertools
import random

import pytest

from games.engine.blokus import RULES
from games.engine.blokus.actions import Place
from games.engine.blokus.pieces import INDEX, NAMES, ORIENTATIONS, SIZES
from games.engine.blokus.rules import BlokusRules
from games.engine.blokus.state import State
from games.engine.common import PASS, Pass
from games.engine.errors import IllegalAction
from tests.engine.helpers import check_game, random_game

KINDS = tuple(RULES)


def oracle(rules: BlokusRules, state: State) -> set[tuple[str, tuple[tuple[int, int], ...]]]:
    """Every legal placement, by brute force from docs/rules.md over the JSON board."""
    obj = state.to_json()
    board, colour = obj["board"], obj["colour"]
    size = len(board)
    own = {(r, c) for r in range(size) for c in range(size) if board[r][c] == colour}
    start = rules.geo.starts[colour]
    found = set()
    for name in obj["hands"][colour]:
        for shape in ORIENTATIONS[INDEX[name]]:
            for r0 in range(size):
                for c0 in range(size):
                    cells = [(r0 + r, c0 + c) for r, c in shape]
                    if any(r >= size or c >= size or board[r][c] is not None for r, c in cells):
                        continue
                    if not own:
                        if start in cells:
                            found.add((name, tuple(sorted(cells))))
                        continue
                    edge = {
                        (r + dr, c + dc)
                        for r, c in cells
                        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                    }
                    diag = {
                        (r + dr, c + dc)
                        for r, c in cells
                        for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1))
                    }
                    if not edge & own and diag & own:
                        found.add((name, tuple(sorted(cells))))
    return found


def expected_scores(rules: BlokusRules, state: State) -> list[int]:
    """Scores recomputed from the JSON hands (docs/rules.md#blokus: -1 a square; +15; +5 for I1)."""
    obj = state.to_json()
    seats = [0] * rules.seats
    for colour, hand in enumerate(obj["hands"]):
        if hand:
            score = -sum(SIZES[INDEX[name]] for name in hand)
        else:
            score = 15 + (5 if obj["last_piece"][colour] == "I1" else 0)
        seats[rules.colour_seats[colour]] += score
    return seats


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_invariants(kind: str, seed: int) -> None:
    rules = RULES[kind]
    events, states = random_game(rules, seed, leave_at=40 if seed == 2 else None)
    check_game(rules, events, states, random.Random(seed))
    for state in states:
        if state.is_over:
            assert state.colour is None
            continue
        c = state.colour
        assert c is not None and state.turn == rules.colour_seats[c]
        assert state.hand[c] and not state.out[c] and state.in_game[state.turn]
        for action in rules.legal_actions(state):
            if isinstance(action, Place):
                assert list(action.cells) == sorted(action.cells)
    final = states[-1]
    result = rules.result(final)
    assert result is not None and result.scores is not None
    assert list(result.scores) == expected_scores(rules, final)
    for seat in range(rules.seats):
        assert rules.measure(final, seat) == (result.scores[seat] if final.in_game[seat] else None)
    assert rules.replay(events) == final
    with pytest.raises(IllegalAction):
        rules.apply(final, PASS)
    with pytest.raises(IllegalAction):
        rules.leave(final, 0)


@pytest.mark.parametrize("kind", KINDS)
def test_every_legal_placement_applies(kind: str) -> None:
    rules = RULES[kind]
    _, states = random_game(rules, 3)
    for state in states[:: max(1, len(states) // 8)]:
        for action in rules.legal_actions(state):
            after = rules.apply(state, action)
            assert after.ply == state.ply + 1
            if isinstance(action, Place):
                c = state.colour
                assert c is not None
                assert after.last_piece[c] == action.piece
                assert action.piece not in after.hands[c]
                board = after.board
                assert all(board[r][col] == c for r, col in action.cells)
            else:
                assert after.out[state.colour or 0]


@pytest.mark.parametrize("kind", KINDS)
def test_legal_set_matches_brute_force(kind: str) -> None:
    rules = RULES[kind]
    _, states = random_game(rules, 4)
    for state in states[:: max(1, len(states) // 5)]:
        if state.is_over:
            continue
        got = {(a.piece, a.cells) for a in rules.legal_actions(state) if isinstance(a, Place)}
        assert got == oracle(rules, state), state.ply


@pytest.mark.parametrize("kind", KINDS)
def test_random_placements_are_judged_like_the_legal_set(kind: str) -> None:
    rules = RULES[kind]
    rng = random.Random(5)
    _, states = random_game(rules, 5)
    size = rules.geo.size
    places = rules.geo.tables.places
    for state in states[:: max(1, len(states) // 10)]:
        if state.is_over:
            continue
        legal = set(rules.legal_actions(state))
        before = state.to_json()
        for _ in range(60):
            action = rng.choice(places)
            legality = rules.is_legal(state, action)
            assert bool(legality) == (action in legal)
            if not legality:
                assert legality.reason
                with pytest.raises(IllegalAction) as refused:
                    rules.apply(state, action)
                assert refused.value.reason == legality.reason
        for _ in range(20):  # random squares under a random name: never a legal shape
            name = rng.choice(NAMES)
            cells = tuple(
                sorted(
                    {(rng.randrange(size), rng.randrange(size)) for _ in range(SIZES[INDEX[name]])}
                )
            )
            action = Place(name, cells)
            if action in legal:
                continue
            legality = rules.is_legal(state, action)
            assert not legality and legality.reason
        if legal != {PASS}:
            assert not rules.is_legal(state, PASS)
        assert state.to_json() == before


@pytest.mark.parametrize("kind", KINDS)
def test_leaving_on_turn_passes_it_and_out_of_turn_keeps_it(kind: str) -> None:
    rules = RULES[kind]
    _, states = random_game(rules, 6)
    state = next(s for s in states if s.ply == 10)
    mover = state.turn
    assert mover is not None
    other = (mover + 1) % rules.seats
    off = rules.leave(state, other, "timeout")
    assert off.ply == state.ply + 1 and not off.in_game[other]
    if rules.seats == 2:
        assert off.is_over
        result = rules.result(off)
        assert result is not None and result.reason == "last_standing" and result.winner == mover
        return
    assert (off.turn, off.colour) == (mover, state.colour)
    on = rules.leave(state, mover)
    assert on.turn != mover and on.turn is not None and on.in_game[on.turn]
    assert on.left_order == (mover,)
    assert on.to_json()["board"] == state.to_json()["board"]  # pieces stay


def test_pass_makes_only_that_colour_out() -> None:
    rules = RULES["blokus"]
    _, states = random_game(rules, 7)
    for before, after in itertools.pairwise(states):
        if rules.legal_actions(before) == [PASS]:
            c = before.colour
            assert c is not None
            assert after.out[c]
            assert [o for i, o in enumerate(after.out) if i != c] == [
                o for i, o in enumerate(before.out) if i != c
            ]
            return
    pytest.fail("no pass in that game")


def test_cold_and_warm_states_agree() -> None:
    rules = RULES["blokus"]
    _, states = random_game(rules, 8)
    for state in states:
        cold = rules.state_from_json(state.to_json())
        assert rules.must_pass(cold) == rules.must_pass(state)
        assert rules.legal_actions(cold) == rules.legal_actions(state)
        assert state.is_over or isinstance(rules.legal_actions(cold)[0], (Place, Pass))
