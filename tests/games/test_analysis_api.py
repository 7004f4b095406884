"""GET /api/games/{id}/analysis/ and .../analysis/{ply}/best/: the engine's measure per
seat and ply, the hard bot's choice at a ply; cached, throttled, refused with codes."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from games import analysis, bots, engine, services
from games.api.analysis_views import BestMoveThrottle
from tests.conftest import clear_cache, client_for
from tests.games.helpers import play, started_game
from tests.live.servers import http_json, live_servers

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttle() -> None:
    # User ids restart with each test database while Redis keeps the throttle's history
    # for a minute: every test counts from zero (in the same Redis production uses).
    clear_cache("throttle_")


def _first_legal(kind: str, plies: int) -> list[dict[str, Any]]:
    """`plies` actions: the first legal action each time (deterministic, always legal)."""
    rules = engine.get(kind)
    state, actions = rules.initial(), []
    for _ in range(plies):
        action = rules.legal_actions(state)[0]
        actions.append(action.to_json())
        state = rules.apply(state, action)
    return actions


def _states(kind: str, game_id: int) -> list[Any]:
    """The engine's state after every ply, from the events the API serves."""
    rules = engine.get(kind)
    events = client_for(None).get(f"/api/games/{game_id}/export/").json()["notation"]
    state, states = rules.initial(), [rules.initial()]
    for event in rules.parse_game(events):
        state = rules.apply_event(state, event)
        states.append(state)
    return states


