"""The recorded games of bench/games/ are what their README says: complete, legal games
that end with a goal by their `winner` after `plies` events, so the tests and benchmarks
that replay them over the API and sockets can trust every action to be accepted."""

from __future__ import annotations

from games import engine
from tests.conftest import recorded_games


def test_every_recorded_game_replays_to_its_winner() -> None:
    rules = engine.get("bloqueio")
    games = recorded_games()
    assert len(games) == 100
    for game in games:
        state = rules.replay(game["actions"])
        result = rules.result(state)
        assert result is not None, game["id"]
        assert (result.winner, result.reason, state.ply) == (
            game["winner"], "goal", game["plies"]), game["id"]
