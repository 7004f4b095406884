"""GET /api/games/{id}/hint/: the medium bot's suggestion for your own turn, casual
games only; every refusal has its code."""

from __future__ import annotations

import pytest

from games import bots, engine
from tests.conftest import client_for
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", ["bloqueio2", "blockade_run", "blokus_duo"])
def test_a_hint_is_a_legal_action_with_a_reason(alice, bob, kind):
    game = started_game([alice, bob], kind=kind)
    response = client_for(alice).get(f"/api/games/{game.pk}/hint/")
    assert response.status_code == 200, response.json()
    body = response.json()
    rules = engine.get(kind)
    state = rules.state_from_json(game.state)
    assert rules.is_legal(state, body["action"])
    assert rules.format_action(rules.parse_action(body["action"])) == body["notation"]
    assert body["reason"]
    again = client_for(alice).get(f"/api/games/{game.pk}/hint/").json()
    assert again == body  # the same position, the same hint
    played = client_for(alice).post(f"/api/games/{game.pk}/actions/",
                                    {"action": body["action"], "ply": 0}, format="json")
    assert played.status_code == 201


def test_hints_are_refused_with_codes(alice, bob, carol):
    game = started_game([alice, bob], kind="bloqueio2")
    url = f"/api/games/{game.pk}/hint/"
    assert client_for(bob).get(url).json()["code"] == "not_your_turn"
    assert client_for(carol).get(url).json()["code"] == "not_a_player"
    assert client_for(None).get(url).status_code == 401
    ranked = started_game([alice, bob], kind="bloqueio2", ranked=True)
    refused = client_for(alice).get(f"/api/games/{ranked.pk}/hint/")
    assert (refused.status_code, refused.json()["code"]) == (403, "no_hints_in_ranked")
    assert client_for(alice).get("/api/games/9999/hint/").status_code == 404


def test_a_hint_in_a_solved_kind_says_who_wins_with_best_play(alice, bob):
    game = started_game([alice, bob], kind="blockade")
    body = client_for(alice).get(f"/api/games/{game.pk}/hint/").json()
    assert (body["value"], body["exact"]) == ("win", True)  # X wins Blockade
    rules = engine.get("blockade")
    after = rules.apply(rules.initial(), rules.parse_action(body["action"]))
    assert not bots.solve(rules, after).win  # the hint is a winning first mark
    plain = started_game([alice, bob], kind="quoridor")
    assert "value" not in client_for(alice).get(f"/api/games/{plain.pk}/hint/").json()
