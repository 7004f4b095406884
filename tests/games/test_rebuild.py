"""`rebuild_games`: the projection is disposable and re-derived from the events."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from tests.games.helpers import play, started_game

pytestmark = pytest.mark.django_db

OPENING = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [5, 8]},
           {"type": "barrier", "at": [3, 4], "orientation": "H"}]


def test_check_passes_on_an_untouched_game(players, capsys):
    play(started_game(players), players, OPENING)
    call_command("rebuild_games", "--check")
    assert "0 drifted" in capsys.readouterr().out


def test_check_finds_a_tampered_projection_and_rebuild_repairs_it(players, capsys):
    game = play(started_game(players), players, OPENING)
    good_state = game.state
    tampered = dict(good_state, pawns=[[1, 5], [5, 9], [9, 5], [5, 1]], ply=2)
    Game.objects.filter(pk=game.pk).update(state=tampered, ply=2, status="finished",
                                           result={"winner": 0})
    with pytest.raises(CommandError, match="1 game projection"):
        call_command("rebuild_games", "--check")
    out = capsys.readouterr().out
    assert f"game {game.pk}: differs" in out
    assert "ply" in out and "state" in out and "result" in out and "status" in out

    call_command("rebuild_games")
    game.refresh_from_db()
    assert (game.state, game.ply, game.status, game.result) == (good_state, 3, "active", None)
    call_command("rebuild_games", "--check")
