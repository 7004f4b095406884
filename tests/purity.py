"""Run a probe in a fresh interpreter and list the impure modules it loaded (Django, the
database and Redis clients, channels, sockets): the pure packages' tests want none."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

REPORT = """
print(sorted(m for m in sys.modules if m.split(".")[0] in ("django", "psycopg", "redis",
                                                           "channels", "socket")))
"""


def impure_modules(probe: str, *, timeout: int = 60) -> str:
    """What the probe (Python source) loaded of those, as printed: "[]" when pure."""
    done = subprocess.run([sys.executable, "-c", "import sys\n" + probe + REPORT], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
