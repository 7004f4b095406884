"""Turn-based games (`time_control: {"days": N}`, issue #31) through the database: the
API's one shape or the other, a whole four-player game over REST across several days
(the clock injected), the worker flagging a missed deadline while the others play on,
days of downtime given back, ranked turn-based games (shared rating, no live booking,
matchmaking by days), the lobby's form and My games."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import engine, services, worker
from games.models import Game, LiveRankedSeat, QueueEntry, Rating, RatingChange, Status
from games.ranked import clocks, matchmaking
from tests.conftest import client_for
from tests.games.helpers import started_game
from tests.games.ranked_helpers import finish_by_resignations
from tests.games.time_travel import TimeTravel, days_pass, travel

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture
def time_travel(monkeypatch: pytest.MonkeyPatch, db: object) -> TimeTravel:
    return travel(monkeypatch)


def _next_action(game: dict[str, Any]) -> dict[str, Any]:
    """A legal action of the seat to move that does not end the game."""
    rules = engine.get(game["kind"])
    state = rules.state_from_json(game["state"])
    return next(a for a in rules.legal_actions(state)
                if rules.result(rules.apply(state, a)) is None).to_json()


def _get(user, game_id: int) -> dict[str, Any]:
    answer = client_for(user).get(f"/api/games/{game_id}/")
    assert answer.status_code == 200
    return answer.json()


def _move(users, game: dict[str, Any]) -> dict[str, Any]:
    """The seat to move plays over REST; returns the game after it."""
    user = users[game["state"]["turn"]]
    answer = client_for(user).post(f"/api/games/{game['id']}/actions/",
                                   {"action": _next_action(game), "ply": game["ply"]},
                                   format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()["game"]


def _iso(when) -> str:
    return when.isoformat().replace("+00:00", "Z")


# -- the API --------------------------------------------------------------------------


@pytest.mark.parametrize("days", [1, 2, 3, 5, 7, 14])
def test_every_day_option_creates_a_turn_based_game(alice, days):
    answer = client_for(alice).post("/api/games/", {"kind": "quoridor",
                                                    "time_control": {"days": days}},
                                    format="json")
    assert answer.status_code == 201
    assert answer.json()["time_control"] == {"days": days}
    assert Game.objects.get(pk=answer.json()["id"]).time_control == {"days": days}


@pytest.mark.parametrize("control", [
    {"days": 4}, {"days": 0}, {"days": 30}, {"days": "3"}, {"days": True}, {"days": 2.0},
    {"days": None}, {"days": 3, "initial": 60}, {"days": 3, "increment": 0},
    {"days": 3, "initial": 60, "increment": 2}, {"weeks": 1}, {}, [3], "3d", 3,
])
def test_anything_but_one_shape_or_the_other_is_refused_with_a_code(alice, control):
    answer = client_for(alice).post("/api/games/", {"kind": "quoridor",
                                                    "time_control": control}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert "time_control" in answer.json()["errors"]
    assert not Game.objects.exists()


def test_the_service_refuses_the_same_shapes():
    assert services.validate_time_control({"days": 7}) == {"days": 7}
    assert services.validate_time_control({"initial": 60, "increment": 0}) == {
        "initial": 60, "increment": 0}
    for bad in ({"days": 6}, {"days": 2, "initial": 60, "increment": 1}, {"days": "2"}):
        with pytest.raises(services.InvalidRequest):
            services.validate_time_control(bad)


def test_the_schema_offers_both_shapes(anon):
    schema = anon.get("/api/schema/?format=json").json()
    field = schema["components"]["schemas"]["CreateGameIn"]["properties"]["time_control"]
    shapes = field.get("oneOf") or field["allOf"][0]["oneOf"]
    assert {tuple(sorted(s["required"])) for s in shapes} == {("increment", "initial"),
                                                               ("days",)}
    days = next(s for s in shapes if s["required"] == ["days"])
    assert days["properties"]["days"]["enum"] == [1, 2, 3, 5, 7, 14]
    assert all(s["additionalProperties"] is False for s in shapes)


# -- a whole game over REST, several days ----------------------------------------------


def test_a_four_player_turn_based_game_over_rest_across_days(players, time_travel):
    alice, bob, carol, dave = players
    created = client_for(alice).post("/api/games/", {"kind": "bloqueio",
                                                     "time_control": {"days": 2}},
                                     format="json")
    assert created.status_code == 201
    gid = created.json()["id"]
    for user in (bob, carol, dave):
        assert client_for(user).post(f"/api/games/{gid}/join/", {}, format="json"
                                     ).status_code == 200
    game = _get(alice, gid)
    assert game["status"] == "active" and game["time_control"] == {"days": 2}
    started = time_travel.now()
    assert abs(_deadline(game) - (started + 2 * DAY)) < timedelta(seconds=5)

    # Two rounds, one move a day: each turn's deadline is two days from its start.
    for _ in range(8):
        now = time_travel.advance(days=1)
        game = _move(players, game)
        assert game["clocks"]["turn_started_at"] == _iso(now)
        assert game["clocks"]["deadline"] == _iso(now + 2 * DAY)
        assert game["clocks"]["remaining_ms"] == [2 * 86_400_000] * 4
    assert game["state"]["turn"] == 0

    # Alice lets her two days pass: the worker's job flags her, the game goes on.
    time_travel.advance(days=1, hours=23)
    assert worker.clocks_tick() == 0
    assert _get(bob, gid)["state"]["in_game"] == [True, True, True, True]
    flagged_at = time_travel.advance(hours=1, minutes=1)
    assert worker.clocks_tick() == 1
    game = _get(bob, gid)
    assert game["status"] == "active"
    assert game["state"]["in_game"] == [False, True, True, True]
    assert game["state"]["turn"] == 1
    assert game["clocks"]["deadline"] == _iso(flagged_at + 2 * DAY)
    events = client_for(bob).get(f"/api/games/{gid}/events/").json()["events"]
    assert (events[-1]["seat"], events[-1]["action"]) == (0, {"type": "timeout"})
    late = client_for(alice).post(f"/api/games/{gid}/actions/",
                                  {"action": {"type": "move", "to": [2, 5]},
                                   "ply": game["ply"]}, format="json")
    assert late.status_code in (403, 409)

    # The three others play on, a move every half day.
    for _ in range(6):
        time_travel.advance(hours=12)
        game = _move(players, game)
    assert game["state"]["turn"] == 1
    # My games: Bob's turn, its deadline two days out, sorted by it.
    mine = client_for(bob).get("/api/me/games/").json()
    assert [(g["id"], g["your_turn"], g["time_control"]) for g in mine] == [
        (gid, True, {"days": 2})]
    assert mine[0]["deadline"] == game["clocks"]["deadline"]

    # Dave resigns; Bob misses his deadline; Carol is the last standing and wins.
    assert client_for(dave).post(f"/api/games/{gid}/resign/", {}, format="json"
                                 ).status_code == 200
    time_travel.advance(days=1, hours=23, minutes=59)
    assert worker.clocks_tick() == 0
    time_travel.advance(minutes=2)
    assert worker.clocks_tick() == 1
    game = _get(carol, gid)
    assert game["status"] == "finished"
    assert game["result"]["winner"] == 2 and game["result"]["reason"] == "last_standing"
    assert game["clocks"]["running"] is None


def _deadline(game: dict[str, Any]):
    from django.utils.dateparse import parse_datetime

    return parse_datetime(game["clocks"]["deadline"])


# -- the worker ------------------------------------------------------------------------


def _beat(when) -> None:
    """The clock worker was alive until `when`."""
    from games.models import ClockHeartbeat
    from games.ranked.heartbeat import HEARTBEAT

    ClockHeartbeat.objects.update_or_create(name=HEARTBEAT, defaults={"beat_at": when})


def _play(game: Game, users, now) -> Game:
    game.refresh_from_db()
    rules = engine.get(game.kind)
    state = rules.state_from_json(game.state)
    action = next(a for a in rules.legal_actions(state)
                  if rules.result(rules.apply(state, a)) is None)
    services.submit_action(game_id=game.pk, user=users[state.turn], action=action.to_json(),
                           ply=game.ply, now=now)
    game.refresh_from_db()
    return game


def test_the_worker_flags_a_missed_day_deadline_and_the_others_play_on(players):
    game = started_game(players, kind="quoridor4", time_control={"days": 3})
    t0 = game.started_at
    for n in range(5):  # everyone moves once, then seat 0 again: seat 1 to move
        game = _play(game, players, t0 + (n + 1) * DAY)
    assert game.state["turn"] == 1 and game.deadline == t0 + 8 * DAY
    _beat(t0 + 8 * DAY - timedelta(seconds=1))
    assert clocks.tick(t0 + 8 * DAY - timedelta(seconds=1)) == 0
    late = t0 + 8 * DAY + timedelta(seconds=1)
    _beat(late)
    assert clocks.tick(late) == 1
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    assert game.state["in_game"] == [True, False, True, True] and game.state["turn"] == 2
    assert game.deadline == late + 3 * DAY
    assert game.clock["remaining_ms"][1] == 0
    game = _play(game, players, late + DAY)  # seat 2, then seat 3 and seat 0 go on
    game = _play(game, players, late + 2 * DAY)
    assert game.state["turn"] == 0 and game.status == Status.ACTIVE


def test_days_passing_for_one_game_flag_it_on_the_next_real_tick(players):
    """What a browser test can do to a server in another process: move the game's clock
    into the past; the worker, beating in real time, flags it."""
    game = started_game(players, kind="bloqueio", time_control={"days": 2})
    game = _play(game, players, None)  # seat 1 to move, two days from now
    clocks.catch_up()
    days_pass(game.pk, days=1, hours=23)
    assert clocks.tick() == 0
    days_pass(game.pk, hours=1, minutes=1)
    assert clocks.tick() == 1
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and game.state["in_game"] == [True, False, True, True]
    game = _play(game, players, None)  # seat 2 plays on
    assert game.state["turn"] == 3


def test_days_of_worker_downtime_are_given_back_not_flagged(players):
    game = started_game(players[:2], kind="bloqueio2", time_control={"days": 1})
    t0 = game.started_at
    game = _play(game, players, t0 + timedelta(hours=2))  # seat 1 due at t0 + 26 h
    _beat(t0 + timedelta(hours=8))  # the worker died six hours into seat 1's turn
    back = t0 + 4 * DAY  # ... and came back three and a half days later
    assert clocks.tick(back) == 0
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and game.state["in_game"] == [True, True]
    assert game.deadline == back + timedelta(hours=18)  # the unwatched part of the day


def test_a_first_deadline_missed_by_the_whole_table_aborts(players):
    game = started_game(players, kind="bloqueio", time_control={"days": 1})
    late = game.started_at + DAY
    _beat(late)
    assert clocks.tick(late) == 1
    game.refresh_from_db()
    assert game.status == Status.ABORTED and game.result["reason"] == "aborted"


# -- ranked ----------------------------------------------------------------------------


def test_ranked_turn_based_games_share_the_kinds_rating_and_book_nobody(players):
    alice, bob = players[:2]
    first = started_game([alice, bob], kind="bloqueio2", ranked=True,
                         time_control={"days": 5})
    second = started_game([bob, alice], kind="bloqueio2", ranked=True,
                          time_control={"days": 1})
    assert first.status == second.status == Status.ACTIVE
    assert not LiveRankedSeat.objects.exists()  # nobody is kept from other ranked play
    assert matchmaking.join_queue(user=alice, kind="bloqueio2")["state"] == "queued"
    matchmaking.leave_queue(user=alice)
    finished = finish_by_resignations(first, [alice, bob], [0])
    assert finished.result["rated"] is True and finished.result["winner"] == 1
    # One rating per kind: the turn-based game moved the kind's rating; the game keeps
    # its time control, which is how a later split would tell the speeds apart.
    assert set(Rating.objects.values_list("kind", flat=True)) == {"bloqueio2"}
    changes = RatingChange.objects.filter(game=first)
    assert changes.count() == 2
    assert set(RatingChange.objects.filter(game__time_control__has_key="days")
               .values_list("game_id", flat=True)) == {first.pk}


def test_a_live_ranked_game_still_books_its_players(players):
    alice, bob = players[:2]
    started_game([alice, bob], kind="bloqueio2", ranked=True)
    assert LiveRankedSeat.objects.count() == 2
    # ... and a turn-based ranked game can still be joined beside it.
    other = started_game([alice, bob], kind="quoridor", ranked=True,
                         time_control={"days": 2})
    assert other.status == Status.ACTIVE


def test_matchmaking_pairs_only_players_who_asked_for_the_same_days(players):
    alice, bob, carol, dave = players
    matchmaking.join_queue(user=alice, kind="bloqueio2", time_control={"days": 3})
    assert matchmaking.join_queue(user=bob, kind="bloqueio2", time_control={"days": 7}
                                  )["time_control"] == {"days": 7}
    matchmaking.join_queue(user=carol, kind="bloqueio2")  # live
    assert not Game.objects.exists()
    matchmaking.join_queue(user=dave, kind="bloqueio2", time_control={"days": 3})
    game = Game.objects.get()
    assert game.ranked and game.time_control == {"days": 3}
    assert sorted(s.user_id for s in game.seats.all()) == sorted([alice.pk, dave.pk])
    assert not LiveRankedSeat.objects.exists()
    assert set(QueueEntry.objects.values_list("user_id", "days")) == {(bob.pk, 7),
                                                                       (carol.pk, None)}
    # Moving queues: bob asks for three days now and is matched with nobody yet.
    assert matchmaking.join_queue(user=bob, kind="bloqueio2", time_control={"days": 3}
                                  )["state"] == "queued"


def test_the_matchmaking_job_matches_each_queue_apart(players):
    alice, bob, carol, dave = players
    now = timezone.now()
    for user, days in ((alice, 2), (bob, None), (carol, 2), (dave, None)):
        QueueEntry.objects.create(user=user, kind="quoridor", days=days, skill=1500,
                                  joined_at=now, expires_at=now + timedelta(seconds=30))
    assert matchmaking.tick(now) == 2
    controls = {frozenset(s.user_id for s in g.seats.all()): g.time_control
                for g in Game.objects.all()}
    assert controls == {frozenset({alice.pk, carol.pk}): {"days": 2},
                        frozenset({bob.pk, dave.pk}): engine_clock("quoridor")}
    assert LiveRankedSeat.objects.count() == 2  # the live game's players only


def engine_clock(kind: str) -> dict[str, int]:
    initial, increment = engine.get(kind).info.clock
    return {"initial": initial, "increment": increment}


def test_the_queue_takes_days_over_rest_and_refuses_a_live_clock(alice):
    client = client_for(alice)
    answer = client.post("/api/matchmaking/", {"kind": "quoridor",
                                               "time_control": {"days": 14}}, format="json")
    assert answer.status_code == 201
    assert answer.json()["time_control"] == {"days": 14}
    assert client.get("/api/matchmaking/").json()["time_control"] == {"days": 14}
    for bad in ({"initial": 60, "increment": 0}, {"days": 4}, {"days": 3, "initial": 60}):
        answer = client.post("/api/matchmaking/", {"kind": "quoridor", "time_control": bad},
                             format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert client.post("/api/matchmaking/", {"kind": "quoridor"}, format="json"
                       ).json()["time_control"] is None


# -- the pages -------------------------------------------------------------------------


def _browser(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_the_lobby_offers_the_days_in_a_turn_based_group(alice):
    page = _browser(alice).get("/").content.decode()
    assert '<optgroup label="Turn-based">' in page
    for days in (1, 2, 3, 5, 7, 14):
        assert f'<option value="{days}d">' in page
    assert '<option value="3">3 days per move</option>' in page  # the ranked queue's


def test_the_create_form_makes_a_turn_based_game(alice, bob):
    browser = _browser(alice)
    response = browser.post("/games/new/", {"kind": "quoridor", "time_control": "3d"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.time_control == {"days": 3}
    services.join_game(game_id=game.pk, user=bob)
    page = browser.get("/games/mine/").content.decode()
    assert "3 days per move" in page
    bad = browser.post("/games/new/", {"kind": "quoridor", "time_control": "4d"}, follow=True)
    assert b"time_control.days must be one of" in bad.content
    assert Game.objects.count() == 1


def test_my_games_sorts_day_deadlines_with_live_ones(players):
    alice, bob = players[:2]
    days = started_game([alice, bob], kind="quoridor", time_control={"days": 1})
    live = started_game([alice, bob], kind="quoridor",
                        time_control={"initial": 86400, "increment": 0})
    Game.objects.filter(pk=live.pk).update(deadline=days.deadline + timedelta(hours=1))
    mine = client_for(alice).get("/api/me/games/").json()
    assert [g["id"] for g in mine] == [days.pk, live.pk]
    assert mine[0]["time_control"] == {"days": 1}
