"""Page views: lobby, game, replay, leaderboard, board.svg and the legality check."""

from __future__ import annotations

import json
import re

import pytest

from games import engine, services
from games.boards import page_spec
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    """A two-seat Bloqueio game three plies in: red f2, green e9, red e3h."""
    g = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=g.pk, user=bob)
    for user, ply, action in [
        (alice, 0, {"type": "move", "to": [2, 5]}),
        (bob, 1, {"type": "move", "to": [9, 4]}),
        (alice, 2, {"type": "barrier", "at": [3, 4], "orientation": "H"}),
    ]:
        services.submit_action(game_id=g.pk, user=user, action=action, ply=ply)
    return g


def embedded(response, name):
    match = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)
    assert match, name
    return json.loads(match.group(1))


def pawns(svg: str) -> dict[int, tuple[int, int]]:
    found = re.findall(r'class="pawn" data-seat="(\d)" data-row="(\d+)" data-col="(\d+)"', svg)
    return {int(s): (int(r), int(c)) for s, r, c in found}


def test_lobby_renders_for_visitors_and_players(client, alice, game):
    assert b"Open games" in client.get("/").content
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert "Create game" in page and "Play ranked" in page
    assert f"/games/{game.pk}/" in page  # your games


def test_create_and_join_through_the_forms(client, alice, bob):
    client.force_login(alice)
    response = client.post("/games/new/", {"kind": "quoridor", "ranked": "0",
                                           "time_control": "300+3"})
    assert response.status_code == 302
    game_id = int(response["Location"].strip("/").split("/")[-1])
    client.force_login(bob)
    assert client.post(f"/games/{game_id}/join/").status_code == 302
    data = embedded(client.get(f"/games/{game_id}/"), "game-data")
    assert data["game"]["status"] == "active"
    assert data["game"]["time_control"] == {"initial": 300, "increment": 3}
    assert data["me"] == {"username": "bob", "seat": 1, "moderator": False}


def test_create_refuses_an_unknown_kind(client, alice):
    client.force_login(alice)
    response = client.post("/games/new/", {"kind": "chess", "time_control": ""}, follow=True)
    assert b"Unknown game kind" in response.content


