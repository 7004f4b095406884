"""Property tests of the barrier kinds: random seeded playouts keep every invariant
(junk input: test_engine_properties.py)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.barrier import Action, Barrier, Move
from tests.engine.helpers import check_game, random_game

KINDS = ("bloqueio", "bloqueio2", "quoridor", "quoridor4")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_candidates(rules: Any, rng: random.Random) -> list[Action]:
    """Well-formed actions, mostly not legal: any cell, any anchor, pass."""
    g = rules.geometry
    out: list[Action] = [engine.PASS]
    for _ in range(6):
        out.append(Move((rng.randrange(g.grid), rng.randrange(g.grid))))
        r = rng.randint(g.anchor_lo, g.anchor_hi)
        c = rng.randint(g.anchor_lo, g.anchor_hi)
        out.append(Barrier((r, c), rng.choice("HV")))  # type: ignore[arg-type]
    return out


@SETTINGS
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32), plies=st.integers(1, 120))
def test_random_playouts_keep_invariants(kind: str, seed: int, plies: int) -> None:
    rules = engine.get(kind)
    events, states = random_game(rules, seed, plies=plies, leave_rate=0.01)
    check_game(rules, events, states, random.Random(seed ^ 0x5EED), sample=8,
               candidates=random_candidates)
    for state in states:
        for seat in range(rules.seats):
            if state.turn is not None and state.in_game[seat]:
                assert rules.shortest_path(state, seat) is not None, f"seat {seat} walled in"
