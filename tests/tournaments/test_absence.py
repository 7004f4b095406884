"""The absence rule in a live four-player Swiss (docs/tournaments.md, "Absence"): the
seat of a player who never comes runs out of time at its first move and the three
others play on (the game is not aborted, and it counts); a second absence withdraws the
player as that round closes. Days and seconds pass on an injected clock
(tests/games/time_travel.py), the clock worker watching."""

from __future__ import annotations

import pytest

from games import engine, services, worker
from games.models import Game
from games.round import PRIVATE_FIRST_MOVE_SECONDS
from tests.conftest import client_for, make_user
from tests.games.time_travel import travel
from tournaments.absences import absences
from tournaments.models import Entry, Table

pytestmark = pytest.mark.django_db(transaction=True)

CLOCK = {"initial": 300, "increment": 5}


def _move(game_id: int, users: dict[int, object]) -> int:
    """The seat to move plays its first legal action; returns that seat."""
    game = Game.objects.get(pk=game_id)
    rules = engine.get(game.kind)
    state = rules.state_from_json(game.state)
    seat = state.turn
    action = rules.legal_actions(state)[0].to_json()
    services.submit_action(game_id=game_id, user=users[seat], action=action, ply=game.ply)
    return seat


def test_an_absent_seat_loses_on_time_the_others_play_on_and_a_second_absence_withdraws(
        monkeypatch, settings):
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = 0
    clock = travel(monkeypatch)
    people = {name: make_user(name) for name in ("ann", "bea", "cid", "dan", "zed")}
    organiser = client_for(people["ann"])
    made = organiser.post("/api/tournaments/", {"kind": "bloqueio", "rounds": 3,
                                                "time_control": CLOCK}, format="json").json()
    url = f"/api/tournaments/{made['id']}/"
    for name in ("ann", "bea", "cid", "zed"):
        assert client_for(people[name]).post(url + "join/", {}, format="json").status_code \
            == 200
    body = organiser.post(url + "start/", {}, format="json").json()
    for number in (1, 2):
        [table] = body["rounds"][-1]["tables"]
        by_seat = {i: people[name] for i, name in enumerate(table["seats"])}
        absent = table["seats"].index("zed")
        game_id = table["game_id"]
        # The others make their first moves until zed's turn comes; zed never moves.
        while Game.objects.get(pk=game_id).state["turn"] != absent:
            _move(game_id, by_seat)
        clock.advance(seconds=PRIVATE_FIRST_MOVE_SECONDS - 1)
        worker.run_now("clocks")
        assert Game.objects.get(pk=game_id).state["in_game"][absent] is True
        clock.advance(seconds=1)  # a chosen table's first-move window is over
        worker.run_now("clocks")
        game = Game.objects.get(pk=game_id)
        assert game.status == "active"  # not aborted: the three others play on
        assert game.state["in_game"] == [seat != absent for seat in range(4)]
        assert game.clock["moved"][absent] is False
        # The three others: the next two resign, the last one standing wins.
        resigned = []
        for _ in range(2):
            seat = Game.objects.get(pk=game_id).state["turn"]
            services.resign(game_id=game_id, user=by_seat[seat])
            resigned.append(seat)
        game = Game.objects.get(pk=game_id)
        [last] = set(range(4)) - {absent, *resigned}
        assert game.status == "finished" and game.result["winner"] == last
        # Leavers rank after those still in, the latest to leave first: zed is last.
        assert game.result["ranking"][absent] == 4
        worker.run_now("tournaments")  # every table over: the round closes
        body = organiser.get(url).json()
        zed = next(p for p in body["players"] if p["username"] == "zed")
        assert zed["absences"] == number
        assert zed["withdrawn_because"] == (None if number == 1 else "absent")
        standing = {line["username"]: line["points"] for line in body["standings"]}
        assert standing["zed"] == 0  # last at the table, each time
        if number == 1:  # the next round seats the four again, zed still in
            clock.advance(seconds=1)
            worker.run_now("tournaments")
            body = organiser.get(url).json()
            assert len(body["rounds"]) == 2
            assert "zed" in body["rounds"][1]["tables"][0]["seats"]
    # zed is out; dan joins in the pause, and round three seats the four still in.
    assert client_for(people["dan"]).post(url + "join/", {}, format="json").status_code \
        == 200
    clock.advance(seconds=1)
    worker.run_now("tournaments")
    body = organiser.get(url).json()
    assert len(body["rounds"]) == 3
    assert sorted(body["rounds"][2]["tables"][0]["seats"]) == ["ann", "bea", "cid", "dan"]
    assert Entry.objects.get(user=people["zed"]).withdrawn_at is not None
    assert absences(Table.objects.all())[people["zed"].pk] == 2
    # The page shows who is out and why.
    assert body["players"][-2:] == [
        {"username": "zed", "withdrawn": True, "withdrawn_because": "absent", "absences": 2},
        {"username": "dan", "withdrawn": False, "withdrawn_because": None, "absences": 0}]


