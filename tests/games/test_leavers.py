"""Leavers in live games: a seat whose sockets all closed, its grace, and a bot taking it
over in casual games (games/leavers.py); profiles count the games left."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from bloqueio_site.errors import ServiceError
from games import computer, leavers, selectors, services, state_cache
from games.bot_accounts import bot_account
from games.errors import NotAPlayer
from games.live import presence
from games.models import Event, Game, Handover, Seat
from tests.conftest import client_for
from tests.games.helpers import at_once, started_game

pytestmark = pytest.mark.django_db(transaction=True)

AFTER_GRACE = timedelta(seconds=61)


def went_away(game: Game, seat: int) -> str:
    """A socket of `seat` opened and closed (presence's real script): its last one."""
    conn = uuid.uuid4().hex
    async_to_sync(presence.enter)(game.pk, conn, seat, game.seat_count)
    async_to_sync(presence.depart)(game.pk, conn, seat, game.seat_count)
    return conn


def connected(game: Game, seat: int) -> str:
    conn = uuid.uuid4().hex
    async_to_sync(presence.enter)(game.pk, conn, seat, game.seat_count)
    return conn


def refused(code: str, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        leavers.hand_to_bot(**kwargs)
    assert caught.value.code == code, caught.value.as_dict()
    return caught.value


@pytest.fixture
def duel(alice, bob) -> Game:
    return started_game([alice, bob], kind="bloqueio2")


def test_after_the_grace_another_player_hands_the_seat_to_a_bot(duel, alice, bob):
    went_away(duel, 1)
    game = leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice,
                               now=timezone.now() + AFTER_GRACE)
    seat = selectors.game_json(selectors.get_game(game.pk))["seats"][1]
    assert seat == {"seat": 1, "username": "medium-bot", "rating": None, "bot": "medium",
                    "replaced": "bob"}
    held = Seat.objects.get(game=duel, seat=1)
    assert (held.bot, held.user_id, held.replaced_id) == (True, bot_account("medium").pk, bob.pk)
    handover = Handover.objects.get(game=duel)
    assert (handover.seat, handover.ply, handover.replaced_id, handover.by_id) == (
        1, 0, bob.pk, alice.pk)
    # Its away record is gone with it: nobody's countdown shows for a bot's seat.
    assert presence.read_sync(duel.pk, 2)["away"] == {}


def test_the_level_can_be_chosen(duel, alice):
    went_away(duel, 1)
    leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice, level="easy",
                        now=timezone.now() + AFTER_GRACE)
    assert Seat.objects.get(game=duel, seat=1).user.bot_level == "easy"
    refused("unknown_level", game_id=duel.pk, seat=0, user=alice, level="godlike")


def test_too_early_is_refused_with_the_end_of_the_grace(duel, alice):
    before = timezone.now()
    went_away(duel, 1)
    error = refused("grace_not_over", game_id=duel.pk, seat=1, user=alice)
    until = parse_datetime(error.as_dict()["until"])
    assert before + timedelta(seconds=59) < until < timezone.now() + timedelta(seconds=61)
    assert error.status == 409


def test_the_grace_is_configurable(duel, alice, settings):
    settings.LEAVER_GRACE_SECONDS = 0
    went_away(duel, 1)
    leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice)
    assert Seat.objects.get(game=duel, seat=1).bot


def test_a_connected_player_or_one_who_never_left_is_not_away(duel, alice):
    later = timezone.now() + AFTER_GRACE
    refused("not_away", game_id=duel.pk, seat=1, user=alice, now=later)  # never connected
    connected(duel, 1)
    refused("not_away", game_id=duel.pk, seat=1, user=alice, now=later)


def test_coming_back_cancels_the_grace(duel, alice):
    went_away(duel, 1)
    conn = connected(duel, 1)
    refused("not_away", game_id=duel.pk, seat=1, user=alice, now=timezone.now() + AFTER_GRACE)
    # Leaving again starts a new grace, from then.
    async_to_sync(presence.depart)(duel.pk, conn, 1, 2)
    refused("grace_not_over", game_id=duel.pk, seat=1, user=alice)


def test_one_socket_of_several_closing_is_not_leaving(duel, alice):
    conn = connected(duel, 1)
    went_away(duel, 1)  # another tab of the same player
    assert presence.read_sync(duel.pk, 2)["away"] == {}
    async_to_sync(presence.depart)(duel.pk, conn, 1, 2)
    assert set(presence.read_sync(duel.pk, 2)["away"]) == {1}


