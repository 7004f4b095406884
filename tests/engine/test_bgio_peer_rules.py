"""bench/bgio/rules.js, the Bloqueio that boardgame.io serves in issue 46's comparison,
is the engine's: a peer that accepted an illegal move or refused a legal one would be
measured on another game (docs/performance.md, "boardgame.io, the peer (bench/bgio)").
A ruling that changes the engine fails here until the port follows it. Needs Node.js
(.ci/run installs it, as for the page modules' tests): without it this fails."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

CROSSCHECK = Path(__file__).resolve().parents[2] / "bench" / "bgio" / "crosscheck.py"


def test_the_peers_rules_agree_with_the_engine_position_by_position() -> None:
    assert shutil.which("node"), "Node.js is needed (apt-get install nodejs)"
    done = subprocess.run([sys.executable, str(CROSSCHECK), "10", "4646"],
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-500:]
    assert done.stdout.strip().endswith(" 0 difference(s)"), done.stdout
