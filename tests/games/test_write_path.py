"""The one write path (games/table.py, games/round_store.py) against the database:
lost races decided once more from the locked row, the clock worker never waiting on a
busy game, what each write announces, and the refusals' words."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection

from games import engine, services, state_cache
from games.errors import AlreadyLeft, GameError
from games.models import Event, Game
from games.refusal_text import service_error
from games.round import refusals
from tests.games.helpers import at_once, started_game
from tests.games.ranked_helpers import watched

OPENING = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [9, 4]}]  # bloqueio2


@pytest.fixture
def held() -> Iterator[Any]:
    """`held(game_id)`: another session locks the game's row and keeps it."""
    sessions: list[psycopg.Connection[Any]] = []
    params = connection.settings_dict

    def hold(game_id: int) -> None:
        conn = psycopg.connect(dbname=params["NAME"], user=params["USER"],
                               host=params["HOST"], port=params["PORT"] or 5432,
                               password=params["PASSWORD"] or None)
        conn.execute(f"SELECT id FROM {Game._meta.db_table} WHERE id = %s FOR UPDATE",
                     [game_id])
        sessions.append(conn)

    yield hold
    for conn in sessions:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_the_clock_worker_skips_a_game_another_transaction_holds(players, held):
    game = started_game(players[:2], kind="bloqueio2", ranked=True)
    late = game.started_at + timedelta(seconds=40)
    watched(game.started_at, late)
    held(game.pk)  # a write in progress (or a stalled one)
    assert services.expire_clock(game_id=game.pk, now=late) is False  # no wait, no error
    game.refresh_from_db()
    assert game.status == "active"


@pytest.mark.django_db(transaction=True)
def test_the_clock_worker_flags_from_a_snapshot_or_the_row_alike(players):
    game = started_game(players[:2], kind="bloqueio2", ranked=True)
    assert state_cache.get(game.pk, 0) is not None  # the start left one
    late = game.started_at + timedelta(seconds=40)
    watched(game.started_at, late)
    assert services.expire_clock(game_id=game.pk, now=late) is True
    assert services.expire_clock(game_id=game.pk, now=late) is False  # over now
    game.refresh_from_db()
    assert game.status == "aborted"  # nobody made a first move


@pytest.mark.django_db(transaction=True)
def test_duplicate_resigns_at_once_land_once_and_the_rest_already_left(players):
    game = started_game(players)
    outcomes: list[str] = []

    def resign() -> None:
        try:
            services.resign(game_id=game.pk, user=players[2])
            outcomes.append("ok")
        except GameError as exc:
            outcomes.append(exc.code)

    at_once(resign, 6)
    assert sorted(outcomes) == ["already_left"] * 5 + ["ok"]
    assert list(Event.objects.filter(game=game).values_list("seat", "action")) == [
        (2, {"type": "resign"})]


@pytest.mark.django_db(transaction=True)
def test_resigns_racing_moves_all_land_in_one_gapless_log(players):
    game = started_game(players, kind="quoridor4")
    rules = engine.get("quoridor4")
    roles = iter(["move", "resign", "resign", "move"])
    outcomes: list[str] = []

    def work() -> None:
        role = next(roles)  # taken before the threads are released together
        try:
            if role == "move":  # seat 0's first move (the loser: stale_ply)
                services.submit_action(game_id=game.pk, user=players[0], ply=0,
                                       action=rules.legal_actions(rules.initial())[0].to_json())
            else:  # seat 3, out of turn (the loser: already_left)
                services.resign(game_id=game.pk, user=players[3])
            outcomes.append(f"{role}: ok")
        except GameError as exc:
            outcomes.append(f"{role}: {exc.code}")

    at_once(work, 4)
    resigns = sorted(o for o in outcomes if o.startswith("resign"))
    moves = [o for o in outcomes if o.startswith("move")]
    assert resigns == ["resign: already_left", "resign: ok"]
    # The resign may come first: then both moves were sent for a ply gone by.
    assert moves.count("move: ok") <= 1
    assert {o for o in moves if o != "move: ok"} <= {"move: stale_ply"}
    game.refresh_from_db()
    assert game.ply == 1 + moves.count("move: ok")
    plies = list(Event.objects.filter(game=game).values_list("ply", flat=True))
    assert plies == list(range(1, game.ply + 1))
    assert Event.objects.filter(game=game, action={"type": "resign"}).count() == 1


