"""The engine and the bots are pure: every registered family's rules and its bot module
(named by its registration) load no Django, nor any I/O."""

from __future__ import annotations

from tests.purity import impure_modules

PROBE = """
from games import bots, engine
for kind in engine.KINDS:
    rules = engine.get(kind)
    state = rules.initial()
    for level in bots.levels(rules):
        state = rules.apply(state, bots.choose(rules, state, level, seed=1, nodes=50))
    bots.explain(rules, state, bots.choose(rules, state, "medium", seed=2))
"""


def test_the_engine_and_every_familys_bot_import_no_django():
    assert impure_modules(PROBE, timeout=120) == "[]"