def _arena_game(url: str, client: object, name: str) -> dict:
    return next(g for g in client.get(url).json()["games"]  # type: ignore[attr-defined]
                if name in g["seats"] and g["status"] == "active")


def test_in_an_arena_an_absent_player_loses_on_time_and_a_second_absence_withdraws_at_once(
        monkeypatch):
    clock = travel(monkeypatch)
    people = {name: make_user(name) for name in ("ann", "bea", "zed")}
    organiser = client_for(people["ann"])
    made = organiser.post("/api/tournaments/", {
        "kind": "blockade", "system": "arena", "minutes": 60, "time_control": CLOCK},
        format="json").json()
    url = f"/api/tournaments/{made['id']}/"
    for name in ("ann", "zed"):
        assert client_for(people[name]).post(url + "join/", {}, format="json").status_code \
            == 200
    assert organiser.post(url + "start/", {}, format="json").status_code == 200
    seen = set()
    for number in (1, 2):
        game = _arena_game(url, organiser, "zed")
        seen.add(game["game_id"])
        by_seat = {i: people[name] for i, name in enumerate(game["seats"])}
        absent = game["seats"].index("zed")
        while Game.objects.get(pk=game["game_id"]).state["turn"] != absent:
            _move(game["game_id"], by_seat)
        clock.advance(seconds=PRIVATE_FIRST_MOVE_SECONDS)
        worker.run_now("clocks")
        row = Game.objects.get(pk=game["game_id"])
        assert row.status == "finished"  # a duel: zed's opponent wins, nothing aborted
        assert row.result["winner"] == 1 - absent
        clock.advance(seconds=31)  # the same two are paired again once both waited 30 s
        worker.run_now("tournaments")
        body = organiser.get(url).json()
        zed = next(p for p in body["players"] if p["username"] == "zed")
        assert zed["absences"] == number
        assert zed["withdrawn_because"] == (None if number == 1 else "absent")
        winner = game["seats"][1 - absent]
        line = next(s for s in body["standings"] if s["username"] == winner)
        assert line["sheet"][-1]["outcome"] == "win"  # the absence is a game won
    assert len(seen) == 2
    # zed is paired no more: ann waits alone, then bea joins and they play
    assert [g for g in body["games"] if g["status"] == "active"] == []
    assert client_for(people["bea"]).post(url + "join/", {}, format="json").status_code \
        == 200
    worker.run_now("tournaments")
    active = [g for g in organiser.get(url).json()["games"] if g["status"] == "active"]
    assert [sorted(g["seats"]) for g in active] == [["ann", "bea"]]
    # zed comes back: the count starts afresh, zed is paired again
    assert client_for(people["zed"]).post(url + "join/", {}, format="json").status_code \
        == 200
    worker.run_now("tournaments")  # absences counted since zed's return: none
    zed = next(p for p in organiser.get(url).json()["players"] if p["username"] == "zed")
    assert (zed["withdrawn"], zed["absences"]) == (False, 2)