@pytest.mark.parametrize(("kind", "plies"), [
    ("bloqueio2", 9), ("quoridor4", 6), ("blockade", 5), ("blockade_run", 4), ("blokus_duo", 6),
])
def test_the_series_is_the_engines_measure_at_every_ply(players, kind, plies):
    rules = engine.get(kind)
    users = players[:rules.seats]
    game = play(started_game(users, kind=kind), users, _first_legal(kind, plies))
    response = client_for(None).get(f"/api/games/{game.pk}/analysis/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["game"] == game.pk
    assert body["ply"] == game.ply >= plies
    assert body["measure"] == {"name": rules.info.measure_name,
                               "higher_is_better": rules.info.measure_higher_is_better}
    expected = [[rules.measure(state, seat) for seat in range(rules.seats)]
                for state in _states(kind, game.pk)]
    assert body["series"] == expected
    assert len(body["series"]) == game.ply + 1


def test_a_finished_game_is_analysed_for_anyone_including_the_leaver(alice, bob):
    game = play(started_game([alice, bob], kind="quoridor"), [alice, bob],
                _first_legal("quoridor", 4))
    services.resign(game_id=game.pk, user=bob)
    body = client_for(None).get(f"/api/games/{game.pk}/analysis/").json()
    assert body["ply"] == 5
    assert body["series"][0] == [8, 8]
    assert body["series"][5][1] is None  # bob's pawn left: no distance any more
    assert body["measure"] == {"name": "steps to goal", "higher_is_better": False}


def test_blokus_scores_race_from_minus_the_hand(alice, bob):
    game = play(started_game([alice, bob], kind="blokus_duo"), [alice, bob],
                _first_legal("blokus_duo", 2))
    body = client_for(alice).get(f"/api/games/{game.pk}/analysis/").json()
    assert body["measure"] == {"name": "score", "higher_is_better": True}
    assert body["series"][0] == [-89, -89]
    assert body["series"][1][0] > body["series"][0][0]


def test_ranked_games_are_refused_until_they_are_over(alice, bob, carol):
    game = started_game([alice, bob], kind="bloqueio2", ranked=True)
    for user in (alice, bob, carol, None):  # players and spectators alike
        for url in (f"/api/games/{game.pk}/analysis/", f"/api/games/{game.pk}/analysis/0/best/"):
            refused = client_for(user).get(url)
            assert (refused.status_code, refused.json()["code"]) == (403, "no_analysis_in_ranked")
    services.resign(game_id=game.pk, user=bob)
    assert client_for(carol).get(f"/api/games/{game.pk}/analysis/").status_code == 200
    assert client_for(carol).get(f"/api/games/{game.pk}/analysis/0/best/").status_code == 200


def test_live_casual_games_are_open_to_players_and_spectators(alice, bob, carol):
    game = started_game([alice, bob], kind="bloqueio2")
    for user in (alice, carol, None):
        assert client_for(user).get(f"/api/games/{game.pk}/analysis/").status_code == 200
        assert client_for(user).get(f"/api/games/{game.pk}/analysis/0/best/").status_code == 200


def test_plies_out_of_range_and_finished_positions_have_codes(alice, bob):
    game = play(started_game([alice, bob], kind="blockade"), [alice, bob],
                _first_legal("blockade", 2))
    client = client_for(alice)
    beyond = client.get(f"/api/games/{game.pk}/analysis/{game.ply + 1}/best/")
    assert (beyond.status_code, beyond.json()["code"]) == (400, "ply_out_of_range")
    huge = client.get(f"/api/games/{game.pk}/analysis/{10 ** 30}/best/")
    assert (huge.status_code, huge.json()["code"]) == (400, "ply_out_of_range")
    assert client.get(f"/api/games/{game.pk}/analysis/-1/best/").status_code == 404
    assert client.get("/api/games/999999/analysis/").json()["code"] == "not_found"
    assert client.get("/api/games/999999/analysis/0/best/").json()["code"] == "not_found"
    services.resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    over = client.get(f"/api/games/{game.pk}/analysis/{game.ply}/best/")
    assert (over.status_code, over.json()["code"]) == (400, "no_seat_to_move")
    assert client.post(f"/api/games/{game.pk}/analysis/", {}, format="json").status_code == 405


@pytest.mark.parametrize(("kind", "plies"), [
    ("bloqueio2", 4), ("quoridor4", 3), ("blockade", 3), ("blockade_run", 2), ("blokus_duo", 4),
])
def test_the_best_move_is_legal_at_its_ply(players, kind, plies):
    rules = engine.get(kind)
    users = players[:rules.seats]
    game = play(started_game(users, kind=kind), users, _first_legal(kind, plies))
    states = _states(kind, game.pk)
    for ply in (0, plies // 2, game.ply):
        response = client_for(None).get(f"/api/games/{game.pk}/analysis/{ply}/best/")
        assert response.status_code == 200, response.json()
        body = response.json()
        state = states[ply]
        assert (body["game"], body["ply"], body["seat"], body["level"]) == (
            game.pk, ply, state.turn, bots.strongest(rules, "hard"))
        assert rules.is_legal(state, body["action"]).ok, body
        action = rules.parse_action(body["action"])
        assert rules.format_action(action) == body["notation"]
        assert isinstance(body["reason"], str) and body["reason"]
        assert body["nodes"] >= 0 and body["depth"] >= 0 and body["ms"] >= 0


def test_the_best_move_is_searched_once_then_cached(alice, bob, monkeypatch):
    game = started_game([alice, bob], kind="quoridor")
    calls = []
    think = analysis.bots.think

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return think(*args, **kwargs)

    monkeypatch.setattr(analysis.bots, "think", counting)
    url = f"/api/games/{game.pk}/analysis/0/best/"
    first = client_for(alice).get(url).json()
    second = client_for(None).get(url).json()
    assert first == second
    assert len(calls) == 1
    assert calls[0]["seed"] == game.pk and calls[0]["budget_s"] <= 0.5
    assert cache.get(analysis._key(game, "best", 0)) == first


def test_the_series_is_computed_once_per_ply_then_cached(alice, bob, monkeypatch):
    game = started_game([alice, bob], kind="quoridor")
    calls = []
    compute = analysis.compute_series
    monkeypatch.setattr(analysis, "compute_series",
                        lambda g: calls.append(g.ply) or compute(g))
    url = f"/api/games/{game.pk}/analysis/"
    assert client_for(None).get(url).json()["ply"] == 0
    assert client_for(alice).get(url).json()["ply"] == 0
    assert calls == [0]
    game = play(game, [alice, bob], _first_legal("quoridor", 1))
    assert client_for(None).get(url).json()["ply"] == 1  # a new ply, a new series
    assert calls == [0, 1]
    assert cache.get(analysis._key(game, "series", 1))["series"] == [[8, 8], [7, 8]]


def test_searches_are_throttled_but_cached_answers_are_not(alice, bob, monkeypatch):
    monkeypatch.setattr(BestMoveThrottle, "rate", "2/min")
    game = play(started_game([alice, bob], kind="blockade"), [alice, bob],
                _first_legal("blockade", 3))
    client = client_for(alice)
    url = f"/api/games/{game.pk}/analysis/{{}}/best/"
    assert client.get(url.format(0)).status_code == 200
    assert client.get(url.format(1)).status_code == 200
    limited = client.get(url.format(2))
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")
    assert int(limited["Retry-After"]) > 0
    assert client.get(url.format(0)).status_code == 200  # cached: no search, no count
    assert client_for(bob).get(url.format(2)).status_code == 200  # per user
    anon = client_for(None)  # signed out: per address
    assert anon.get(url.format(3)).status_code == 200
    assert anon.get(f"/api/games/{game.pk}/analysis/0/best/").status_code == 200  # cached
    other = play(started_game([alice, bob], kind="blockade"), [alice, bob],
                 _first_legal("blockade", 1))
    assert anon.get(f"/api/games/{other.pk}/analysis/0/best/").status_code == 200
    assert anon.get(f"/api/games/{other.pk}/analysis/1/best/").json()["code"] == "rate_limited"


def test_the_schema_documents_both_endpoints(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    best = schema["paths"]["/api/games/{game_id}/analysis/{ply}/best/"]["get"]
    assert {"200", "400", "403", "404", "429"} <= set(best["responses"])
    series = schema["paths"]["/api/games/{game_id}/analysis/"]["get"]
    assert {"200", "403", "404"} <= set(series["responses"])


def test_a_signed_out_client_cannot_pick_its_own_address(alice, bob, monkeypatch):
    """The throttle keys a signed-out client on the address the server saw, never on an
    `X-Forwarded-For` the client wrote itself (a new header a request bought a fresh
    allowance each time)."""
    monkeypatch.setattr(BestMoveThrottle, "rate", "2/min")
    game = play(started_game([alice, bob], kind="blockade"), [alice, bob],
                _first_legal("blockade", 3))
    anon = client_for(None)
    answers = [anon.get(f"/api/games/{game.pk}/analysis/{ply}/best/",
                        HTTP_X_FORWARDED_FOR=f"203.0.113.{ply}").status_code
               for ply in range(3)]
    assert answers == [200, 200, 429]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_every_server_process_counts_against_one_allowance(alice, bob, tmp_path):
    """As production runs it: two server processes, one Redis. Searches on either count
    against the account's one allowance, so alternating between them buys nothing."""
    most = int(BestMoveThrottle.rate.split("/")[0])
    game = play(started_game([alice, bob], kind="blockade"), [alice, bob],
                _first_legal("blockade", most + 2))

    def best(server: Any, ply: int, user: Any) -> tuple[int, Any]:
        return http_json("GET", f"{server.http}/api/games/{game.pk}/analysis/{ply}/best/",
                         token=user.auth_token.key)

    with live_servers(2, tmp_path) as servers:
        answers = [best(servers[ply % 2], ply, alice)[0] for ply in range(most)]
        assert answers == [200] * most  # half of them on each process
        for server in servers:
            status, body = best(server, most, alice)
            assert status == 429 and body["code"] == "rate_limited", (status, body)
        assert best(servers[1], 0, alice)[0] == 200  # cached: free, on either process
        assert best(servers[0], most, bob)[0] == 200  # bob's own allowance


@pytest.mark.parametrize(("kind", "moves"), [
    ("blockade", "b1 b2"),  # X's first mark on a light square: O to move wins
    ("blockade_run", "b0^c3"),  # red's proved winning first move: green loses
])
def test_the_solved_kinds_show_the_exact_value_for_the_seat_to_move(players, kind, moves):
    rules = engine.get(kind)
    users = players[:2]
    actions = [a.to_json() for a in rules.parse_game(moves)]
    game = play(started_game(users, kind=kind), users, actions)
    start = client_for(None).get(f"/api/games/{game.pk}/analysis/0/best/").json()
    assert (start["level"], start["value"], start["exact"]) == ("perfect", "win", True)
    later = client_for(None).get(f"/api/games/{game.pk}/analysis/{game.ply}/best/").json()
    state = rules.replay(rules.parse_game(moves))
    verdict = bots.solve(rules, state, budget_s=30)
    assert verdict is not None
    assert (later["value"], later["exact"]) == ("win" if verdict.win else "loss", True)
    assert later["plies"] in (None, verdict.plies)  # None: not counted within the budget
    quoridor = started_game(users, kind="quoridor")
    plain = client_for(None).get(f"/api/games/{quoridor.pk}/analysis/0/best/").json()
    assert "value" not in plain and "exact" not in plain
