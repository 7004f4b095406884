"""The computer on the platform: bot accounts and seats, the API to seat them, ranked
play kept human-only, the worker's bot turns (in process here; as a real worker
process in tests/faults/test_bot_worker.py), bot ratings, and the human leaderboard."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games import computer, engine, selectors, services
from games import round as game_round
from games.bot_accounts import bot_account, label
from games.errors import AlreadyStarted, HumansOnly, InvalidRequest, NotABot, NotAPlayer
from games.models import Event, Game, Rating, RatingChange, Seat
from games.ranked import leaderboard, matchmaking, ratings
from tests.conftest import clear_cache, client_for
from tests.games.ranked_helpers import resign_after_bots_moved

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_stale_claims() -> None:
    clear_cache()  # bot-turn claims of an earlier test's (game, ply) must not linger


def replay_is_legal(game: Game) -> engine.GameState:
    """Every recorded event is legal when it was played; returns the final state."""
    rules = engine.get(game.kind)
    state = rules.initial()
    for event in Event.objects.filter(game=game).order_by("ply"):
        assert event.seat == state.turn or event.action["type"] in ("resign", "timeout"), event
        state = rules.apply_event(state, selectors.engine_event(event.action, event.seat))
    return state


def test_bot_accounts_exist_per_level_and_cannot_log_in(alice: User) -> None:
    bots = [bot_account(level) for level in ("easy", "medium", "hard")]
    assert [b.bot_level for b in bots] == ["easy", "medium", "hard"]
    assert all(b.is_bot and not b.has_usable_password() for b in bots)
    assert not alice.is_bot
    assert bot_account("hard").pk == bots[2].pk  # one account per level
    assert label(bots[2]) == "Computer (hard)" and label(alice) == "alice"
    with pytest.raises(ValueError):
        bot_account("grandmaster")


def test_a_flushed_bot_account_is_created_again() -> None:
    User.objects.filter(bot_level="medium").delete()
    assert bot_account("medium").bot_level == "medium"


def test_playing_the_computer_starts_at_once_with_labelled_bot_seats(alice: User) -> None:
    game = services.create_game(user=alice, kind="bloqueio", bots=["easy", "medium", "medium"])
    game.refresh_from_db()
    assert game.status == "active" and game.started_at is not None
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    assert [s.bot for s in seats] == [False, True, True, True]
    # One medium account holds two seats: people hold one, bots may hold several.
    assert seats[2].user_id == seats[3].user_id == bot_account("medium").pk
    body = client_for(alice).get(f"/api/games/{game.pk}/").json()
    assert [s["bot"] for s in body["seats"]] == [None, "easy", "medium", "medium"]
    assert body["seats"][1]["username"] == "easy-bot"


def test_fewer_bots_than_seats_leave_the_game_waiting(alice: User, bob: User) -> None:
    game = services.create_game(user=alice, kind="bloqueio", bots=["hard"])
    assert game.status == "waiting"
    services.join_game(game_id=game.pk, user=bob)
    game = services.add_bot(game_id=game.pk, user=bob, level="easy")
    game.refresh_from_db()
    assert game.status == "active"
    assert [s["bot"] for s in client_for(bob).get(f"/api/games/{game.pk}/").json()["seats"]] \
        == [None, "hard", None, "easy"]


def test_create_refusals(alice: User) -> None:
    with pytest.raises(HumansOnly):
        services.create_game(user=alice, kind="quoridor", ranked=True, bots=["easy"])
    with pytest.raises(InvalidRequest) as too_many:
        services.create_game(user=alice, kind="quoridor", bots=["easy", "easy"])
    assert too_many.value.code == "too_many_bots"
    with pytest.raises(InvalidRequest) as unknown:
        services.create_game(user=alice, kind="quoridor", bots=["genius"])
    assert unknown.value.code == "unknown_level"
    with pytest.raises(InvalidRequest) as unsolved:
        services.create_game(user=alice, kind="quoridor", bots=["perfect"])
    assert unsolved.value.code == "level_not_offered"
    assert "perfect" in str(unsolved.value) and "Quoridor" in str(unsolved.value)
    assert not Game.objects.exists()  # nothing half-written
    solved = services.create_game(user=alice, kind="blockade_run", bots=["perfect"])
    assert solved.status == "active"


def test_bots_over_the_api_with_their_refusal_codes(alice: User, bob: User) -> None:
    api = client_for(alice)
    created = api.post("/api/games/", {"kind": "bloqueio", "bots": ["easy"]}, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    cases: list[tuple[Any, dict[str, Any], int, str]] = [
        (client_for(bob), {"level": "easy"}, 403, "not_a_player"),
        (api, {"level": "legendary"}, 400, "invalid"),
        (api, {"level": "easy", "seat": 1}, 409, "seat_taken"),
        (api, {"level": "easy", "seat": "2"}, 400, "invalid"),
    ]
    for client, body, status, code in cases:
        answer = client.post(f"/api/games/{gid}/bots/", body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    added = api.post(f"/api/games/{gid}/bots/", {"level": "hard", "seat": 3}, format="json")
    assert added.status_code == 201
    assert [s["bot"] for s in added.json()["seats"]] == [None, "easy", None, "hard"]
    assert api.delete(f"/api/games/{gid}/bots/2/").json()["code"] == "not_a_bot"
    assert client_for(bob).delete(f"/api/games/{gid}/bots/3/").json()["code"] == "not_a_player"
    removed = api.delete(f"/api/games/{gid}/bots/3/")
    assert removed.status_code == 200
    assert [s["bot"] for s in removed.json()["seats"]] == [None, "easy", None, None]
    assert client_for(None).post(f"/api/games/{gid}/bots/", {"level": "easy"},
                                 format="json").status_code == 401
    ranked = api.post("/api/games/", {"kind": "quoridor", "ranked": True, "bots": ["easy"]},
                      format="json")
    assert (ranked.status_code, ranked.json()["code"]) == (409, "ranked_humans_only")


def test_bots_stay_out_of_ranked_play(alice: User, bob: User) -> None:
    game = services.create_game(user=alice, kind="quoridor", ranked=True)
    with pytest.raises(HumansOnly):
        services.add_bot(game_id=game.pk, user=alice, level="easy")
    with pytest.raises(HumansOnly):
        matchmaking.join_queue(user=bot_account("hard"), kind="quoridor")
    with pytest.raises(HumansOnly):
        services.start_ranked_game(kind="quoridor", user_ids=[bob.pk, bot_account("easy").pk])
    with pytest.raises(InvalidRequest):
        services.join_game(game_id=game.pk, user=bot_account("easy"))


def test_removing_a_bot_needs_a_bot_and_a_waiting_game(alice: User) -> None:
    game = services.create_game(user=alice, kind="quoridor")
    with pytest.raises(NotABot):
        services.remove_bot(game_id=game.pk, user=alice, seat=0)
    services.add_bot(game_id=game.pk, user=alice, level="easy")
    with pytest.raises(AlreadyStarted):
        services.remove_bot(game_id=game.pk, user=alice, seat=1)


def test_when_the_last_person_leaves_a_waiting_game_it_is_aborted(alice: User) -> None:
    game = services.create_game(user=alice, kind="bloqueio", bots=["easy", "easy"])
    services.leave_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == "aborted"


def test_a_bot_acts_only_for_its_own_seat(alice: User) -> None:
    game = services.create_game(user=alice, kind="quoridor", bots=["easy"])
    game.refresh_from_db()
    rules = engine.get("quoridor")
    move = rules.legal_actions(rules.initial())[0].to_json()
    with pytest.raises(NotAPlayer):  # seat 0 is alice's, not the bot's
        services.submit_action(game_id=game.pk, user=bot_account("easy"), action=move,
                               ply=0, seat=0)


def test_the_worker_tick_plays_each_bot_turn_once_then_waits_for_the_person(
    alice: User,
) -> None:
    game = services.create_game(user=alice, kind="bloqueio", bots=["easy", "medium", "hard"])
    rules = engine.get("bloqueio")
    game.refresh_from_db()
    human_move = rules.legal_actions(rules.state_from_json(game.state))[0].to_json()
    services.submit_action(game_id=game.pk, user=alice, action=human_move, ply=0)
    assert [t.seat for t in computer.due()] == [1]
    assert computer.tick(budget_s=5) == 3  # easy, medium and hard answer in one tick
    game.refresh_from_db()
    assert game.ply == 4 and game.state["turn"] == 0  # alice's turn again
    assert computer.due() == [] and computer.tick() == 0  # nothing more, no double move
    assert list(Event.objects.filter(game=game).values_list("seat", flat=True)) == [0, 1, 2, 3]
    replay_is_legal(game)


def test_a_stale_turn_is_not_played(alice: User) -> None:
    game = services.create_game(user=alice, kind="quoridor", bots=["easy"])
    game.refresh_from_db()
    rules = engine.get("quoridor")
    services.submit_action(game_id=game.pk, user=alice,
                           action=rules.legal_actions(rules.initial())[0].to_json(), ply=0)
    [turn] = computer.due()
    assert computer.play(turn)
    assert not computer.play(turn)  # the same turn again: the ply moved on, nothing written
    assert Event.objects.filter(game=game).count() == 2


def test_a_turn_claimed_by_another_worker_is_left_to_it(alice: User) -> None:
    game = services.create_game(user=alice, kind="quoridor", bots=["easy"])
    rules = engine.get("quoridor")
    services.submit_action(game_id=game.pk, user=alice,
                           action=rules.legal_actions(rules.initial())[0].to_json(), ply=0)
    [turn] = computer.due()
    assert computer._claim(turn, 0.1)  # the other worker's claim
    assert computer.tick() == 0
    assert Event.objects.filter(game=game).count() == 1


def test_hard_budget_respects_the_clock_and_the_tick() -> None:
    turn = computer.Turn(game_id=1, ply=3, seat=1, user_id=1, level="hard")
    now = timezone.now()
    untimed = game_round.start("quoridor", None, now)
    assert computer.budget_for(turn, untimed, 10.0, now) == computer.HARD_BUDGET_S
    assert computer.budget_for(turn, untimed, 0.0, now) == computer.MIN_HARD_BUDGET_S
    timed = replace(game_round.start("quoridor", {"initial": 60, "increment": 0}, now),
                    clock=game_round.Clock((60_000, 4_000), (True, True), 0, now))
    assert computer.budget_for(turn, timed, 10.0, now) == pytest.approx(4.0 / computer.CLOCK_SHARE)


def _finish_by_resigning(game: Game, user: User) -> None:
    resign_after_bots_moved(game, user)
    game.refresh_from_db()


def test_bots_are_rated_against_people_and_kept_off_the_leaderboard(alice: User) -> None:
    game = services.create_game(user=alice, kind="quoridor", bots=["hard"])
    _finish_by_resigning(game, alice)
    assert game.status == "finished" and game.result["ranking"] == [2, 1]
    hard = bot_account("hard")
    rating = Rating.objects.get(user=hard, kind="quoridor")
    assert rating.games == 1 and rating.rating > 0
    assert not Rating.objects.filter(user=alice).exists()  # casual: people stay unrated
    change = RatingChange.objects.get(game=game)
    assert change.user_id == hard.pk and change.rating_after > change.rating_before
    # Even an established, active bot never appears on the human leaderboard.
    Rating.objects.filter(pk=rating.pk).update(provisional=False, games=50)
    assert not leaderboard.board(kind="quoridor").filter(user=hard).exists()
    assert all(row["username"] != hard.username
               for row in leaderboard.provisional(kind="quoridor"))
    profile = client_for(alice).get(f"/api/users/{hard.username}/").json()
    assert profile["bot"] == "hard"
    assert [r["kind"] for r in profile["ratings"]] == ["quoridor"]


def test_a_bot_on_several_seats_is_rated_once_at_its_best_place(alice: User) -> None:
    game = services.create_game(user=alice, kind="bloqueio", bots=["easy", "easy", "easy"])
    _finish_by_resigning(game, alice)
    easy = bot_account("easy")
    while game.status == "active":
        assert computer.tick(budget_s=10) > 0
        game.refresh_from_db()
    assert RatingChange.objects.filter(game=game).count() == 1
    change = RatingChange.objects.get(game=game)
    assert change.user_id == easy.pk and change.rank == 1
    replay_is_legal(game)


def test_every_bot_account_of_a_game_is_rated(alice: User) -> None:
    game = services.create_game(user=alice, kind="bloqueio", bots=["easy", "medium", "easy"])
    _finish_by_resigning(game, alice)
    while game.status == "active":
        computer.tick(budget_s=10)
        game.refresh_from_db()
    assert game.status == "finished"
    assert set(RatingChange.objects.filter(game=game).values_list("user__bot_level", flat=True)) \
        == {"easy", "medium"}


def test_games_between_bots_alone_rate_nobody(alice: User) -> None:
    game = services.create_game(user=alice, kind="bloqueio", bots=["easy", "medium", "hard"])
    bot_seats = [s for s in Seat.objects.filter(game=game) if s.bot]
    ratings.rate_bots(game=game, seats=bot_seats, ranking=[4, 1, 2, 3], now=game.created_at)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_bot_profile_lists_each_game_once(alice: User) -> None:
    first = services.create_game(user=alice, kind="bloqueio", bots=["easy", "easy", "easy"])
    second = services.create_game(user=alice, kind="quoridor", bots=["easy"])
    profile = client_for(None).get("/api/users/easy-bot/").json()
    assert [g["id"] for g in profile["recent_games"]] == [second.pk, first.pk]
    assert [g["seat"] for g in profile["recent_games"]] == [1, 1]



def test_a_computer_game_its_people_left_is_aborted_and_leaves_live_now(alice: User) -> None:
    """Issue 28: a game with bots whose person closed the tab stayed under "Live now"."""
    game = services.create_game(user=alice, kind="bloqueio", bots=["easy", "easy", "easy"])
    game.refresh_from_db()
    assert game.state["turn"] == 0  # alice's turn: the computer waits for her
    soon = game.started_at + computer.ABANDONED_AFTER / 2
    assert computer.abort_abandoned(now=soon) == 0
    later = game.started_at + computer.ABANDONED_AFTER + timedelta(seconds=1)
    assert computer.abort_abandoned(now=later) == 1
    game.refresh_from_db()
    assert game.status == "aborted"


def test_a_game_with_a_clock_or_without_bots_is_left_alone(alice: User, bob: User) -> None:
    timed = services.create_game(user=alice, kind="quoridor", bots=["easy"],
                                 time_control={"initial": 60, "increment": 1})
    people = services.create_game(user=bob, kind="quoridor")
    services.join_game(game_id=people.pk, user=alice)
    timed.refresh_from_db()
    later = timed.started_at + computer.ABANDONED_AFTER * 2
    assert computer.abort_abandoned(now=later) == 0