def test_create_needs_a_login(client):
    response = client.post("/games/new/", {"kind": "quoridor"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_game_page_embeds_game_spec_and_move_list(client, game):
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    data = embedded(response, "game-data")
    assert data["game"]["ply"] == 3
    assert [e["text"] for e in data["events"]] == ["f2", "e9", "e3h"]
    assert data["spec"] == page_spec("bloqueio2")
    assert data["me"]["seat"] is None
    assert "presence" in data["game"]


def test_missing_game_pages_are_404(client):
    for url in ("/games/999/", "/games/999/replay/", "/games/999/board.svg",
                "/games/999/check?action={}", "/leaderboard/chess/"):
        assert client.get(url).status_code == 404, url


def test_replay_embeds_the_state_of_every_ply_matching_the_engine(client, game):
    response = client.get(f"/games/{game.pk}/replay/?ply=2")
    data = embedded(response, "replay-data")
    assert data["ply"] == 2
    rules = engine.get("bloqueio2")
    actions = [e["action"] for e in data["events"]]
    assert len(data["states"]) == len(actions) + 1
    for ply, state in enumerate(data["states"]):
        assert state == rules.replay(actions[:ply]).to_json()


@pytest.mark.parametrize("ply", ["-1", "4", "x", "1.5", "²", "٣"])
def test_bad_ply_is_400(client, game, ply):
    assert client.get(f"/games/{game.pk}/board.svg?ply={ply}").status_code == 400
    assert client.get(f"/games/{game.pk}/replay/?ply={ply}").status_code == 400


def test_board_svg_draws_the_position_at_a_ply(client, game):
    response = client.get(f"/games/{game.pk}/board.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    assert svg.startswith("<svg") and 'data-ply="3"' in svg
    assert pawns(svg) == {0: (2, 5), 1: (9, 4)}
    assert 'class="wall" data-at="3,4" data-orientation="H" data-seat="0"' in svg
    first = client.get(f"/games/{game.pk}/board.svg?ply=0").content.decode()
    assert pawns(first) == {0: (1, 5), 1: (9, 5)}
    assert 'class="wall"' not in first


def test_board_svg_of_every_kind_draws_its_start(client, alice, monkeypatch):
    monkeypatch.setattr(services, "OPEN_GAMES_PER_USER", 100)  # one waiting game a kind
    for kind in engine.KINDS:
        g = services.create_game(user=alice, kind=kind)
        response = client.get(f"/games/{g.pk}/board.svg")
        assert response.status_code == 200, kind
        svg = response.content.decode()
        assert svg.startswith("<svg") and f'data-kind="{kind}"' in svg, kind
        start = engine.get(kind).initial().to_json().get("pawns", [])
        assert pawns(svg) == {s: tuple(p) for s, p in enumerate(start) if p}, kind


def test_check_gives_the_engines_reason(client, alice, bob, game):
    def check(action, user=None):
        client.logout()
        if user:
            client.force_login(user)
        return client.get(f"/games/{game.pk}/check",
                          {"action": json.dumps(action)}).json()

    # Green (bob) is to move after red's barrier.
    assert check({"type": "move", "to": [8, 4]}, bob) == {"ok": True, "reason": None}
    assert check({"type": "move", "to": [0, 4]}, bob)["reason"] == "cell [0,4] is not reachable"
    assert check({"type": "barrier", "at": [3, 4], "orientation": "V"}, bob)["reason"] \
        == "barrier crosses H at [3,4]"
    assert check({"type": "move", "to": [3, 5]}, alice)["reason"] == "not your turn"
    assert check({"type": "move", "to": ["x"]}, bob)["ok"] is False
    assert client.get(f"/games/{game.pk}/check?action=nope").status_code == 400


@pytest.mark.parametrize("raw", ["[" * 100_000, '{"type": "move", "to": [NaN, 1]}', ""])
def test_check_refuses_junk_json_with_400(client, game, raw):
    response = client.get(f"/games/{game.pk}/check", {"action": raw})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_leaderboard_pages(client):
    assert client.get("/leaderboard/").status_code == 200
    page = client.get("/leaderboard/quoridor/").content.decode()
    assert 'data-kind="quoridor"' in page


def test_profile_links_recent_games_to_replays(client, game):
    page = client.get("/users/alice/").content.decode()
    assert f"/games/{game.pk}/replay/" in page
    assert 'id="profile-data"' in page
    # The game's name and the colour played, as people read them.
    assert "Bloqueio (2 players)" in page and "Red · " in page and "seat 0" not in page


def test_the_kinds_endpoint_lists_every_kind_with_what_a_client_shows(client):
    response = client.get("/api/kinds/")
    assert response.status_code == 200
    kinds = response.json()
    assert [k["kind"] for k in kinds] == list(engine.KINDS)
    for row in kinds:
        info = engine.get(row["kind"]).info
        assert row == info.to_json()
        assert len(row["colour_seats"]) == len(row["colours"])
        assert row["clock"]["initial"] >= 60


def test_play_again_creates_a_game_of_the_same_kind_and_clock(client, alice):
    client.force_login(alice)
    response = client.post("/games/new/", {"kind": "blockade", "time_control": "60+2",
                                           "ranked": "0"})
    assert response.status_code == 302
    game = Game.objects.order_by("-pk").first()
    assert (game.kind, game.time_control) == ("blockade", {"initial": 60, "increment": 2})
    bad = client.post("/games/new/", {"kind": "blockade", "time_control": "1+0"}, follow=True)
    assert b"time_control" in bad.content  # the service's refusal, shown to the player


def test_the_last_player_to_join_is_told_the_game_has_started(client, alice, bob):
    game = services.create_game(user=alice, kind="bloqueio2")
    client.force_login(bob)
    page = client.post(f"/games/{game.pk}/join/", follow=True).content.decode()
    assert "the game has started" in page
