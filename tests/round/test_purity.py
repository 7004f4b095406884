"""The round model is pure: importing and playing it loads no Django (nor any I/O)."""

from __future__ import annotations

from tests.purity import impure_modules

PROBE = """
from datetime import datetime, timezone
from games import round as rnd
now = datetime(2026, 1, 1, tzinfo=timezone.utc)
game = rnd.start("bloqueio", {"initial": 60, "increment": 2}, now)
rnd.play(game, 0, rnd.Act({"type": "move", "to": [2, 5]}, 0), now)
"""


def test_the_round_package_imports_no_django():
    assert impure_modules(PROBE) == "[]"
