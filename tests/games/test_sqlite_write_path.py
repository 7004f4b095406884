"""The one write path on SQLite, the embedded default of `make run`: the guard and the
insert run as two statements in one transaction. Played in a fresh interpreter on a
throwaway SQLite file (the test session itself is on PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.settings_probe import run

pytestmark = pytest.mark.slow

SCRIPT = """
import json
from datetime import timedelta
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from accounts.models import User
from games import services
from games.errors import GameError
from games.models import Event, Game
from games.ranked import clocks

alice, bob, carol = (User.objects.create_user(n, password="pw-123456789") for n in
                     ("alice", "bob", "carol"))
out = {}
game = services.create_game(user=alice, kind="bloqueio2",
                            time_control={"initial": 60, "increment": 2})
services.join_game(game_id=game.pk, user=bob)
moves = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [9, 4]},
         {"type": "move", "to": [3, 5]}]
for ply, (user, move) in enumerate(zip([alice, bob, alice], moves)):
    services.submit_action(game_id=game.pk, user=user, action=move, ply=ply)
refusals = []
for user, move, ply in [(alice, moves[0], 1), (alice, {"type": "move", "to": [8, 4]}, 3),
                        (bob, {"type": "move", "to": [0, 0]}, 3)]:
    try:
        services.submit_action(game_id=game.pk, user=user, action=move, ply=ply)
    except GameError as exc:
        refusals.append(exc.code)
out["refusals"] = refusals
services.resign(game_id=game.pk, user=bob)
game.refresh_from_db()
out["first"] = [game.status, game.ply, game.result["winner"], game.result["reason"]]
out["events"] = list(Event.objects.filter(game=game).values_list("ply", "seat"))

flagged = services.create_game(user=carol, kind="bloqueio2",
                               time_control={"initial": 60, "increment": 2})
services.join_game(game_id=flagged.pk, user=bob)
flagged.refresh_from_db()
late = flagged.started_at + timedelta(seconds=clocks.FIRST_MOVE_SECONDS + 1)
for beat in range(0, clocks.FIRST_MOVE_SECONDS + 1, 5):  # the worker watched
    clocks.catch_up(flagged.started_at + timedelta(seconds=beat))
out["flag"] = [clocks.tick(late), Game.objects.get(pk=flagged.pk).status]

waiting = services.create_game(user=alice, kind="quoridor")
services.abort_game(game_id=waiting.pk)
out["abort"] = Game.objects.get(pk=waiting.pk).status
call_command("rebuild_games", check=True, verbosity=0)
out["rebuild"] = "ok"
print(json.dumps(out))
"""


def test_a_game_is_played_resigned_flagged_and_aborted_on_sqlite(tmp_path: Path):
    done = run(["-c", SCRIPT], DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["refusals"] == ["stale_ply", "not_your_turn", "illegal_action"]
    assert out["first"] == ["finished", 4, 0, "last_standing"]
    assert out["events"] == [[1, 0], [2, 1], [3, 0], [4, 1]]
    assert out["flag"] == [1, "aborted"]  # carol never made her first move
    assert out["abort"] == "aborted"
    assert out["rebuild"] == "ok"
