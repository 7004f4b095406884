"""The worker's tournament job: start tournaments whose time has come, and move each
running one on to its next round once every table of the last has ended."""

from __future__ import annotations

from games.worker import register
from tournaments import services


@register("tournaments", interval=2)
def tournaments_tick() -> int:
    return services.advance_due()
