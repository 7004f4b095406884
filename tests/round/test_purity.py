"""The round model is pure: importing and playing it loads no Django (nor any I/O)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import sys
from datetime import datetime, timezone
from games import round as rnd
now = datetime(2026, 1, 1, tzinfo=timezone.utc)
game = rnd.start("bloqueio", {"initial": 60, "increment": 2}, now)
rnd.play(game, 0, rnd.Act({"type": "move", "to": [2, 5]}, 0), now)
print(sorted(m for m in sys.modules if m.split(".")[0] in ("django", "psycopg", "redis",
                                                           "channels", "socket")))
"""


def test_the_round_package_imports_no_django():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
