"""The wall-clock cap that keeps every bot move within the server's budget (docs/bots.md):
given far more nodes than it could search, a thinking level stops at its deadline and
still answers a legal move. Nothing here times anything; the node count says the
deadline, not the node budget, ended the search."""

from __future__ import annotations

import pytest

from games import bots, engine

THINKING = [(kind, level) for kind in engine.KINDS
            for level in bots.levels(engine.get(kind)) if level in ("hard", "perfect")]
UNREACHABLE = 10**9  # nodes no search gets through in the test's lifetime


@pytest.mark.parametrize(("kind", "level"), THINKING)
def test_a_thinking_level_stops_at_its_deadline_with_a_legal_move(kind: str, level: str
                                                                  ) -> None:
    rules = engine.get(kind)
    state = rules.initial()
    choice = bots.think(rules, state, level, seed=1, nodes=UNREACHABLE, budget_s=0.05)
    assert rules.is_legal(state, choice.action)
    assert choice.nodes < UNREACHABLE
