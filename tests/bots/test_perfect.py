"""The `perfect` level of the solved kinds (Blockade, Blockade Run): its values agree
with a brute-force search over the engine's own rules on sampled positions, and it never
lets a won position go, whoever the opponent is."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from games import bots, engine
from games.engine.blockade import solve
from games.engine.blockade.board import INDEX

BUDGET = 200_000  # proof nodes: no clock in these tests, only the positions' own cost


def brute(rules: Any, state: Any) -> tuple[bool, int]:
    """(the seat to move wins, plies to the end with best play) by plain minimax over
    ``rules.legal_actions`` and ``rules.apply``: no matching theory, no reductions."""

    @cache
    def value(key: str) -> tuple[bool, int]:
        here = rules.state_from_json(_json(key))
        wins, losses = [], []
        for action in rules.legal_actions(here):
            child = rules.apply(here, action)
            if child.turn is None:
                won = rules.result(child).winner == here.turn
                (wins if won else losses).append(1)
                continue
            theirs, plies = value(_key(child))
            (losses if theirs else wins).append(plies + 1)
        if wins:
            return True, min(wins)
        return False, max(losses, default=0)

    return value(_key(state))


def brute_wins(rules: Any, state: Any, memo: dict[Any, bool]) -> bool:
    """Whether the seat to move wins, by plain search over the engine's own actions
    (stopping at the first winning one): no reductions, no book."""
    key = (state.turn, state.pawns, state.blocked)
    if key not in memo:
        memo[key] = any(
            ((child := rules.apply(state, action)).turn is None
            and rules.result(child).winner == state.turn)
            or (child.turn is not None and not brute_wins(rules, child, memo))
            for action in rules.legal_actions(state))
    return memo[key]


def _key(state: Any) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _json(key: str) -> Any:
    return json.loads(key)


def sampled(kind: str, plies: int, seed: int, level: str = "easy") -> Any:
    """A running position after ``plies`` plies of ``level`` play (the first of the
    seed's games that lasts that long)."""
    rules = engine.get(kind)
    rng = random.Random(seed)
    for _ in range(100):
        state = rules.initial()
        for _ in range(plies):
            if state.turn is None:
                break
            action = bots.choose(rules, state, level, seed=rng.randrange(10**6))
            state = rules.apply(state, action)
        if state.turn is not None:
            return state
    raise AssertionError(f"no {kind} game of {level} lasted {plies} plies")


def test_blockade_x_wins_exactly_from_the_13_cells_of_one_colour() -> None:
    full = (1 << 25) - 1
    winning = [v for v, won in solve.place_moves(full, None) if won]
    assert winning == [v for v in range(25) if (v // 5 + v % 5) % 2 == 0]
    rules = engine.get("blockade")
    verdict = bots.solve(rules, rules.initial())
    assert verdict is not None and verdict.win


@pytest.mark.parametrize("seed", range(12))
def test_blockade_values_and_plies_agree_with_brute_force(seed: int) -> None:
    rules = engine.get("blockade")
    state = sampled("blockade", 7 + seed % 5, seed)
    choice = bots.think(rules, state, "perfect", seed=1, nodes=BUDGET, budget_s=60)
    verdict = choice.verdict or bots.solve(rules, state, budget_s=60)
    won, plies = brute(rules, state)
    assert verdict is not None and (verdict.win, verdict.plies) == (won, plies)


@pytest.mark.parametrize("seed", range(12))
def test_blockade_run_values_agree_with_brute_force(seed: int) -> None:
    rules = engine.get("blockade_run")
    state = sampled("blockade_run", 10 + seed % 3, seed)
    memo: dict[int, bool] = {}
    me, other = INDEX[state.pawns[state.turn]], INDEX[state.pawns[1 - state.turn]]
    empty = ((1 << 25) - 1) & ~state.blocked & ~(1 << me | 1 << other)
    pos = solve.RunPosition.make(state.turn, me, other, empty)
    assert solve.run_wins(pos, solve.Nodes(BUDGET), memo) == brute_wins(rules, state, {})


def _play(kind: str, state: Any, perfect_seat: int, opponent: str, seed: int) -> int | None:
    rules = engine.get(kind)
    while state.turn is not None:
        level = "perfect" if state.turn == perfect_seat else opponent
        nodes = BUDGET if level == "perfect" else 200 if level == "hard" else None
        action = bots.choose(rules, state, level, seed=seed, nodes=nodes, budget_s=60)
        assert rules.is_legal(state, action)
        state = rules.apply(state, action)
    return rules.result(state).winner


@pytest.mark.parametrize("opponent", ["easy", "medium", "hard"])
def test_perfect_wins_blockade_as_x_against_every_level(opponent: str) -> None:
    rules = engine.get("blockade")
    for seed in range(3):
        assert _play("blockade", rules.initial(), 0, opponent, seed) == 0


@pytest.mark.parametrize("opponent", ["easy", "medium", "hard"])
def test_perfect_never_loses_a_won_position(opponent: str) -> None:
    """From sampled positions where the seat to move wins, perfect wins every game."""
    played = 0
    for kind, plies in (("blockade", 3), ("blockade", 6), ("blockade_run", 10),
                        ("blockade_run", 12)):
        rules = engine.get(kind)
        for seed in range(4):
            state = sampled(kind, plies, seed)
            verdict = bots.solve(rules, state, budget_s=60)
            if verdict is None or not verdict.win:
                continue
            played += 1
            assert _play(kind, state, state.turn, opponent, seed) == state.turn, (kind, seed)
    assert played >= 4


def test_perfect_takes_a_proved_win_and_reports_it() -> None:
    rules = engine.get("blockade_run")
    # red on c3, green has just left c4: the step to c4 wins at once
    state = rules.replay(rules.parse_game("c1^a0 d4^a1 c2^a2 d3^b0 c3^b1 d2^e0"))
    choice = bots.think(rules, state, "perfect", seed=1)
    assert rules.format_action(choice.action) == "c4"
    assert choice.verdict is not None and choice.verdict.to_json() == {
        "value": "win", "exact": True, "plies": None}