@pytest.mark.django_db(transaction=True)
def test_each_write_announces_what_it_did(players, published):
    game = started_game(players[:2], kind="bloqueio2")
    published.clear()
    services.submit_action(game_id=game.pk, user=players[0], action=OPENING[0], ply=0)
    services.abort_game(game_id=game.pk)
    other = started_game(players[:2], kind="bloqueio2")
    services.resign(game_id=other.pk, user=players[1])
    assert [(m.game_id, m.change, [e["ply"] for e in m.events]) for m in published] == [
        (game.pk, "events", [1]), (game.pk, "aborted", []),
        (other.pk, "created", []), (other.pk, "started", []), (other.pk, "finished", [1])]
    assert published[-1].game["result"]["winner"] == 0


@pytest.mark.django_db
def test_a_seat_that_left_cannot_resign_again(players):
    game = started_game(players)
    services.resign(game_id=game.pk, user=players[1])
    with pytest.raises(AlreadyLeft, match=r"Seat 1 has already left the game\."):
        services.resign(game_id=game.pk, user=players[1])


def test_every_refusal_has_its_code_and_words():
    samples = {
        refusals.NotStarted(): ("not_started", "The game has not started yet."),
        refusals.GameOver(status="finished"): ("game_over", "The game is finished."),
        refusals.AlreadyOver(status="aborted"): ("game_over",
                                                 "The game is already aborted."),
        refusals.StalePly(ply=4, sent=2): ("stale_ply", "The game is at ply 4, not 2."),
        refusals.NotYourTurn(seat=2): ("not_your_turn", "It is seat 2's turn."),
        refusals.IllegalAction(reason="cell [3,5] is not reachable"): (
            "illegal_action", "cell [3,5] is not reachable"),
        refusals.PassNotSent(): ("illegal_action",
                                 "a pass is recorded by the server, never sent"),
        refusals.AlreadyLeft(seat=1): ("already_left", "Seat 1 has already left the game."),
        refusals.FlagFell(seat=0, ply=9): (
            "flag_fell", "Seat 0 ran out of time; the game is now at ply 9."),
        # The seating rules' (games/round/seating.py), worded as the services said them.
        refusals.AlreadyStarted(status="active", leaving=False): (
            "already_started", "The game has already started."),
        refusals.AlreadyStarted(status="active", leaving=True): (
            "already_started", "The game has started: resign instead."),
        refusals.AlreadySeated(): ("already_seated", "You already have a seat in this game."),
        refusals.GameFull(): ("game_full", "Every seat is taken."),
        refusals.NoSuchSeat(last=3): ("invalid", "This game has seats 0 to 3."),
        refusals.SeatTaken(seat=2): ("seat_taken", "Seat 2 is taken."),
        refusals.NotSeated(doing="leave"): ("not_a_player", "You have no seat in this game."),
        refusals.NotSeated(doing="add_bot"): ("not_a_player",
                                              "Only a seated player can add a bot."),
        refusals.NotSeated(doing="remove_bot"): ("not_a_player",
                                                 "Only a seated player can remove a bot."),
        refusals.NotABot(seat=1): ("not_a_bot", "Seat 1 is not a bot's."),
        refusals.HumansOnly(): ("ranked_humans_only", "Ranked games are between people."),
        # A leaver's seat handed to the computer (games/leavers.py).
        refusals.HumansOnly(handover=True): (
            "ranked_humans_only",
            "Ranked games are between people: a seat that left is played out by its clock."),
        refusals.NotSeated(doing="hand_over"): (
            "not_a_player", "Only a player still in the game can hand a seat to a bot."),
        refusals.TurnBasedGame(): (
            "turn_based_game",
            "A turn-based game has no grace period: the move's deadline decides."),
        refusals.OwnSeat(): ("own_seat", "That is your own seat: resign to leave it."),
        refusals.SeatFree(seat=3): ("invalid", "Seat 3 is not taken in this game."),
        refusals.AlreadyABot(seat=1): ("already_a_bot",
                                       "The computer already plays seat 1."),
    }
    covered = {type(r) for r in samples}
    assert covered == set(_all_subclasses(refusals.Refusal))
    for refusal, (code, words) in samples.items():
        error = service_error(refusal)
        assert (error.code, error.detail) == (code, words) == (refusal.code, words)


def _all_subclasses(cls: type) -> list[type]:
    return [sub for direct in cls.__subclasses__() for sub in [direct, *_all_subclasses(direct)]]
