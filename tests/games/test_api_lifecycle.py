"""A whole 4-player game over the REST API, checked against the engine at every ply."""

from __future__ import annotations

import pytest

from games import engine
from tests.conftest import client_for, recorded_games

pytestmark = pytest.mark.django_db


def _has_jump(actions: list[dict]) -> bool:
    rules = engine.get("bloqueio")
    state = rules.initial()
    for action in actions:
        if action["type"] == "move":
            src = state.pawns[state.turn]
            dst = action["to"]
            if abs(src[0] - dst[0]) + abs(src[1] - dst[1]) == 2:
                return True
        state = rules.apply(state, rules.parse_action(action))
    return False


def _script() -> dict:
    """The first recorded game that has jumps and barriers (and ends with a goal)."""
    for game in recorded_games():
        acts = game["actions"]
        if _has_jump(acts) and any(a["type"] == "barrier" for a in acts):
            return game
    raise AssertionError("no recorded game with a jump and a barrier")


@pytest.mark.django_db(transaction=True)
def test_full_game_over_the_api(players, published):
    clients = [client_for(u) for u in players]
    created = clients[0].post("/api/games/", {"kind": "bloqueio", "ranked": False}, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()
    gid = game["id"]
    assert game["status"] == "waiting"
    assert game["seats"][0] == {"seat": 0, "username": "alice", "rating": None, "bot": None,
                                 "replaced": None}

    for index, client in enumerate(clients[1:], start=1):
        joined = client.post(f"/api/games/{gid}/join/", {}, format="json")
        assert joined.status_code == 200, joined.json()
        assert joined.json()["seats"][index]["username"] == players[index].username
    game = clients[0].get(f"/api/games/{gid}/").json()
    assert game["status"] == "active"
    assert game["started_at"] is not None

    script = _script()
    rules = engine.get("bloqueio")
    state = rules.initial()
    for action in script["actions"]:
        seat = state.turn
        legal = clients[seat].get(f"/api/games/{gid}/legal-actions/").json()
        assert legal["seat"] == seat
        assert action in legal["actions"]
        response = clients[seat].post(
            f"/api/games/{gid}/actions/", {"action": action, "ply": state.ply}, format="json"
        )
        assert response.status_code == 201, response.json()
        state = rules.apply(state, rules.parse_action(action))
        body = response.json()
        assert body["event"]["ply"] == state.ply
        assert body["event"]["seat"] == seat
        assert body["event"]["action"] == action
        assert body["game"]["state"] == state.to_json()

    final = clients[1].get(f"/api/games/{gid}/").json()
    assert final["status"] == "finished"
    assert final["result"] == rules.result(state).to_json()
    assert final["result"]["winner"] == script["winner"]
    assert final["ply"] == script["plies"]

    events = clients[2].get(f"/api/games/{gid}/events/").json()["events"]
    assert [e["ply"] for e in events] == list(range(1, script["plies"] + 1))
    assert [e["action"] for e in events] == script["actions"]
    tail = clients[2].get(f"/api/games/{gid}/events/?after=95").json()["events"]
    assert [e["ply"] for e in tail] == list(range(96, script["plies"] + 1))

    # Replay matches the engine at every ply, for anyone (spectators too).
    anon = client_for(None)
    replayed = rules.initial()
    for ply in range(script["plies"] + 1):
        got = anon.get(f"/api/games/{gid}/replay/?ply={ply}").json()
        assert got == {"ply": ply, "state": replayed.to_json()}
        if ply < script["plies"]:
            replayed = rules.apply(replayed, rules.parse_action(script["actions"][ply]))

    notation = anon.get(f"/api/games/{gid}/export/").json()["notation"]
    parsed = rules.parse_game(notation)
    assert [a.to_json() for a in parsed] == script["actions"]
    assert rules.replay(parsed).to_json() == final["state"]

    assert anon.get(f"/api/games/{gid}/legal-actions/").json() == {"seat": None, "actions": []}
    # One broadcast per accepted action, in ply order, after commit.
    plies = [e["ply"] for m in published for e in m.events]
    assert plies == list(range(1, script["plies"] + 1))


def test_list_filters_and_pagination(players):
    # Four waiting games, one per creator (each may have 3 waiting at once).
    ids = [client_for(user).post("/api/games/", {"kind": k}, format="json").json()["id"]
           for user, k in zip(players, ["bloqueio", "quoridor", "bloqueio", "quoridor4"],
                              strict=True)]
    page = client_for(None).get("/api/games/").json()
    assert page["count"] == 4
    assert [g["id"] for g in page["results"]] == ids[::-1]  # newest first
    only = client_for(None).get("/api/games/?kind=quoridor&status=waiting").json()
    assert [g["id"] for g in only["results"]] == [ids[1]]
    assert client_for(None).get("/api/games/?status=finished").json()["count"] == 0
    bad = client_for(None).get("/api/games/?status=sideways")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid"


def test_two_seat_game_with_explicit_seat_and_resign(alice, bob):
    a, b = client_for(alice), client_for(bob)
    gid = a.post("/api/games/", {"kind": "quoridor", "time_control": {"initial": 180,
                                                                    "increment": 2}},
                 format="json").json()["id"]
    assert b.post(f"/api/games/{gid}/join/", {"seat": 0}, format="json").json()["code"] == (
        "seat_taken"
    )
    game = b.post(f"/api/games/{gid}/join/", {"seat": 1}, format="json").json()
    assert game["status"] == "active"
    assert game["time_control"] == {"initial": 180, "increment": 2}
    resigned = b.post(f"/api/games/{gid}/resign/")
    assert resigned.status_code == 200
    result = resigned.json()["result"]
    assert result == {"winner": 0, "ranking": [1, 2], "reason": "last_standing"}
    events = a.get(f"/api/games/{gid}/events/").json()["events"]
    assert [(e["seat"], e["action"]) for e in events] == [(1, {"type": "resign"})]


def test_leave_before_start_frees_the_seat_and_empty_game_aborts(alice, bob):
    a, b = client_for(alice), client_for(bob)
    gid = a.post("/api/games/", {"kind": "bloqueio"}, format="json").json()["id"]
    b.post(f"/api/games/{gid}/join/", {}, format="json")
    game = b.post(f"/api/games/{gid}/leave/").json()
    assert game["seats"][1]["username"] is None
    game = a.post(f"/api/games/{gid}/leave/").json()
    assert game["status"] == "aborted"
    assert game["result"]["reason"] == "aborted"
