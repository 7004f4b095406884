"""Game moderation in admin: abort, annul, remove a seat; each asks for a reason, goes
through the services, and is logged with its outcome (refusals too)."""

from __future__ import annotations

import pytest

from games.models import Event, Game, RatingChange
from moderation.models import ModerationLog
from tests.games.helpers import started_game
from tests.games.ranked_helpers import finish_by_resignations
from tests.moderation.conftest import browser, messages_of

pytestmark = pytest.mark.django_db

GAMES = "/admin/games/game/"


def _act(client, action, games, reason=None):
    data = {"action": action, "_selected_action": [g.pk for g in games]}
    if reason is not None:
        data["reason"] = reason
    return client.post(GAMES, data, follow=reason is not None)


def test_abort_asks_for_a_reason_then_aborts_and_logs(alice, bob, carol, mod):
    live = started_game([alice, bob], kind="quoridor")
    waiting = Game.objects.get(pk=started_game([carol], kind="quoridor").pk)
    client = browser(mod)
    page = _act(client, "abort_games", [live, waiting])
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert Game.objects.get(pk=live.pk).status == "active"  # nothing yet
    blank = _act(client, "abort_games", [live], reason="  ")
    assert b"This field is required" in blank.content
    assert not ModerationLog.objects.exists()

    response = _act(client, "abort_games", [live, waiting], reason="players stuck")
    assert "Aborted 2 games." in messages_of(response)
    assert {g.status for g in Game.objects.filter(pk__in=[live.pk, waiting.pk])} == {"aborted"}
    entries = ModerationLog.objects.filter(action="abort_game").order_by("target_id")
    assert [(e.actor, e.target_type, e.reason, e.outcome) for e in entries] == [
        (mod, "game", "players stuck", "done")] * 2


def test_a_refused_abort_is_logged_with_its_refusal(alice, bob, mod):
    game = started_game([alice, bob], kind="quoridor")
    finish_by_resignations(game, [alice, bob], [1])
    response = _act(browser(mod), "abort_games", [game], reason="too late")
    assert any("already finished" in m for m in messages_of(response))
    assert "Aborted 0 games." in messages_of(response)
    entry = ModerationLog.objects.get()
    assert (entry.action, entry.reason) == ("abort_game", "too late")
    assert "already finished" in entry.outcome


def test_annul_reverts_ratings_and_logs(players, mod):
    game = finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
    casual = finish_by_resignations(started_game(players), players, [3, 1, 2])
    response = _act(browser(mod), "annul_games", [game, casual], reason="win trading")
    assert "Annulled 1 game." in messages_of(response)
    assert Game.objects.get(pk=game.pk).annulled_at is not None
    assert not RatingChange.objects.filter(game=game).exists()
    outcomes = dict(ModerationLog.objects.values_list("target_id", "outcome"))
    assert outcomes[str(game.pk)] == "done"
    assert "annulled" in outcomes[str(casual.pk)]  # the refusal, logged


def test_remove_seat_from_the_game_page(players, mod):
    game = started_game(players)
    client = browser(mod)
    change = client.get(f"{GAMES}{game.pk}/change/")
    assert change.status_code == 200
    assert b"<svg" in change.content  # the board at the current ply
    url = f"{GAMES}{game.pk}/remove-seat/"
    assert f'{url}?seat=2'.encode() in change.content
    form = client.get(url + "?seat=2")
    assert form.status_code == 200 and b'name="reason"' in form.content
    assert client.post(url, {"seat": 2}).status_code == 200  # no reason: the form again
    assert not Event.objects.filter(game=game).exists()

    response = client.post(url, {"seat": 2, "reason": "abusive in chat"}, follow=True)
    assert "Seat 2 removed" in " ".join(messages_of(response))
    last = Event.objects.filter(game=game).order_by("ply").last()
    assert (last.seat, last.action) == (2, {"type": "removed"})
    entry = ModerationLog.objects.get()
    assert (entry.action, entry.target_type, entry.reason, entry.outcome) == (
        "remove_seat", "seat", "abusive in chat", "done")
    assert "carol" in entry.target_repr and f"game {game.pk}" in entry.target_repr

    # The same seat again: refused by the service, and logged.
    response = client.post(url, {"seat": 2, "reason": "again"}, follow=True)
    assert any(m.startswith("Seat 2:") for m in messages_of(response))
    refused = ModerationLog.objects.filter(reason="again").get()
    assert refused.outcome != "done"
    assert Event.objects.filter(game=game).count() == 1


