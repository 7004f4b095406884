"""The chat REST API: read what you may, post to your room, moderators delete."""

from __future__ import annotations

import pytest

from chat.models import ChatMessage
from tests.chat.conftest import post
from tests.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_post_returns_the_message_in_the_callers_room(game, alice, carol):
    response = client_for(alice).post(f"/api/games/{game.pk}/chat/",
                                      {"text": " hi\nthere "}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert {k: body[k] for k in ("room", "username", "text", "deleted")} == {
        "room": "players", "username": "alice", "text": "hi there", "deleted": False}
    assert body["id"] == ChatMessage.objects.get().pk
    assert client_for(carol).post(f"/api/games/{game.pk}/chat/", {"text": "go"},
                                  format="json").json()["room"] == "spectators"


def test_history_is_what_the_viewer_may_read(game, alice, bob, carol, anon):
    """While the game runs each side reads its own room: the players' talk never reaches
    an anonymous call (the page promises "Only the players read this room")."""
    post(game, alice, "gl")
    post(game, carol, "psst bob")
    post(game, bob, "ty")
    url = f"/api/games/{game.pk}/chat/"
    as_bob = client_for(bob).get(url).json()
    assert [m["text"] for m in as_bob["messages"]] == ["gl", "ty"]
    assert (as_bob["room"], as_bob["rooms"], as_bob["more"]) == ("players", ["players"], False)
    first = as_bob["messages"][0]["id"]
    assert [m["text"] for m in client_for(bob).get(f"{url}?after={first}").json()["messages"]] \
        == ["ty"]
    as_anon = anon.get(url).json()
    assert [m["text"] for m in as_anon["messages"]] == ["psst bob"]
    assert (as_anon["room"], as_anon["rooms"]) == (None, ["spectators"])
    as_carol = client_for(carol).get(url).json()
    assert [m["text"] for m in as_carol["messages"]] == ["psst bob"]
    assert (as_carol["room"], as_carol["rooms"]) == ("spectators", ["spectators"])


def test_history_is_capped_at_200_with_more(game, alice, anon):
    ChatMessage.objects.bulk_create([ChatMessage(game=game, author=alice, room="spectators",
                                                 text=str(i)) for i in range(201)])
    body = anon.get(f"/api/games/{game.pk}/chat/").json()
    assert len(body["messages"]) == 200 and body["more"] is True
    rest = anon.get(f"/api/games/{game.pk}/chat/?after={body['messages'][-1]['id']}").json()
    assert [m["text"] for m in rest["messages"]] == ["200"] and rest["more"] is False


@pytest.mark.parametrize("query", ["?after=x", "?after=-1", "?after=1&after=2", "?after="])
def test_a_bad_after_is_invalid(game, anon, query):
    response = anon.get(f"/api/games/{game.pk}/chat/{query}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_unknown_game_is_404(alice, anon):
    assert anon.get("/api/games/999999/chat/").status_code == 404
    response = client_for(alice).post("/api/games/999999/chat/", {"text": "x"}, format="json")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"text": "x" * 281}, 400, "too_long"),
    ({"text": "\n\t "}, 400, "invalid"),
    ({"text": 5}, 400, "invalid"),
    ({}, 400, "invalid"),
])
def test_refused_posts(game, alice, body, status, code):
    response = client_for(alice).post(f"/api/games/{game.pk}/chat/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not ChatMessage.objects.exists()


def test_anonymous_cannot_post(game, anon):
    response = anon.post(f"/api/games/{game.pk}/chat/", {"text": "hi"}, format="json")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


def test_too_fast_is_429(game, alice):
    client = client_for(alice)
    for i in range(5):
        assert client.post(f"/api/games/{game.pk}/chat/", {"text": str(i)},
                           format="json").status_code == 201
    response = client.post(f"/api/games/{game.pk}/chat/", {"text": "6"}, format="json")
    assert (response.status_code, response.json()["code"]) == (429, "rate_limited")


def test_muted_is_403_with_until(game, alice, moderator, mod_log):
    from chat import services

    mute = services.mute_user(actor=moderator, user=alice, reason="spam", minutes=5)
    response = client_for(alice).post(f"/api/games/{game.pk}/chat/", {"text": "hi"},
                                      format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "muted"
    assert response.json()["until"] == mute.until.isoformat()


def test_delete_needs_the_permission(game, alice, bob, moderator, mod_log, anon):
    message = post(game, alice, "nasty")
    url = f"/api/chat/{message.pk}/delete/"
    assert anon.post(url, {}, format="json").status_code == 401
    response = client_for(bob).post(url, {"reason": "I don't like it"}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    response = client_for(moderator).post(url, {"reason": "insult"}, format="json")
    assert response.status_code == 200
    assert (response.json()["deleted"], response.json()["text"]) == (True, "nasty")
    assert [c["reason"] for c in mod_log] == ["insult"]
    seen = client_for(bob).get(f"/api/games/{game.pk}/chat/").json()["messages"]
    assert [(m["id"], m["text"], m["deleted"]) for m in seen] == [(message.pk, "", True)]
    assert client_for(moderator).post("/api/chat/999999/delete/", {"reason": "x"},
                                      format="json").status_code == 404
    other = post(game, alice, "meh")
    response = client_for(moderator).post(f"/api/chat/{other.pk}/delete/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "reason_required")


def test_the_schema_documents_the_chat_routes(anon):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for fragment in ("/api/games/{game_id}/chat/", "/api/chat/{message_id}/delete/",
                     "game_chat_list", "game_chat_create", "chat_message_delete"):
        assert fragment in schema