def test_ranked_games_never_hand_a_seat_over(alice, bob):
    game = started_game([alice, bob], kind="bloqueio2", ranked=True)
    went_away(game, 1)
    refused("ranked_humans_only", game_id=game.pk, seat=1, user=alice,
            now=timezone.now() + AFTER_GRACE)
    assert not Seat.objects.filter(game=game, bot=True).exists()


def test_turn_based_games_have_no_grace(duel, alice):
    Game.objects.filter(pk=duel.pk).update(time_control={"days": 2})
    went_away(duel, 1)
    refused("turn_based_game", game_id=duel.pk, seat=1, user=alice,
            now=timezone.now() + AFTER_GRACE)
    body = selectors.game_json(selectors.get_game(duel.pk))
    assert leavers.public_presence(presence.read_sync(duel.pk, 2), body)["away"] == [None, None]


def test_only_a_player_still_in_the_game_may_ask(players):
    alice, bob, _carol, _dave = players
    game = started_game(players, kind="bloqueio")
    went_away(game, 3)
    later = timezone.now() + AFTER_GRACE
    outsider = bob.__class__.objects.create_user(username="erin", password="x-long-pass-1")
    refused("not_a_player", game_id=game.pk, seat=3, user=outsider, now=later)
    services.resign(game_id=game.pk, user=bob)
    refused("not_a_player", game_id=game.pk, seat=3, user=bob, now=later)
    refused("own_seat", game_id=game.pk, seat=0, user=alice, now=later)
    refused("invalid", game_id=game.pk, seat=4, user=alice, now=later)
    refused("not_found", game_id=game.pk + 1000, seat=3, user=alice, now=later)


def test_a_seat_that_left_or_a_bot_is_not_handed_over(players):
    alice, bob, carol, _dave = players
    game = started_game(players, kind="bloqueio")
    for seat in (2, 3):
        went_away(game, seat)
    later = timezone.now() + AFTER_GRACE
    services.resign(game_id=game.pk, user=carol)
    refused("already_left", game_id=game.pk, seat=2, user=alice, now=later)
    leavers.hand_to_bot(game_id=game.pk, seat=3, user=alice, now=later)
    refused("already_a_bot", game_id=game.pk, seat=3, user=bob, now=later)


def test_a_finished_game_is_refused(duel, alice, bob):
    went_away(duel, 1)
    services.resign(game_id=duel.pk, user=bob)
    refused("game_over", game_id=duel.pk, seat=1, user=alice, now=timezone.now() + AFTER_GRACE)


def test_two_players_asking_at_once_hand_it_over_once(players):
    alice, bob, carol, _dave = players
    game = started_game(players, kind="bloqueio")
    went_away(game, 3)
    seated = Game.objects.get(pk=game.pk).version
    later = timezone.now() + AFTER_GRACE
    outcomes: list[str] = []
    askers = iter([alice, bob, carol])

    def ask() -> None:
        user = next(askers)
        try:
            leavers.hand_to_bot(game_id=game.pk, seat=3, user=user, now=later)
            outcomes.append("handed")
        except ServiceError as exc:
            outcomes.append(exc.code)

    at_once(ask, 3)
    assert sorted(outcomes) == ["already_a_bot", "already_a_bot", "handed"]
    assert Handover.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == seated + 1  # one change: one version


def test_the_bot_plays_the_seat_it_took(duel, alice, bob):
    services.submit_action(game_id=duel.pk, user=alice, action={"type": "move", "to": [2, 5]},
                           ply=0)
    went_away(duel, 1)
    leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice, now=timezone.now() + AFTER_GRACE)
    assert computer.tick() >= 1
    moved = Event.objects.get(game=duel, ply=2)
    assert moved.seat == 1 and moved.action["type"] in ("move", "barrier")
    # The player it replaced cannot take it back: the seat is the bot's.
    with pytest.raises(NotAPlayer):
        services.resign(game_id=duel.pk, user=bob)


def test_a_snapshot_from_before_the_hand_over_never_writes_for_the_old_player(duel, alice,
                                                                                 bob):
    """Another process may still hold the seats as they were: the write guard's
    (the version, one on since) makes its write fail, and the row (read again) refuses
    bob."""
    services.submit_action(game_id=duel.pk, user=alice, action={"type": "move", "to": [2, 5]},
                           ply=0)
    before = state_cache.get(duel.pk)
    assert before is not None and before.seats[1].user_id == bob.pk
    went_away(duel, 1)
    leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice, now=timezone.now() + AFTER_GRACE)
    state_cache.put(before)  # as another process would still have it
    with pytest.raises(NotAPlayer):
        services.submit_action(game_id=duel.pk, user=bob,
                               action={"type": "move", "to": [8, 5]}, ply=1)
    assert Game.objects.get(pk=duel.pk).ply == 1


