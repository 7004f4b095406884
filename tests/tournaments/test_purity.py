"""The tournaments' core is pure: seating, standings and the arena load no Django, nor
any I/O, even when asked a kind's table size (from the engine's registry)."""

from __future__ import annotations

from tests.purity import impure_modules

PROBE = """
from games import engine
from tournaments import arena, seating, standings
sizes = {seating.table_size(kind) for kind in engine.KINDS}
entrants = [seating.Entrant(p, 0.0, 1500.0) for p in range(10)]
first = seating.seat_round(entrants, [], max(sizes), seed=1)
standings.standings([standings.RoundResult(first, tuple((1,) * len(t.seats)
                                                        for t in first.tables))], max(sizes))
arena.pair([arena.FreePlayer(1, 0, 1500.0), arena.FreePlayer(2, 0, 1500.0)], now=0.0)
"""


def test_the_tournaments_core_imports_no_django():
    assert impure_modules(PROBE) == "[]"
