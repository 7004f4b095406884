"""A turn-based Swiss over the REST API (a day per move), played to its end while the
days pass (an injected clock: tests/games/time_travel.py): each table's game played by
moves or a resignation over the API, the worker's jobs run by the test, the pause
between rounds kept, and a player who never comes losing each table by the turn-based
deadline and withdrawn after the second (docs/tournaments.md, "Absence").

Four players of two-seat Bloqueio, three rounds: two tables a round while all four are
in; `zed` never moves, loses rounds one and two on time and is withdrawn as round two
closes, so round three seats the three others at one table and a bye. The standings are
checked against points and Buchholz worked out here from the tables' results.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest

from games import outbox, worker
from games.models import Game, Seat
from notifications.models import Kind, Notification
from tests.conftest import client_for, make_user
from tests.games.time_travel import travel

pytestmark = pytest.mark.django_db(transaction=True)

PAUSE = timedelta(hours=6)
# Two-seat Bloqueio: both pawns walk straight on, then seat 0 steps into its goal row.
RACE = [action for row in range(2, 10) for action in (
    {"type": "move", "to": [row, 5]}, {"type": "move", "to": [11 - row, 4]})]
WIN = {"type": "move", "to": [10, 5]}


def _act(client: Any, game_id: int, action: dict[str, Any]) -> None:
    ply = client.get(f"/api/games/{game_id}/").json()["ply"]
    done = client.post(f"/api/games/{game_id}/actions/", {"action": action, "ply": ply},
                       format="json")
    assert done.status_code == 201, done.json()


def _play_table(clients: dict[str, Any], table: dict[str, Any], number: int) -> None:
    """Table 1 is raced to a win by seat 0 over the board; table 2 is won by seat 1
    after seat 0 resigns two moves in. Neither game ends by the clock."""
    first, second = (clients[name] for name in table["seats"])
    game_id = table["game_id"]
    if number == 1:
        for n, action in enumerate([*RACE, WIN]):
            _act(first if n % 2 == 0 else second, game_id, action)
    else:
        _act(first, game_id, RACE[0])
        _act(second, game_id, RACE[1])
        resigned = first.post(f"/api/games/{game_id}/resign/", {}, format="json")
        assert resigned.status_code == 200, resigned.json()
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    assert game.result["winner"] == (0 if number == 1 else 1)


def _by_hand(rounds: list[dict[str, Any]], names: list[str]
             ) -> dict[str, tuple[Fraction, Fraction]]:
    """Points (a win 1, a bye ½) and Buchholz (the opponents' points; per bye one's
    own), from the tables' results read from the games."""
    points = {n: Fraction(0) for n in names}
    byes: Counter[str] = Counter()
    opponents: dict[str, list[str]] = {n: [] for n in names}
    for done in rounds:
        for name in done["byes"]:
            points[name] += Fraction(1, 2)
            byes[name] += 1
        for table in done["tables"]:
            winner = Game.objects.get(pk=table["game_id"]).result["winner"]
            a, b = table["seats"]
            points[table["seats"][winner]] += 1
            opponents[a].append(b)
            opponents[b].append(a)
    return {n: (points[n], byes[n] * points[n] + sum(points[o] for o in opponents[n]))
            for n in names}


