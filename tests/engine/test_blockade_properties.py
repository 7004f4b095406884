"""Property tests of the blockade kinds: random seeded games keep every invariant
(junk input: test_engine_properties.py)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.blockade import Place, Run
from tests.engine.helpers import check_game, random_game

KINDS = ("blockade", "blockade_run")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def candidates(rules: Any, rng: random.Random) -> list[Any]:
    """Well-formed actions, mostly illegal: any cell, any block, pass."""

    def cell() -> tuple[int, int]:
        return (rng.randrange(5), rng.randrange(5))

    out: list[Any] = [engine.PASS]
    for _ in range(12):
        blockade = rules.kind == "blockade"
        out.append(Place(cell()) if blockade else Run(cell(), rng.choice([None, cell()])))
    return out


@SETTINGS
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32), leave=st.sampled_from([0, 0.03]))
def test_random_games_keep_invariants(kind: str, seed: int, leave: float) -> None:
    rules = engine.get(kind)
    events, states = random_game(rules, seed, leave_rate=leave)
    check_game(rules, events, states, random.Random(seed ^ 0x5EED), candidates=candidates)
    for state in states:
        assert not rules.must_pass(state)
        result = rules.result(state)
        if result is not None:
            assert sorted(result.ranking) == [1, 2]
            continue
        assert engine.PASS not in rules.legal_actions(state)
        for seat in range(rules.seats):
            value = rules.measure(state, seat)
            assert value is None or value >= 0
        mover_mobility = rules.measure(state, state.turn)
        assert mover_mobility is not None and mover_mobility > 0


def test_every_reachable_blockade_opening_round_trips() -> None:
    """Exhaustively, the first five plies of Blockade: every state reads back equal."""
    rules = engine.get("blockade")
    frontier = [rules.initial()]
    for _ in range(5):
        nxt = []
        for state in frontier:
            for action in rules.legal_actions(state):
                child = rules.apply(state, action)
                assert rules.state_from_json(child.to_json()) == child
                nxt.append(child)
        frontier = nxt
    assert len(frontier) > 300
    assert all((rules.result(s) is None) == (s.turn is not None) for s in frontier)
    assert any(s.turn is None for s in frontier)  # a corner start can be blocked by ply 5
