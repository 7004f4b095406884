"""`manage.py run_worker` whose bots wait for the test before they think.

`python -m tests.live.held_worker HOLD run_worker [options]`: each move a bot is about
to think about (its turn claimed, games/computer.py) first leaves a file
`HOLD/thinking-<game id>-<ply>`, then waits until a file `HOLD/go` exists. A test thus
knows a worker is in the middle of a thought, and keeps it there as long as it likes
(to kill it there, say), whatever the machine's speed.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def main(hold: Path, options: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bloqueio_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from games import bots

    think = bots.choose

    def held(rules: Any, state: Any, level: str, *, seed: int, **search: Any) -> Any:
        (hold / f"thinking-{seed}-{state.ply}").touch()  # a bot's seed is its game's id
        while not (hold / "go").exists():
            time.sleep(0.02)
        return think(rules, state, level, seed=seed, **search)

    bots.choose = held
    call_command(*options)  # "run_worker" and its options


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
