"""The computer on the pages: the lobby's "Play against the computer" form (a plain form
post, like "Create game"), bot seats labelled on the game page, and a bot's profile."""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from games import engine, services
from games.bot_accounts import bot_account
from games.models import Game, Seat
from tests.games.test_pages import embedded

pytestmark = pytest.mark.django_db


def computer_form(kind: str, *levels: str, time_control: str = "", **extra: str) -> dict:
    return {"opponents": "computer", "kind": kind, "bots": list(levels),
            "time_control": time_control, **extra}


def messages_of(response) -> list[str]:
    return re.findall(r'<li class="error" role="alert">(.*?)</li>', response.content.decode())


def test_the_lobby_offers_the_computer_a_select_per_other_seat(client, alice):
    client.force_login(alice)
    page = client.get("/").content.decode()
    form = re.search(r'<form[^>]*id="computer-form".*?</form>', page, re.S).group(0)
    assert 'name="opponents" value="computer"' in form
    # Every kind, and one level select per seat besides yours in the largest game.
    for kind in engine.KINDS:
        assert f'<option value="{kind}">' in form
    most = max(engine.get(k).info.seats for k in engine.KINDS)
    assert len(re.findall(r'<select name="bots"', form)) == most - 1
    for level in ("easy", "medium", "hard"):
        assert f'<option value="{level}">' in form
    assert 'name="time_control"' in form


def test_playing_the_computer_starts_the_game_with_bots_on_every_other_seat(client, alice):
    client.force_login(alice)
    response = client.post("/games/new/", computer_form("quoridor4", "easy", "hard", "easy"))
    assert response.status_code == 302
    game = Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert game.status == "active" and not game.ranked and game.time_control is None
    seats = list(Seat.objects.filter(game=game).order_by("seat").select_related("user"))
    assert [(s.user.username, s.bot) for s in seats] == [
        ("alice", False), ("easy-bot", True), ("hard-bot", True), ("easy-bot", True)]


def test_the_unused_seat_selects_of_a_smaller_game_are_ignored(client, alice):
    # Without JavaScript every select is posted: "None" on the seats the game lacks.
    client.force_login(alice)
    response = client.post("/games/new/", computer_form("quoridor", "medium", "", "",
                                                        time_control="300+3"))
    game = Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert game.status == "active" and game.time_control == {"initial": 300, "increment": 3}
    assert Seat.objects.get(game=game, seat=1).user.bot_level == "medium"


@pytest.mark.parametrize(("form", "message"), [
    (computer_form("quoridor", "grandmaster"), "Unknown bot level"),
    (computer_form("quoridor", "easy", ranked="1"), "Ranked games are between people"),
    (computer_form("quoridor", "easy", "easy"), "seats besides yours"),
    (computer_form("quoridor4", "easy", ""), "for every other seat (this game has 3)"),
    (computer_form("chess", "easy"), "Unknown game kind"),
    (computer_form("quoridor", "easy", time_control="forever"), "Pick a time control"),
    (computer_form("quoridor", "easy", time_control="1+99"), "time_control"),
])
def test_bad_computer_forms_say_why_and_create_nothing(client, alice, form, message):
    client.force_login(alice)
    response = client.post("/games/new/", form)
    assert response.status_code == 302 and response["Location"] == "/#computer"
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert any(message in m for m in messages_of(page)), messages_of(page)
    assert not Game.objects.exists()


def test_the_plain_create_form_still_makes_a_waiting_game(client, alice):
    client.force_login(alice)
    response = client.post("/games/new/", {"kind": "quoridor", "time_control": "",
                                           "bots": ["easy"]})  # not the computer form
    game = Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert game.status == "waiting" and Seat.objects.filter(game=game).count() == 1


def test_the_game_page_labels_bot_seats_and_offers_the_levels(client, alice):
    game = services.create_game(user=alice, kind="quoridor", bots=["hard"])
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    data = embedded(response, "game-data")
    assert [s["bot"] for s in data["game"]["seats"]] == [None, "hard"]
    assert [b["level"] for b in data["bot_levels"]] == ["easy", "medium", "hard"]
    assert 'id="waiting-bots"' in response.content.decode()
    solved = services.create_game(user=alice, kind="blockade")  # `perfect` where solved
    data = embedded(client.get(f"/games/{solved.pk}/"), "game-data")
    assert [b["level"] for b in data["bot_levels"]] == ["easy", "medium", "hard", "perfect"]


def test_a_bot_profile_says_it_is_the_computer(client, alice):
    bot = bot_account("medium")
    client.force_login(alice)  # signed in, people's profiles have a Report button
    page = client.get(f"/users/{bot.username}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Computer (medium)" in text and 'class="pill bot"' in text
    assert "playing at the <b>medium</b> level" in text
    assert "Report" not in re.sub(r"<script.*?</script>", "", text, flags=re.S)
    assert embedded(page, "profile-data")["bot"] == "medium"


def test_a_person_profile_is_unchanged(client, alice):
    page = client.get("/users/alice/").content.decode()
    assert '<h1 id="profile-name">alice</h1>' in page and "Joined" in page
    assert 'class="pill bot"' not in page and not User.objects.get(username="alice").is_bot
