"""Nobody moderates a game they play (issue #44, item 4): a moderator who removed their
opponent's seat in admin won their own ranked game, rated. Every game action (remove a
seat, abort, annul, a report about the game) is refused with `own_game` to anyone who
sits or sat in the game, superusers included; a game where staff sit is staff's, so a
moderator's action on it is `staff_protected`; and a ban, which removes the banned
user's seats, follows the same two rules. Tried through the admin (the real actions,
over the Django test client) and through the services; each refusal is logged.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from games.bot_accounts import bot_account
from games.models import Event, Game, RatingChange, Seat
from moderation import services as moderation
from moderation.errors import OwnGame, StaffProtected
from moderation.models import ModerationLog
from tests.accounts.test_bans import _change_form
from tests.games.helpers import started_game
from tests.games.ranked_helpers import finish_by_resignations, play_opening
from tests.moderation.conftest import browser, messages_of

pytestmark = pytest.mark.django_db

GAMES = "/admin/games/game/"


def _ranked(users: list[User]) -> Game:
    """A ranked two-seat game past its opening: a seat's removal now would be rated."""
    return play_opening(started_game(users, kind="quoridor", ranked=True), users)


def _remove(client, game: Game, seat: int) -> list[str]:
    response = client.post(f"{GAMES}{game.pk}/remove-seat/",
                           {"seat": seat, "reason": "abusive"}, follow=True)
    assert response.status_code == 200
    return messages_of(response)


def _untouched(game: Game) -> None:
    after = Game.objects.get(pk=game.pk)
    assert (after.status, after.ply, after.annulled_at) == (game.status, game.ply,
                                                            game.annulled_at)
    assert not RatingChange.objects.filter(game=game).exists()


def test_a_moderator_cannot_remove_their_opponents_seat_in_admin(alice, mod):
    game = _ranked([mod, alice])
    events = Event.objects.filter(game=game).count()
    said = _remove(browser(mod), game, 1)
    assert any("another moderator must act on it" in m for m in said), said
    _untouched(game)
    assert Event.objects.filter(game=game).count() == events
    entry = ModerationLog.objects.get()
    assert (entry.actor, entry.action) == (mod, "remove_seat")
    assert "You play in game" in entry.outcome


def test_a_superuser_cannot_decide_their_own_game_either(alice, root):
    game = _ranked([root, alice])
    client = browser(root)
    assert any("another moderator" in m for m in _remove(client, game, 1))
    response = client.post(GAMES, {"action": "abort_games", "_selected_action": [game.pk],
                                   "reason": "stuck"}, follow=True)
    assert "Aborted 0 games." in messages_of(response)
    _untouched(game)
    assert set(ModerationLog.objects.values_list("action", "outcome")) == {
        ("remove_seat", f"You play in game {game.pk}: another moderator must act on it."),
        ("abort_game", f"You play in game {game.pk}: another moderator must act on it.")}


def test_a_superusers_finished_game_is_not_theirs_to_annul(alice, root):
    players = [root, alice]
    game = finish_by_resignations(started_game(players, kind="quoridor", ranked=True),
                                  players, [0])  # root lost
    assert RatingChange.objects.filter(game=game).exists()
    with pytest.raises(OwnGame) as refused:
        moderation.moderate_annul(actor=root, game_id=game.pk, reason="a bad day")
    assert (refused.value.code, refused.value.status) == ("own_game", 403)
    assert Game.objects.get(pk=game.pk).annulled_at is None
    assert RatingChange.objects.filter(game=game).exists()


def test_removing_the_opponent_of_staff_is_acting_on_staff(alice, mod, root):
    """The reported second case: a moderator removed the opponent of a superuser in the
    superuser's game. Whoever sits in the game, the removal decides their result."""
    game = _ranked([root, alice])
    said = _remove(browser(mod), game, 1)
    assert any("only a superuser" in m for m in said), said
    _untouched(game)
    with pytest.raises(StaffProtected):
        moderation.moderate_remove_seat(actor=mod, game_id=game.pk, seat=1, reason="r")
    assert [e.outcome.startswith("root is staff") for e in ModerationLog.objects.all()] == [
        True, True]


def test_a_superuser_may_act_on_a_game_where_other_staff_sit(alice, mod, root):
    game = started_game([mod, alice], kind="quoridor")
    said = _remove(browser(root), game, 1)
    assert f"Seat 1 removed from game {game.pk}." in said
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert ModerationLog.objects.get().outcome == "done"


def test_a_seat_handed_to_a_bot_still_makes_the_game_its_players(alice, mod, root):
    """A player whose seat the computer took over (games/leavers.py) sat in the game."""
    game = started_game([root, alice], kind="quoridor")
    Seat.objects.filter(game=game, user=root).update(user=bot_account("easy"), bot=True,
                                                     replaced=root)
    with pytest.raises(OwnGame):
        moderation.moderate_abort(actor=root, game_id=game.pk, reason="r")
    with pytest.raises(StaffProtected):
        moderation.moderate_abort(actor=mod, game_id=game.pk, reason="r")
    assert Game.objects.get(pk=game.pk).status == "active"


def test_a_report_about_your_own_game_is_for_another_moderator(alice, bob, root):
    game = started_game([root, alice], kind="quoridor")
    report = moderation.file_report(reporter=bob, target_type="game", target_id=game.pk,
                                    category="cheating", reason="engine")
    with pytest.raises(OwnGame):
        moderation.resolve_report(moderator=root, report_id=report.pk, note="fine")
    report.refresh_from_db()
    assert report.status == "open"


def test_a_moderator_cannot_ban_their_opponent(alice, bob, mod, root):
    """A ban removes the banned user's seats: banning your opponent wins your game."""
    game = _ranked([mod, alice])
    data = {"action": "ban_users", "_selected_action": [alice.pk], "reason": "rude"}
    response = browser(mod).post("/admin/accounts/user/", data, follow=True)
    assert "Banned 0 users." in messages_of(response)
    assert any("plays game" in m and "another moderator must ban them" in m
               for m in messages_of(response))
    assert User.objects.get(pk=alice.pk).is_active
    _untouched(game)
    assert ModerationLog.objects.get().outcome.startswith("alice plays game")

    # The change form's "Active" box is a ban too: a form error, not a 500.
    mod.user_permissions.add(Permission.objects.get(codename="change_user"))
    editor = User.objects.get(pk=mod.pk)
    page = browser(editor).post(f"/admin/accounts/user/{alice.pk}/change/",
                                _change_form(alice, is_active=None, moderation_reason="rude"))
    assert page.status_code == 200 and "another moderator must ban them" in page.content.decode()
    assert User.objects.get(pk=alice.pk).is_active

    # Banning someone who plays staff is acting on staff: a superuser's to do.
    with pytest.raises(OwnGame):
        moderation.moderate_ban(actor=mod, user=alice, reason="r")
    other = _ranked([root, bob])
    with pytest.raises(StaffProtected):
        moderation.moderate_ban(actor=mod, user=bob, reason="r")
    _untouched(other)
    moderation.moderate_ban(actor=root, user=alice, reason="rude")  # as before
    assert not User.objects.get(pk=alice.pk).is_active
