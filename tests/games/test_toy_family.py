"""A new game family is one registration: a toy family (tests/games/toy_family/),
registered by this test alone, is played end to end over the REST API, by people and by
its bot, and leaves no trace once unregistered (docs/architecture.md, "How to add a game
family")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import bots, computer, engine
from games.boards import board_spec
from tests.conftest import clear_cache, client_for
from tests.games import toy_family
from tests.games.toy_family import GOAL, KIND

pytestmark = pytest.mark.django_db


@pytest.fixture
def toy() -> Iterator[engine.Rules]:
    engine.register(toy_family.FAMILY)
    try:
        yield engine.get(KIND)
    finally:
        engine.unregister(toy_family.FAMILY.name)


def _play(client: Any, gid: int, ply: int, by: int) -> dict[str, Any]:
    response = client.post(f"/api/games/{gid}/actions/",
                           {"action": {"type": "step", "by": by}, "ply": ply}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_toy_family_plays_over_the_api(toy: engine.Rules, alice: User, bob: User) -> None:
    a, b = client_for(alice), client_for(bob)
    listed = a.get("/api/kinds/").json()
    assert [k for k in listed if k["kind"] == KIND] == [toy.info.to_json()]

    created = a.post("/api/games/", {"kind": KIND}, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    assert b.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200

    # alice steps 2, 2, 1 and reaches the goal; bob steps 1 twice
    steps = [(a, 2), (b, 1), (a, 2), (b, 1), (a, 1)]
    for ply, (client, by) in enumerate(steps):
        body = _play(client, gid, ply, by)
        assert body["event"]["ply"] == ply + 1
    refused = b.post(f"/api/games/{gid}/actions/",
                     {"action": {"type": "step", "by": 1}, "ply": 5}, format="json")
    assert refused.status_code in (400, 409) and "code" in refused.json()

    game = b.get(f"/api/games/{gid}/").json()
    assert game["status"] == "finished"
    assert game["result"] == {"winner": 0, "ranking": [1, 2], "reason": "goal"}
    assert game["state"]["pawns"] == [GOAL, 2]

    events = a.get(f"/api/games/{gid}/events/").json()["events"]
    assert [(e["seat"], e["action"]) for e in events] == [
        (seat, {"type": "step", "by": by})
        for seat, (_, by) in zip([0, 1, 0, 1, 0], steps, strict=True)]
    replay = a.get(f"/api/games/{gid}/replay/", {"ply": 2}).json()
    assert replay["state"]["pawns"] == [2, 1] and replay["state"]["turn"] == 0
    exported = a.get(f"/api/games/{gid}/export/").json()
    assert exported["notation"] == "+2 +1 +2 +1 +1"

    # the family's server board draws the shared image
    svg = Client().get(f"/games/{gid}/board.svg")
    assert svg.status_code == 200 and b"<circle" in svg.content
    assert board_spec(KIND)["script"] == "toy" and board_spec(KIND)["line"] is True


def test_the_toy_familys_bot_takes_a_seat(toy: engine.Rules, alice: User) -> None:
    clear_cache()  # bot-turn claims of an earlier test's (game, ply) must not linger
    a = client_for(alice)
    created = a.post("/api/games/", {"kind": KIND, "bots": ["medium"]}, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    assert created.json()["seats"][1]["bot"] == "medium"
    for ply in range(0, 6, 2):  # alice steps 1 each turn; medium steps 2 while it can
        _play(a, gid, ply, 1)
        assert computer.tick(budget_s=5) == 1
    game = a.get(f"/api/games/{gid}/").json()
    assert game["status"] == "finished"
    assert game["result"] == {"winner": 1, "ranking": [2, 1], "reason": "goal"}
    assert game["state"]["pawns"] == [3, GOAL]
    events = a.get(f"/api/games/{gid}/events/").json()["events"]
    assert [e["action"]["by"] for e in events if e["seat"] == 1] == [2, 2, 1]
    assert bots.explain(toy, toy.initial(), toy.legal_actions(toy.initial())[1]) == (
        "steps 2 toward the goal")


def test_an_unregistered_family_leaves_no_trace(alice: User) -> None:
    engine.register(toy_family.FAMILY)
    engine.unregister(toy_family.FAMILY.name)
    assert KIND not in engine.KINDS
    assert KIND not in [k["kind"] for k in client_for(alice).get("/api/kinds/").json()]
    refused = client_for(alice).post("/api/games/", {"kind": KIND}, format="json")
    assert refused.status_code == 400
    with pytest.raises(engine.UnknownKind):
        engine.get(KIND)


def test_a_family_cannot_take_a_registered_kind() -> None:
    taken = engine.Family(name="copycat", rules={"bloqueio": engine.get("bloqueio")},
                          board="games.boards.barrier", script="barrier")
    with pytest.raises(ValueError):
        engine.register(taken)
    assert engine.family_of("bloqueio").name == "barrier"