def test_the_hand_over_is_announced_as_a_change(duel, alice, published):
    went_away(duel, 1)
    leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice, now=timezone.now() + AFTER_GRACE)
    change = published[-1]
    assert change.change == "handover" and change.events == []
    assert change.game["seats"][1]["replaced"] == "bob"


def test_the_bot_is_not_rated_for_a_seat_it_took_over(duel, alice, bob):
    went_away(duel, 1)
    leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice, now=timezone.now() + AFTER_GRACE)
    services.resign(game_id=duel.pk, user=alice)
    assert Game.objects.get(pk=duel.pk).status == "finished"
    from games.models import RatingChange
    assert not RatingChange.objects.filter(game=duel).exists()


# -- the REST call ------------------------------------------------------------------------


def test_rest_hands_the_seat_over(duel, alice, bob, carol, settings):
    went_away(duel, 1)
    url = f"/api/games/{duel.pk}/seats/1/bot/"
    early = client_for(alice).post(url, {}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "grace_not_over"
    assert "until" in early.json()
    assert client_for(None).post(url, {}, format="json").status_code == 401
    stranger = client_for(carol).post(url, {}, format="json")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_a_player")
    bad = client_for(alice).post(f"/api/games/{duel.pk}/seats/7/bot/", {}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    settings.LEAVER_GRACE_SECONDS = 0
    done = client_for(alice).post(url, {"level": "hard"}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json()["seats"][1]["bot"] == "hard"
    assert done.json()["seats"][1]["replaced"] == "bob"
    again = client_for(alice).post(url, {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_a_bot")


def test_rest_game_shows_the_countdown(duel):
    went_away(duel, 1)
    body = client_for(None).get(f"/api/games/{duel.pk}/").json()
    assert body["presence"]["away"][0] is None
    until = parse_datetime(body["presence"]["away"][1])
    assert timezone.now() < until <= timezone.now() + timedelta(seconds=60)


# -- profiles -----------------------------------------------------------------------------


def test_profiles_count_games_finished_and_left(players):
    alice, bob, carol, dave = players
    handed = started_game([alice, bob], kind="bloqueio2")
    went_away(handed, 1)
    leavers.hand_to_bot(game_id=handed.pk, seat=1, user=alice,
                        now=timezone.now() + AFTER_GRACE)
    services.resign(game_id=handed.pk, user=alice)  # alice leaves it too; the bot wins
    whole = started_game([carol, dave], kind="bloqueio2")
    services.resign(game_id=whole.pk, user=dave)
    started_game([alice, carol], kind="quoridor")  # still running: not counted

    def counts(name: str) -> tuple[int, int, int]:
        body = client_for(None).get(f"/api/users/{name}/").json()
        assert body["games_played"] == body["games_finished"]
        return body["games_finished"], body["games_left"], body["wins"]

    assert counts("alice") == (1, 1, 0)
    assert counts("bob") == (1, 1, 0)  # handed to a bot after he went
    assert counts("carol") == (1, 0, 1)
    assert counts("dave") == (1, 1, 0)
    page = client_for(None).get("/users/bob/")
    assert page.status_code == 200 and b"left before the end" in page.content


def test_the_embedded_mode_records_a_seat_gone_too(duel, settings):
    """No Redis (`make run`'s default): the same record, in process memory."""
    settings.REDIS_URL = ""
    conn = connected(duel, 1)
    assert presence.snapshot_sync(duel.pk, 2)["away"] == {}
    async_to_sync(presence.depart)(duel.pk, conn, 1, 2)
    assert set(presence.read_sync(duel.pk, 2)["away"]) == {1}
    back, snapshot = async_to_sync(presence.enter)(duel.pk, conn, 1, 2)
    assert back and snapshot["away"] == {} and snapshot["online"] == [False, True]


def test_the_replay_knows_from_which_ply_the_bot_held_the_seat(duel, alice):
    services.submit_action(game_id=duel.pk, user=alice, action={"type": "move", "to": [2, 5]},
                           ply=0)
    went_away(duel, 1)
    leavers.hand_to_bot(game_id=duel.pk, seat=1, user=alice, now=timezone.now() + AFTER_GRACE)
    page = client_for(None).get(f"/games/{duel.pk}/replay/")
    assert page.status_code == 200
    assert page.context["data"]["handovers"] == [
        {"seat": 1, "ply": 1, "level": "medium", "replaced": "bob"}]
