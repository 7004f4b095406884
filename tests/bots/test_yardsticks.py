"""The ladder's yardstick opponents (bench/opponents.py): legal, seeded, and playing
exactly the rule each one is defined by (they measure the bots, so they must be right)."""

from __future__ import annotations

from typing import Any

import pytest

from bench import opponents
from games import bots, engine
from games.engine.barrier.actions import Barrier, Move

FAMILY_KINDS = {
    "racer": ["bloqueio", "bloqueio2", "quoridor", "quoridor4"],
    "blocker": ["bloqueio", "quoridor4"],
    "blockade_greedy": ["blockade", "blockade_run"],
    "blokus_greedy": ["blokus_duo"],
    "uniform": ["blockade", "blockade_run", "blokus_duo", "quoridor"],
}


def _positions(kind: str, plies: int, seed: int) -> list[Any]:
    """The positions of a game between easy bots (varied, with barriers placed)."""
    rules = engine.get(kind)
    state = rules.initial()
    seen = []
    while state.turn is not None and len(seen) < plies:
        seen.append(state)
        state = rules.apply(state, bots.choose(rules, state, "easy", seed=seed))
    return seen


@pytest.mark.parametrize(
    ("name", "kind"), [(n, k) for n, kinds in FAMILY_KINDS.items() for k in kinds]
)
def test_a_yardstick_plays_legal_seeded_games_to_the_end(name: str, kind: str) -> None:
    rules = engine.get(kind)
    state = rules.initial()
    while state.turn is not None:
        action = opponents.play(name, rules, state, seed=3)
        assert rules.is_legal(state, action)
        assert opponents.play(name, rules, rules.state_from_json(state.to_json()), 3) == action
        state = rules.apply(state, action)
    assert rules.result(state) is not None


def _race(rules: Any, state: Any, me: int) -> float:
    if state.turn is None:  # a step into the goal wins: nothing beats it
        return float("inf")
    others = [s for s in range(rules.seats) if s != me and state.in_game[s]]
    return min(rules.distance(state, s) for s in others) - rules.distance(state, me)


@pytest.mark.parametrize("kind", ["quoridor", "bloqueio"])
def test_the_racer_blocks_only_for_a_whole_step_more_than_its_best_move(kind: str) -> None:
    rules = engine.get(kind)
    blocked = 0
    for state in _positions(kind, 40, seed=5)[::3]:
        me = state.turn
        legal = rules.legal_actions(state)
        value = {a: _race(rules, rules.apply(state, a), me) for a in legal}
        best_move = max(v for a, v in value.items() if isinstance(a, Move))
        best_barrier = max((v for a, v in value.items() if isinstance(a, Barrier)), default=None)
        action = opponents.play("racer", rules, state, seed=1)
        if isinstance(action, Barrier):
            blocked += 1
            assert value[action] == best_barrier >= best_move + 1
        else:
            assert value[action] == best_move
            assert best_barrier is None or best_barrier < best_move + 1
    assert blocked  # the positions include some where a barrier pays


@pytest.mark.parametrize("kind", ["quoridor4", "bloqueio"])
def test_the_blocker_walls_off_the_leader_when_that_costs_it_more_than_a_step(kind: str) -> None:
    """Issue #48's greedy player: the rival closest to winning is fixed before it moves,
    and a barrier is placed exactly when it lengthens that rival's path by more than the
    best step shortens its own."""
    rules = engine.get(kind)
    blocked = 0
    for state in _positions(kind, 60, seed=5)[::2]:
        me = state.turn
        others = [s for s in range(rules.seats) if s != me and state.in_game[s]]
        rival = min(others, key=lambda s: (rules.distance(state, s), (s - me) % rules.seats))
        legal = rules.legal_actions(state)
        after = {a: rules.apply(state, a) for a in legal}
        if any(a.turn is None for a in after.values()):
            continue  # a winning step: taken whatever else
        gain = rules.distance(state, me) - min(
            rules.distance(after[a], me) for a in legal if isinstance(a, Move))
        longer = max((rules.distance(after[a], rival) for a in legal if isinstance(a, Barrier)),
                     default=rules.distance(state, rival)) - rules.distance(state, rival)
        action = opponents.play("blocker", rules, state, seed=1)
        if isinstance(action, Barrier):
            blocked += 1
            assert longer > gain
            assert rules.distance(after[action], rival) - rules.distance(state, rival) == longer
        else:
            assert longer <= gain
    assert blocked  # the positions include some where it walls the leader off


def test_blokus_greedy_places_its_largest_piece() -> None:
    rules = engine.get("blokus_duo")
    for state in _positions("blokus_duo", 12, seed=2):
        legal = rules.legal_actions(state)
        action = opponents.play("blokus_greedy", rules, state, seed=1)
        assert len(action.cells) == max(len(a.cells) for a in legal)


def test_blockade_greedy_takes_a_winning_step() -> None:
    rules = engine.get("blockade_run")
    state = rules.replay(rules.parse_game("c1^a0 d4^a1 c2^a2 d3^b0 c3^b1 d2^e0"))
    action = opponents.play("blockade_greedy", rules, state, seed=1)
    assert rules.result(rules.apply(state, action)).winner == 0
