"""My games (issue #31): the caller's live games, theirs to move first, soonest deadline
first; the same list behind the page, `GET /api/me/games/` and the lobby's count."""

from __future__ import annotations

from django.test import Client

from games import services
from games.models import Game
from tests.conftest import client_for, make_user
from tests.games.helpers import started_game


def _mine(user) -> list[dict]:
    answer = client_for(user).get("/api/me/games/")
    assert answer.status_code == 200
    return answer.json()


def test_your_turn_first_soonest_deadline_first_then_the_newest(players, db):
    alice, bob, carol, dave = players
    casual = started_game(players)  # alice to move, untimed
    timed = started_game([bob, alice, carol, dave],
                         time_control={"initial": 300, "increment": 5})  # bob to move
    waiting = services.create_game(user=alice, kind="quoridor")
    later = started_game([carol, dave, bob, alice],
                         time_control={"initial": 60, "increment": 0})  # carol to move
    Game.objects.filter(pk=later.pk).update(deadline=timed.deadline)  # a tie on deadline
    games = _mine(alice)
    # Hers to move; then the timed ones (a tie on deadline: the newer first); then the
    # one still waiting for players (no deadline).
    assert [g["id"] for g in games] == [casual.pk, later.pk, timed.pk, waiting.pk]
    assert [g["your_turn"] for g in games] == [True, False, False, False]
    assert games[0]["seat"] == 0 and games[0]["turn"] == 0 and games[0]["deadline"] is None
    assert games[-1]["status"] == "waiting" and games[-1]["turn"] is None
    # Bob's own: his timed game (his turn, with a deadline) before the untimed rest.
    bobs = _mine(bob)
    assert bobs[0]["id"] == timed.pk and bobs[0]["your_turn"] and bobs[0]["deadline"]


def test_a_game_left_or_over_is_not_listed(players, db):
    alice = players[0]
    resigned = started_game(players)
    services.resign(game_id=resigned.pk, user=alice)
    over = started_game(players)
    for user in players[1:]:
        services.resign(game_id=over.pk, user=user)
    still = started_game(players)
    assert [g["id"] for g in _mine(alice)] == [still.pk]
    assert {g["id"] for g in _mine(players[1])} == {resigned.pk, still.pk}


def test_only_the_caller_reads_their_games(players, db):
    started_game(players)
    assert client_for(None).get("/api/me/games/").status_code == 401
    stranger = make_user("eve")
    assert _mine(stranger) == []
    assert Client().get("/games/mine/").status_code == 302  # to the log-in page


def test_the_page_and_the_lobby_count_read_the_same_list(players, db):
    alice = players[0]
    mine = started_game(players)  # alice's turn
    started_game([*players[1:], alice])  # bob's turn
    page = Client()
    page.force_login(alice)
    page_text = page.get("/games/mine/").content.decode()
    listed = page_text[page_text.index('id="my-games"'):]
    listed = listed[:listed.index("</ul>")]
    first = listed[listed.index("<li"):listed.index("</li>")]
    assert 'class="your-turn"' in first and f"#{mine.pk} " in first
    assert listed.count('class="your-turn"') == 1 and listed.count("<li") == 2
    lobby = page.get("/").content.decode()
    assert "2 games in play" in lobby and "your turn in 1" in lobby
    portuguese = page.get("/games/mine/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "Minhas partidas" in portuguese