def test_a_turn_based_swiss_with_an_absent_player(monkeypatch, settings):
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = PAUSE.total_seconds()
    clock = travel(monkeypatch)
    names = ["ann", "bea", "cid", "zed"]
    clients = {n: client_for(make_user(n)) for n in names}
    organiser = clients["ann"]
    made = organiser.post("/api/tournaments/", {"kind": "bloqueio2", "rounds": 3,
                                                "time_control": {"days": 1}}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["time_control"] == {"days": 1}
    url = f"/api/tournaments/{made.json()['id']}/"
    for client in clients.values():
        assert client.post(url + "join/", {}, format="json").status_code == 200
    body = organiser.post(url + "start/", {}, format="json").json()
    assert body["status"] == "running"

    for number in (1, 2, 3):
        playing = body["rounds"][-1]
        assert (playing["number"], playing["finished"]) == (number, False)
        started = clock.now()
        outbox.run_pending()  # the worker tells the seated their tables are ready
        tables = sorted(playing["tables"],
                        key=lambda t: "zed" in t["seats"])  # zed's table last
        for game_id in (t["game_id"] for t in tables):
            game = Game.objects.get(pk=game_id)
            assert game.time_control == {"days": 1} and game.absence_forfeits
            assert game.deadline == started + timedelta(days=1)  # the first move's
        at_table = 1
        for table in tables:
            if "zed" not in table["seats"]:
                _play_table(clients, table, at_table)
                at_table += 1
        if number < 3:  # zed is seated, and never comes
            [table] = [t for t in tables if "zed" in t["seats"]]
            other = next(n for n in table["seats"] if n != "zed")
            if table["seats"][0] == other:  # the other moves; zed's turn never comes
                _act(clients[other], table["game_id"], RACE[0])
            clock.advance(hours=23)
            worker.run_now("clocks")
            worker.run_now("tournaments")
            assert Game.objects.get(pk=table["game_id"]).status == "active"
            assert not organiser.get(url).json()["rounds"][-1]["finished"]
            clock.advance(hours=1, seconds=1)  # the turn-based deadline passes
            worker.run_now("clocks")
            game = Game.objects.get(pk=table["game_id"])
            assert game.status == "finished"
            assert table["seats"][game.result["winner"]] == other
            assert game.clock["moved"][table["seats"].index("zed")] is False
        worker.run_now("tournaments")  # every table over: the round closes
        body = organiser.get(url).json()
        assert body["rounds"][-1]["finished"] is True
        zed = next(p for p in body["players"] if p["username"] == "zed")
        assert zed["absences"] == min(number, 2)
        # Withdrawn as the round of the second absence closes, not before.
        assert (zed["withdrawn"], zed["withdrawn_because"]) == (
            (True, "absent") if number >= 2 else (False, None))
        if number == 3:
            break
        closed = clock.now()
        clock.advance(seconds=PAUSE.total_seconds() - 1)
        worker.run_now("tournaments")  # the pause is not over: nothing seated
        assert len(organiser.get(url).json()["rounds"]) == number
        clock.advance(seconds=1)
        worker.run_now("tournaments")
        body = organiser.get(url).json()
        assert len(body["rounds"]) == number + 1
        assert Game.objects.get(pk=body["rounds"][-1]["tables"][0]["game_id"]
                                ).started_at == closed + PAUSE
        if number == 2:  # zed is out: the three others, one table and a bye
            third = body["rounds"][-1]
            seated = [n for t in third["tables"] for n in t["seats"]]
            assert len(third["tables"]) == 1 and len(third["byes"]) == 1
            assert sorted(seated + third["byes"]) == ["ann", "bea", "cid"]

    assert body["status"] == "finished" and body["finished_at"] is not None
    expected = _by_hand(body["rounds"], names)
    lines = body["standings"]
    assert sorted(line["username"] for line in lines) == names
    for line in lines:
        points, buchholz = expected[line["username"]]
        assert (line["points"], line["tiebreak"]) == (float(points),
                                                      pytest.approx(float(buchholz)))
    assert lines[-1]["username"] == "zed" and lines[-1]["points"] == 0
    keys = [(line["points"], line["tiebreak"]) for line in lines]
    assert keys == sorted(keys, key=lambda k: (-k[0], -k[1]))
    # Every seated person was told each of their tables was ready.
    told = Counter(Notification.objects.filter(kind=Kind.TABLE_READY)
                   .values_list("user__username", flat=True))
    seated = Counter(n for done in body["rounds"] for t in done["tables"]
                     for n in t["seats"])
    assert told == seated
    assert Seat.objects.filter(game_id__in=[t["game_id"] for d in body["rounds"]
                                            for t in d["tables"]]).count() == 2 * 5
