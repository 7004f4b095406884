"""`get_game` and `seats_of` (one fixed statement each) read exactly what the ORM's
`games_with_seats()` and `seats_with_ratings()` read."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import selectors, services
from games.models import Game, Rating
from tests.conftest import make_user
from tests.games.helpers import play, started_game

pytestmark = pytest.mark.django_db


def _orm(game_id: int) -> Game:
    return selectors.games_with_seats().get(pk=game_id)


def _seat_rows(seats: list[Any]) -> list[tuple[Any, ...]]:
    return [(s.pk, s.seat, s.user_id, s.bot, s.user.username, s.user.bot_level,
             getattr(s, "user_rating", None)) for s in seats]


@pytest.fixture
def games(players: list[User]) -> list[Game]:
    """A waiting game, one played a little with a bot beside its people, one with rated
    players, and one finished."""
    alice, bob, carol, dave = players
    Rating.objects.create(user=alice, kind="bloqueio2", mu=27.0, sigma=5.0, rating=1612)
    Rating.objects.create(user=bob, kind="bloqueio2", mu=23.0, sigma=6.0, rating=1388)
    Rating.objects.create(user=bob, kind="quoridor", mu=20.0, sigma=6.0, rating=1100)
    waiting = services.create_game(user=carol, kind="bloqueio")
    with_bot = services.create_game(user=dave, kind="quoridor", bots=["easy"])
    rated = started_game([alice, bob], kind="bloqueio2")
    play(rated, [alice, bob], [{"type": "move", "to": [2, 5]}])
    over = started_game([bob, alice], kind="bloqueio2")
    services.resign(game_id=over.pk, user=bob)
    return [waiting, with_bot, rated, over]


def test_get_game_reads_what_the_orm_reads(games: list[Game], players: list[User],
                                           django_assert_num_queries: Any) -> None:
    for game in games:
        expected = _orm(game.pk)
        with django_assert_num_queries(1):
            found = selectors.get_game(game.pk)
        assert found is not None
        with django_assert_num_queries(0):  # the seats came with it, users and all
            assert selectors.game_json(found) == selectors.game_json(expected)
            assert _seat_rows(list(found.seats.all())) == _seat_rows(list(expected.seats.all()))
            for user in [*players, None]:
                uid = None if user is None else user.pk
                assert selectors.seat_of(found, uid) == selectors.seat_of(expected, uid)
        assert [(f.attname, getattr(found, f.attname)) for f in Game._meta.concrete_fields] \
            == [(f.attname, getattr(expected, f.attname)) for f in Game._meta.concrete_fields]


def test_get_game_of_no_game_is_none(db: Any) -> None:
    assert selectors.get_game(987654321) is None


def test_seats_of_reads_what_seats_with_ratings_reads(games: list[Game]) -> None:
    for game in games:
        expected = list(selectors.seats_with_ratings().filter(game=game))
        assert _seat_rows(selectors.seats_of(game)) == _seat_rows(expected)
    assert selectors.seats_of(services.create_game(user=make_user("erin"), kind="bloqueio2")) \
        != []
