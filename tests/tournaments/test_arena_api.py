"""An Arena over the REST API, as clients play it (docs/tournaments.md#arena): created,
joined, started, its Blockade games played to their ends by resignations, the worker's
step pairing the players who come free, a withdrawal and a late entry while it runs, its
end time (nobody paired after it; a game still playing then does not count), and the
standings checked against scores and streaks worked out here from the games.

Four players: whenever a game ends, its two players are each other's last opponent, so
they wait until the other game ends too; then each plays someone new.
"""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F

from games import worker
from games.models import Game
from tests.conftest import client_for, make_user
from tournaments.models import Entry, Pairing, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _create(client: Any, **extra: Any) -> Any:
    return client.post("/api/tournaments/", {"kind": "blockade", "system": "arena",
                                              "minutes": 30, **extra}, format="json")


def _active(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [g for g in body["games"] if g["status"] == "active"]


def _last_opponents(body: dict[str, Any]) -> dict[str, str]:
    """Each player's opponent in their latest game (`games` is latest first)."""
    last: dict[str, str] = {}
    for game in body["games"]:
        a, b = game["seats"]
        last.setdefault(a, b)
        last.setdefault(b, a)
    return last


def _tick(client: Any, url: str) -> dict[str, Any]:
    """The worker's step, and what it paired checked against who was free before it:
    only free players, never the last opponent, and nobody left free who could have
    been paired with another left free."""
    before = client.get(url).json()
    worker.run_now("tournaments")
    after = client.get(url).json()
    known = {g["game_id"] for g in before["games"]}
    new = [g for g in after["games"] if g["game_id"] not in known]
    if after["status"] != "running":
        assert new == []  # nobody is paired once it is over
        return after
    busy = {name for g in _active(before) for name in g["seats"]}
    free = {p["username"] for p in before["players"] if not p["withdrawn"]} - busy
    last = _last_opponents(before)
    for game in new:
        a, b = game["seats"]
        assert {a, b} <= free and game["status"] == "active"
        assert last.get(a) != b and last.get(b) != a  # never the same opponent again
        free -= {a, b}
    for x, y in itertools.combinations(sorted(free), 2):
        assert last.get(x) == y or last.get(y) == x, (x, y, "could have played")
    return after


def _end(clients: dict[str, Any], game: dict[str, Any], order: list[int]) -> None:
    """The game ends: the player whose name sorts last resigns (so p0 wins every game
    it plays, p1 every game but against p0, ...)."""
    loser = max(game["seats"])
    done = clients[loser].post(f"/api/games/{game['game_id']}/resign/", {}, format="json")
    assert done.status_code == 200, done.json()
    order.append(game["game_id"])


def _by_hand(body: dict[str, Any], order: list[int]) -> dict[str, dict[str, Any]]:
    """Win 2, loss 0, doubled after two wins in a row (a streak), over the counted games
    in the order they ended."""
    games = {g["game_id"]: g for g in body["games"]}
    lines = {p["username"]: {"points": 0, "wins": 0, "games": 0, "streak": 0, "sheet": []}
             for p in body["players"]}
    for game_id in order:
        game = games[game_id]
        if not game["counted"]:
            continue
        for seat, name in enumerate(game["seats"]):
            line = lines[name]
            won = name == min(game["seats"])  # the other resigned (`_end`)
            assert game["ranking"][seat] == (1 if won else 2)
            points = (2 if won else 0) * (2 if line["streak"] >= 2 else 1)
            line["points"] += points
            line["games"] += 1
            line["wins"] += won
            line["streak"] = line["streak"] + 1 if won else 0
            line["sheet"].append(points)
    return lines


def _check_standings(body: dict[str, Any], order: list[int]) -> None:
    expected = _by_hand(body, order)
    assert sorted(s["username"] for s in body["standings"]) == sorted(expected)
    for line in body["standings"]:
        mine = expected[line["username"]]
        assert (line["points"], line["wins"], line["games"], line["streak"]) == (
            mine["points"], mine["wins"], mine["games"], mine["streak"]), line
        assert line["on_fire"] == (mine["streak"] >= 2)
        assert [s["points"] for s in line["sheet"]] == mine["sheet"]
    keys = [(s["points"], s["wins"]) for s in body["standings"]]
    assert keys == sorted(keys, reverse=True)


def test_an_arena_of_blockade_with_four_players():
    clients = {f"p{i}": client_for(make_user(f"p{i}")) for i in range(5)}
    organiser = clients["p0"]
    made = _create(organiser)
    assert made.status_code == 201, made.json()
    body = made.json()
    assert (body["system"], body["minutes"], body["round_count"], body["ends_at"]) == (
        "arena", 30, None, None)
    assert body["games"] == body["rounds"] == body["standings"] == []
    url = f"/api/tournaments/{body['id']}/"
    for name in ("p0", "p1", "p2", "p3"):
        assert clients[name].post(url + "join/", {}, format="json").status_code == 200
    started = organiser.post(url + "start/", {}, format="json")
    assert started.status_code == 200, started.json()
    body = started.json()
    assert body["status"] == "running" and body["ends_at"] is not None
    assert len(_active(body)) == 2  # everyone paired at the start
    assert sorted(n for g in body["games"] for n in g["seats"]) == ["p0", "p1", "p2", "p3"]
    games = Game.objects.filter(pk__in=[g["game_id"] for g in body["games"]])
    assert all(g.kind == "blockade" and g.ranked and g.status == "active" for g in games)
    order: list[int] = []

    for _wave in range(3):
        first, second = _active(body)
        _end(clients, first, order)
        body = _tick(organiser, url)
        assert len(_active(body)) == 1  # the two who just played wait for someone new
        _check_standings(body, order)
        _end(clients, second, order)
        body = _tick(organiser, url)
        assert len(_active(body)) == 2
        _check_standings(body, order)
    assert len(body["games"]) == 8
    # p0 won all three: on fire since its second, the third counted double.
    p0 = next(s for s in body["standings"] if s["username"] == "p0")
    assert (p0["rank"], p0["points"], p0["streak"], p0["on_fire"]) == (1, 8, 3, True)

    # p3 withdraws during a game: it plays on and counts, and p3 is paired no more.
    withdrawn = clients["p3"].post(url + "withdraw/", {}, format="json")
    assert withdrawn.status_code == 200, withdrawn.json()
    body = withdrawn.json()
    assert {"username": "p3", "withdrawn": True, "withdrawn_because": "withdrew",
            "absences": 0} in body["players"]
    p3_game = next(g for g in _active(body) if "p3" in g["seats"])
    other = next(g for g in _active(body) if "p3" not in g["seats"])
    _end(clients, p3_game, order)
    body = _tick(organiser, url)
    assert len(_active(body)) == 1
    _end(clients, other, order)
    body = _tick(organiser, url)
    (paired,) = _active(body)  # three free, two paired: one waits
    assert "p3" not in paired["seats"]
    _check_standings(body, order)
    waiting = ({"p0", "p1", "p2"} - set(paired["seats"])).pop()
    # A late entry while it runs is paired at the next step, with the one who waits.
    assert clients["p4"].post(url + "join/", {}, format="json").status_code == 200
    body = _tick(organiser, url)
    late = next(g for g in _active(body) if "p4" in g["seats"])
    assert set(late["seats"]) == {"p4", waiting}

    # One game ends in time; then the clock passes the end (the arena and every game
    # ended so far moved 31 minutes back) while the late game still plays.
    _end(clients, paired, order)
    tournament = Tournament.objects.get(pk=body["id"])
    back = timedelta(minutes=31)
    Tournament.objects.filter(pk=tournament.pk).update(started_at=F("started_at") - back)
    Entry.objects.filter(tournament=tournament).update(joined_at=F("joined_at") - back)
    Pairing.objects.filter(tournament=tournament).update(started_at=F("started_at") - back)
    Game.objects.filter(pk__in=order).update(finished_at=F("finished_at") - back)
    body = _tick(organiser, url)
    assert body["status"] == "finished" and body["finished_at"] is not None
    assert len(body["games"]) == 10  # the two free players were not paired after the end
    counted_before = [g["game_id"] for g in body["games"] if g["counted"]]
    assert sorted(counted_before) == sorted(order)
    _check_standings(body, order)
    # The late game plays on as an ordinary game, and does not count.
    _end(clients, late, order)
    body = _tick(organiser, url)
    game = next(g for g in body["games"] if g["game_id"] == late["game_id"])
    assert (game["status"], game["counted"]) == ("finished", False)
    assert len(body["games"]) == 10
    _check_standings(body, order)
    p4 = next(s for s in body["standings"] if s["username"] == "p4")
    assert (p4["points"], p4["games"]) == (0, 0)
    closed = clients["p1"].post(url + "join/", {}, format="json")
    assert (closed.status_code, closed.json()["code"]) == (409, "tournament_closed")
    listed = organiser.get("/api/tournaments/").json()
    assert [t["id"] for t in listed["finished"]] == [body["id"]]


@pytest.mark.parametrize(("body", "code"), [
    ({"kind": "bloqueio"}, "arena_duels_only"),
    ({"time_control": {"days": 1}}, "arena_live_only"),
    ({"rounds": 3}, "rounds_swiss_only"),
    ({"system": "swiss", "rounds": 3}, "minutes_arena_only"),
])
def test_what_an_arena_refuses_has_its_code(alice, body, code):
    refused = _create(client_for(alice), **body)
    assert (refused.status_code, refused.json()["code"]) == (400, code), refused.json()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("minutes", [None, 4, 361, "30", 30.5])
def test_an_arena_needs_its_minutes(alice, minutes):
    refused = _create(client_for(alice), minutes=minutes)
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid" and "minutes" in refused.json()["errors"]
    assert not Tournament.objects.exists()


def test_an_arena_starts_with_two_players_and_its_creator_starts_it(alice, bob, carol):
    url = f"/api/tournaments/{_create(client_for(alice)).json()['id']}/"
    assert client_for(bob).post(url + "join/", {}, format="json").status_code == 200
    few = client_for(alice).post(url + "start/", {}, format="json")
    assert (few.status_code, few.json()["code"]) == (409, "too_few_players")
    assert client_for(carol).post(url + "join/", {}, format="json").status_code == 200
    stranger = client_for(bob).post(url + "start/", {}, format="json")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_organiser")
    nobody = client_for(alice).post(url + "withdraw/", {}, format="json")
    assert (nobody.status_code, nobody.json()["code"]) == (400, "not_entered")
    body = client_for(alice).post(url + "start/", {}, format="json").json()
    assert [sorted(g["seats"]) for g in body["games"]] == [["bob", "carol"]]
    # Entries stay open while it runs (a Swiss would say round_playing).
    assert client_for(bob).post(url + "withdraw/", {}, format="json").status_code == 200
    assert client_for(bob).post(url + "join/", {}, format="json").status_code == 200