def test_game_admin_filters_and_search(alice, bob, mod):
    game = started_game([alice, bob], kind="quoridor", ranked=False)
    client = browser(mod)
    for query in ("?kind=quoridor", "?status__exact=active", "?ranked__exact=0",
                  "?created_at__gte=2000-01-01+00:00:00%2B00:00", f"?q={game.pk}", "?q=alice"):
        response = client.get(GAMES + query)
        assert response.status_code == 200, query
        assert f"{GAMES}{game.pk}/change/".encode() in response.content, query
    assert f"{GAMES}{game.pk}/change/".encode() not in client.get(GAMES + "?q=zed").content


def test_the_seats_are_read_only_even_to_a_superuser(alice, bob, root):
    """Who sits where changes only through the services, which count and announce it."""
    game = started_game([alice, bob], kind="quoridor")
    page = browser(root).get(f"{GAMES}{game.pk}/change/")
    assert page.status_code == 200 and b"alice" in page.content
    assert b'name="seats-0-bot"' not in page.content
    assert b'name="seats-0-replaced"' not in page.content


def test_the_event_list_is_read_only_and_linked(alice, bob, mod):
    game = started_game([alice, bob], kind="quoridor")
    finish_by_resignations(game, [alice, bob], [1])
    client = browser(mod)
    response = client.get(f"/admin/games/event/?game__id__exact={game.pk}")
    assert response.status_code == 200 and b"resign" in response.content
    event = Event.objects.get(game=game)
    page = client.get(f"/admin/games/event/{event.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content


@pytest.mark.parametrize(("action", "perm"), [
    ("abort_games", "moderation.abort_game"),
    ("annul_games", "moderation.annul_game"),
])
def test_game_actions_need_their_permission(players, staff_with, action, perm):
    game = finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2]) \
        if action == "annul_games" else started_game(players)
    before = Game.objects.get(pk=game.pk)
    without = browser(staff_with("games.view_game", name="viewer"))
    assert action.encode() not in without.get(GAMES).content
    _act(without, action, [game], reason="nope")
    after = Game.objects.get(pk=game.pk)
    assert (after.status, after.annulled_at) == (before.status, before.annulled_at)
    assert not ModerationLog.objects.exists()

    allowed = browser(staff_with("games.view_game", perm, name="allowed"))
    assert action.encode() in allowed.get(GAMES).content
    _act(allowed, action, [game], reason="yes")
    assert ModerationLog.objects.get().outcome == "done"


def test_remove_seat_needs_its_permission(players, staff_with):
    game = started_game(players)
    url = f"{GAMES}{game.pk}/remove-seat/"
    without = browser(staff_with("games.view_game", name="viewer"))
    assert without.get(url).status_code == 403
    assert without.post(url, {"seat": 1, "reason": "x"}).status_code == 403
    assert not Event.objects.filter(game=game).exists()
    allowed = browser(staff_with("games.view_game", "moderation.remove_seat", name="allowed"))
    assert allowed.post(url, {"seat": 1, "reason": "x"}).status_code == 302
    assert Event.objects.filter(game=game).count() == 1


def test_plain_users_reach_no_moderation(players):
    game = started_game(players)
    client = browser(players[1])
    for url in (GAMES, f"{GAMES}{game.pk}/remove-seat/", "/admin/moderation/report/",
                "/admin/moderation/moderationlog/"):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
    response = client.post(f"{GAMES}{game.pk}/remove-seat/", {"seat": 0, "reason": "x"})
    assert response.status_code == 302
    response = _act(client, "abort_games", [game], reason="x")
    assert Game.objects.get(pk=game.pk).status == "active"
    assert not Event.objects.filter(game=game).exists()
    assert not ModerationLog.objects.exists()
