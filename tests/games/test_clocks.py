"""Server clocks: charging, flags via the worker and via actions, first-move aborts,
and a restart that must not flag the player to move."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import rematch, services
from games.errors import FlagFell
from games.models import Event, Game, Rating, Status
from games.ranked import clocks
from tests.conftest import client_for
from tests.games.helpers import started_game
from tests.games.ranked_helpers import watched

pytestmark = pytest.mark.django_db

OPENING = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [9, 4]}]


def _two_player(players, **options) -> Game:
    return started_game(players[:2], kind="bloqueio2", ranked=True, **options)


def _move(game, users, action, now):
    game.refresh_from_db()
    return services.submit_action(game_id=game.pk, user=users[game.state["turn"]],
                                  action=action, ply=game.ply, now=now)


def _opened(players, tc=None) -> tuple[Game, object]:
    """A 2-seat ranked game where both seats made their (free) first move."""
    game = _two_player(players, time_control=tc or {"initial": 60, "increment": 2})
    t0 = game.started_at
    _move(game, players, OPENING[0], t0 + timedelta(seconds=3))
    _move(game, players, OPENING[1], t0 + timedelta(seconds=6))
    game.refresh_from_db()
    return game, t0


def test_ranked_games_get_a_default_time_control_and_show_clocks(players):
    game = _two_player(players)
    assert game.time_control == clocks.default_time_control("bloqueio2")
    body = client_for(players[0]).get(f"/api/games/{game.pk}/").json()
    initial = game.time_control["initial"] * 1000
    assert body["clocks"]["remaining_ms"] == [initial, initial]
    assert body["clocks"]["running"] == 0
    assert body["clocks"]["first_move"] is True
    casual = started_game(players[:2], kind="bloqueio2")
    assert client_for(None).get(f"/api/games/{casual.pk}/").json()["clocks"] is None


def test_moves_are_charged_with_the_fischer_increment(players):
    game, t0 = _opened(players)
    assert game.clock["remaining_ms"] == [60_000, 60_000]  # opening moves are free
    _move(game, players, {"type": "move", "to": [3, 5]}, t0 + timedelta(seconds=16))
    game.refresh_from_db()
    assert game.clock["remaining_ms"] == [60_000 - 10_000 + 2_000, 60_000]
    assert game.deadline == t0 + timedelta(seconds=16 + 60)


def test_the_worker_flags_a_seat_whose_time_ran_out(players):
    game, t0 = _opened(players)
    late = t0 + timedelta(seconds=6 + 61)
    watched(t0, late)
    assert clocks.tick(late) == 1
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert game.result["winner"] == 1
    last = Event.objects.filter(game=game).order_by("-ply").first()
    assert (last.seat, last.action) == (0, {"type": "timeout"})
    assert game.clock["remaining_ms"][0] == 0
    # One move each: the result stands, but too short to rate (docs/ranked.md).
    assert game.result["unrated"] == ["too_short", "too_short"]
    assert not Rating.objects.filter(kind="bloqueio2").exists()


def test_the_action_path_flags_even_without_the_worker_sweeping(players):
    game, t0 = _opened(players)
    late = t0 + timedelta(seconds=6 + 61)
    watched(t0, late)  # alive, but its sweep has not reached this game yet
    with pytest.raises(FlagFell):
        _move(game, players, {"type": "move", "to": [3, 5]}, late)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert Event.objects.filter(game=game, action={"type": "timeout"}).count() == 1
    response = client_for(players[1]).post(
        f"/api/games/{game.pk}/actions/", {"action": {"type": "move", "to": [8, 4]},
                                           "ply": game.ply}, format="json")
    assert response.json()["code"] == "game_over"


def test_with_the_worker_down_a_move_gives_the_unwatched_time_back_and_goes_on(players):
    game, t0 = _opened(players)
    watched(t0, t0 + timedelta(seconds=16))  # the worker dies 10 s into seat 0's turn
    late = t0 + timedelta(seconds=500)  # long past the deadline, which nobody saw pass
    _move(game, players, {"type": "move", "to": [3, 5]}, late)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and game.ply == 3
    # Charged only the 10 s the worker watched (plus the increment), not 494 s.
    assert game.clock["remaining_ms"][0] == 60_000 - 10_000 + 2_000
    assert not Event.objects.filter(game=game, action={"type": "timeout"}).exists()


def test_with_the_worker_down_resigning_always_goes_through(players):
    game, t0 = _opened(players)
    watched(t0, t0 + timedelta(seconds=6))
    game.deadline = t0 + timedelta(seconds=66)  # passed long ago, unwatched
    game.save(update_fields=["deadline"])
    finished = services.resign(game_id=game.pk, user=players[1])
    assert finished.status == Status.FINISHED
    assert finished.result["winner"] == 0 and finished.result["reason"] == "last_standing"


def test_a_restart_does_not_flag_the_player_to_move(players):
    game, t0 = _opened(players)
    watched(t0, t0 + timedelta(seconds=26))  # seat 0 thinks for 20 s, then the site dies
    back = t0 + timedelta(seconds=1000)
    assert clocks.tick(back) == 0
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    # 20 s were used while the worker watched; the 40 s left run from the restart.
    assert game.deadline == back + timedelta(seconds=40)
    _move(game, players, {"type": "move", "to": [3, 5]}, back + timedelta(seconds=30))
    game.refresh_from_db()
    assert game.clock["remaining_ms"][0] == 10_000 + 2_000


def test_a_missing_first_move_aborts_the_game_unrated(players):
    game = _two_player(players)
    late = game.started_at + timedelta(seconds=clocks.FIRST_MOVE_SECONDS + 1)
    watched(game.started_at, late)
    clocks.tick(late)
    game.refresh_from_db()
    assert game.status == Status.ABORTED
    assert not Rating.objects.exists()
    # The players are free for another ranked game.
    again = _two_player(players)
    assert again.status == Status.ACTIVE


def test_a_rematch_gets_the_private_first_move_window(players):
    """A rematch moves the whole table at once: its first mover has minutes, not 30 s,
    and the game JSON says when the window ends and what a miss does."""
    game, _ = _opened(players)
    services.resign(game_id=game.pk, user=players[0])
    rematch.offer(game_id=game.pk, user=players[0])
    new_id = rematch.offer(game_id=game.pk, user=players[1])["game_id"]
    again = Game.objects.get(pk=new_id)
    assert again.private and again.status == Status.ACTIVE
    assert again.deadline == again.turn_started_at + timedelta(
        seconds=clocks.PRIVATE_FIRST_MOVE_SECONDS)
    shown = client_for(players[0]).get(f"/api/games/{new_id}/").json()["clocks"]
    assert shown["first_move"] is True and shown["first_move_aborts"] is True
    late = again.started_at + timedelta(seconds=clocks.FIRST_MOVE_SECONDS + 1)
    watched(again.started_at, late)
    clocks.tick(late)
    again.refresh_from_db()
    assert again.status == Status.ACTIVE  # an open table's 30 s is not this one's window


def test_several_workers_flag_once(players):
    game, t0 = _opened(players)
    late = t0 + timedelta(seconds=70)
    watched(t0, late)
    assert clocks.tick(late) + clocks.tick(late) == 1
    assert Event.objects.filter(game=game, action={"type": "timeout"}).count() == 1
