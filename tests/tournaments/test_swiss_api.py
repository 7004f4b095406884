"""A Swiss over the REST API, as clients play it: created, joined, started, every
table's game played to its end (by resignations, in an order that fixes each table's
places), the worker moving it on from round to round, and the standings checked
against points and Buchholz worked out here from the tables (docs/tournaments.md).

Twelve players, three rounds of Bloqueio: three full tables a round. Ten players: two
tables and two byes a round, the byes going round. Entries change between rounds only.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from games import worker
from games.models import Game, Seat
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_pause_between_rounds(settings: Any) -> None:
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = 0


def _field(count: int) -> dict[str, Any]:
    return {f"p{i:02}": client_for(make_user(f"p{i:02}")) for i in range(count)}


def _create(client: Any, rounds: int) -> dict[str, Any]:
    made = client.post("/api/tournaments/", {"kind": "bloqueio", "rounds": rounds},
                       format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert (body["status"], body["round_count"], body["players"], body["rounds"]) == (
        "upcoming", rounds, [], [])
    return body


def _play_round(clients: dict[str, Any], tournament: dict[str, Any]) -> None:
    """Every table of the playing round: seats 3, 2, 1 resign in turn, so seat 0 wins
    and the places follow the seats (the ranking puts the latest to leave first)."""
    playing = tournament["rounds"][-1]
    assert not playing["finished"]
    for table in playing["tables"]:
        game = Game.objects.get(pk=table["game_id"])
        assert game.status == "active" and game.kind == "bloqueio"
        seats = dict(Seat.objects.filter(game=game).values_list("seat", "user__username"))
        assert [seats[s] for s in range(4)] == table["seats"]
        for name in reversed(table["seats"][1:]):
            left = clients[name].post(f"/api/games/{table['game_id']}/resign/", {},
                                      format="json")
            assert left.status_code == 200, left.json()
        game.refresh_from_db()
        assert game.status == "finished" and game.result["ranking"] == [1, 2, 3, 4]


def _by_hand(rounds: list[dict[str, Any]], names: list[str]) -> dict[str, tuple[Fraction, ...]]:
    """Points (3/2/1/0 by seat here; a bye 1.5) and Buchholz (per table the mean of the
    mates' final points, per bye one's own), from the tables alone."""
    points = {n: Fraction(0) for n in names}
    byes = Counter[str]()
    for done in rounds:
        for name in done["byes"]:
            points[name] += Fraction(3, 2)
            byes[name] += 1
        for table in done["tables"]:
            for seat, name in enumerate(table["seats"]):
                points[name] += 3 - seat
    buchholz = {n: byes[n] * points[n] for n in names}
    for done in rounds:
        for table in done["tables"]:
            for name in table["seats"]:
                mates = [m for m in table["seats"] if m != name]
                buchholz[name] += sum(points[m] for m in mates) / len(mates)
    return {n: (points[n], buchholz[n]) for n in names}


def _run(count: int, rounds: int) -> tuple[dict[str, Any], dict[str, Any]]:
    clients = _field(count)
    organiser = clients["p00"]
    tournament = _create(organiser, rounds)
    url = f"/api/tournaments/{tournament['id']}/"
    for client in clients.values():
        joined = client.post(url + "join/", {}, format="json")
        assert joined.status_code == 200, joined.json()
    stranger = clients["p01"].post(url + "start/", {}, format="json")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_organiser")
    started = organiser.post(url + "start/", {}, format="json")
    assert started.status_code == 200, started.json()
    body = started.json()
    assert body["status"] == "running" and len(body["rounds"]) == 1
    for number in range(1, rounds + 1):
        # Entries are closed while a round plays.
        late = clients["p03"].post(url + "withdraw/", {}, format="json")
        assert (late.status_code, late.json()["code"]) == (409, "round_playing")
        _play_round(clients, body)
        worker.run_now("tournaments")  # the worker's job: the round is over
        worker.run_now("tournaments")  # (no pause here) the next is seated
        body = organiser.get(url).json()
        assert all(done["finished"] for done in body["rounds"][:number])
        assert len(body["rounds"]) == min(number + 1, rounds)
    assert body["status"] == "finished" and body["finished_at"] is not None
    return clients, body


def _check_standings(body: dict[str, Any], names: list[str]) -> None:
    expected = _by_hand(body["rounds"], names)
    lines = body["standings"]
    assert sorted(line["username"] for line in lines) == sorted(names)
    for line in lines:
        points, buchholz = expected[line["username"]]
        assert line["points"] == float(points)
        assert line["tiebreak"] == pytest.approx(float(buchholz))
    keys = [(Fraction(line["points"]), line["tiebreak"]) for line in lines]
    assert keys == sorted(keys, key=lambda k: (-k[0], -k[1]))  # best first
    assert lines[0]["rank"] == 1


def test_twelve_players_three_rounds_of_bloqueio():
    clients, body = _run(12, 3)
    names = sorted(clients)
    _check_standings(body, names)
    met: Counter[frozenset[str]] = Counter()
    seats: dict[str, Counter[int]] = {n: Counter() for n in names}
    for done in body["rounds"]:
        assert done["byes"] == []
        assert sorted(n for t in done["tables"] for n in t["seats"]) == names
        for table in done["tables"]:
            for pair in itertools.combinations(table["seats"], 2):
                met[frozenset(pair)] += 1
            for seat, name in enumerate(table["seats"]):
                seats[name][seat] += 1
    # Three tables of four: a second round cannot avoid repeats (each new table takes
    # four players from three old ones), so they are spread: no pair meets more than
    # ceil(3 rounds x 3 mates / 11 others) + 1 = 2 times (docs/tournaments.md).
    assert max(met.values()) == 2
    assert all(max(c.values()) == 1 for c in seats.values())  # three different seats each
    # Every table is a ranked game, judged by the rating rules when it ended (these,
    # resigned at once, are too short to rate: fair_play's `too_short`).
    games = Game.objects.filter(pk__in=[t["game_id"] for d in body["rounds"]
                                        for t in d["tables"]])
    assert games.count() == 9
    assert all(g.ranked and g.result["rated"] is False for g in games)


def test_ten_players_two_tables_and_two_byes_a_round():
    clients, body = _run(10, 3)
    names = sorted(clients)
    _check_standings(body, names)
    byes = Counter(name for done in body["rounds"] for name in done["byes"])
    assert all(len(done["byes"]) == 2 and len(done["tables"]) == 2 for done in body["rounds"])
    assert max(byes.values()) == 1  # nobody gets a second bye while another has none
    for done in body["rounds"]:
        seated = [n for t in done["tables"] for n in t["seats"]] + done["byes"]
        assert sorted(seated) == names
