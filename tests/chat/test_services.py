"""Chat services: rooms, cleaning, limits, mutes, deletes, and who reads what."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from bloqueio_site.errors import ServiceError
from chat import services
from chat.errors import (
    Forbidden,
    InvalidMessage,
    Muted,
    NotAuthenticated,
    NotMuted,
    RateLimited,
    TooLong,
)
from chat.models import ChatMessage, Mute
from games import services as game_services
from games.models import Game
from tests.chat.conftest import post
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def texts(game, viewer, **kw):
    game = Game.objects.get(pk=game.pk)
    return [(m["room"], m["text"]) for m in services.history(game=game, viewer=viewer, **kw)]


def test_players_write_to_the_players_room_and_others_to_the_spectators(game, alice, carol):
    assert post(game, alice, "good luck").room == "players"
    assert post(game, carol, "go alice").room == "spectators"


def test_each_side_of_a_running_game_reads_only_its_room(game, alice, bob, carol, moderator):
    post(game, alice, "gl")
    post(game, carol, "bob should wall e5")
    post(game, bob, "hf")
    assert texts(game, bob) == [("players", "gl"), ("players", "hf")]
    spectators = [("spectators", "bob should wall e5")]
    assert texts(game, carol) == spectators
    assert texts(game, AnonymousUser()) == spectators
    assert texts(game, None) == spectators
    both = [("players", "gl"), ("spectators", "bob should wall e5"), ("players", "hf")]
    assert texts(game, moderator) == both  # moderators read both rooms


def test_after_the_game_ends_players_read_both_rooms(game, alice, bob, carol):
    post(game, carol, "spectating")
    game_services.resign(game_id=game.pk, user=bob)
    assert texts(game, alice) == [("spectators", "spectating")]
    post(game, alice, "gg")
    assert post(game, bob, "gg wp").room == "players"  # seated players keep their room


def test_a_player_who_resigned_a_running_game_joins_the_spectators(players, carol):
    game = started_game(players)
    game_services.resign(game_id=game.pk, user=carol)
    post(game, carol, "I'm out")  # carol's seat left: she writes and reads as a spectator
    assert ChatMessage.objects.get().room == "spectators"
    assert texts(game, carol) == [("spectators", "I'm out")]
    assert texts(game, players[0]) == []


def test_seated_players_of_a_waiting_game_read_both(alice, carol):
    game = game_services.create_game(user=alice, kind="bloqueio2")
    post(game, carol, "hi")
    post(game, alice, "hello")
    assert texts(game, alice) == [("spectators", "hi"), ("players", "hello")]


def test_control_characters_are_stripped_and_whitespace_collapsed(game, alice):
    message = post(game, alice, "  a\x00b\tc\n\nd\u202eevil\u2066 \x1b[31mred\r\n  ")
    assert message.text == "a b c devil [31mred"
    assert services.clean_text("x\u0085y\u200by") == "x y\u200by"  # NEL is Cc; ZWSP kept


@pytest.mark.parametrize("text", ["", "   ", "\n\t\x00", "\u202e"])
def test_empty_after_cleaning_is_invalid(game, alice, text):
    with pytest.raises(InvalidMessage) as err:
        post(game, alice, text)
    assert err.value.code == "invalid"
    assert not ChatMessage.objects.exists()


def test_non_text_is_invalid(game, alice):
    with pytest.raises(InvalidMessage):
        post(game, alice, 42)  # type: ignore[arg-type]


def test_too_long_is_refused_but_280_after_cleaning_is_fine(game, alice):
    with pytest.raises(TooLong) as err:
        post(game, alice, "x" * 281)
    assert (err.value.code, err.value.status) == ("too_long", 400)
    assert len(post(game, alice, "y" * 280 + "\n" * 50).text) == 280


def test_anonymous_cannot_write(game):
    with pytest.raises(NotAuthenticated):
        post(game, AnonymousUser(), "hi")


def test_too_fast_is_rate_limited(game, alice, bob):
    for i in range(5):
        post(game, alice, f"m{i}")
    with pytest.raises(RateLimited) as err:
        post(game, alice, "one too many")
    assert (err.value.code, err.value.status) == ("rate_limited", 429)
    post(game, bob, "bob is not limited by alice")
    # Older than 10 s: only the 30 in 10 minutes counts now.
    ChatMessage.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    post(game, alice, "again")
    ChatMessage.objects.bulk_create([ChatMessage(game=game, author=alice, room="players",
                                                 text="old") for _ in range(25)])
    ChatMessage.objects.update(created_at=timezone.now() - timedelta(seconds=60))
    with pytest.raises(RateLimited):
        post(game, alice, "31st in ten minutes")


def test_muted_users_are_refused_with_when_it_ends(game, alice, moderator, mod_log):
    mute = services.mute_user(actor=moderator, user=alice, reason="spam", minutes=10)
    with pytest.raises(Muted) as err:
        post(game, alice, "hi")
    assert (err.value.code, err.value.status) == ("muted", 403)
    assert err.value.as_dict()["until"] == mute.until.isoformat()
    assert mod_log == [{"actor": moderator, "action": "mute_user", "target": alice,
                        "reason": "spam"}]
    Mute.objects.update(until=timezone.now() - timedelta(seconds=1))  # it ran out
    post(game, alice, "back")


def test_an_indefinite_mute_lasts_until_unmuted(game, alice, moderator, mod_log):
    services.mute_user(actor=moderator, user=alice, reason="abuse", minutes=None)
    with pytest.raises(Muted) as err:
        post(game, alice, "hi")
    assert err.value.until is None
    assert services.unmute_user(actor=moderator, user=alice, reason="appeal") == 1
    post(game, alice, "thanks")
    assert [c["action"] for c in mod_log] == ["mute_user", "unmute_user"]
    with pytest.raises(NotMuted):
        services.unmute_user(actor=moderator, user=alice, reason="again")
    assert Mute.objects.get().until is not None  # kept on record


def test_muting_needs_the_permission(game, alice, bob, mod_log):
    with pytest.raises(Forbidden):
        services.mute_user(actor=bob, user=alice, reason="", minutes=5)
    with pytest.raises(NotAuthenticated):
        services.mute_user(actor=AnonymousUser(), user=alice, reason="", minutes=5)
    assert not Mute.objects.exists() and mod_log == []


def test_moderator_actions_need_a_reason(game, alice, moderator, mod_log):
    message = post(game, alice, "hm")
    for act in (lambda: services.mute_user(actor=moderator, user=alice, reason=" \n",
                                           minutes=5),
                lambda: services.delete_message(actor=moderator, message_id=message.pk,
                                                reason=""),
                lambda: services.unmute_user(actor=moderator, user=alice, reason="")):
        with pytest.raises(ServiceError) as err:
            act()
        assert err.value.code == "reason_required"
    assert mod_log == [] and not Mute.objects.exists()


def test_mute_length_is_checked(alice, moderator, mod_log):
    for minutes in (0, -1, 10**9, 1.5):
        with pytest.raises(InvalidMessage):
            services.mute_user(actor=moderator, user=alice, reason="x", minutes=minutes)


def test_deleted_messages_are_hidden_from_everyone_but_moderators(
        game, alice, bob, carol, moderator, mod_log):
    message = post(game, alice, "rude words")
    with pytest.raises(Forbidden):
        services.delete_message(actor=bob, message_id=message.pk, reason="")
    services.delete_message(actor=moderator, message_id=message.pk, reason="insult")
    message.refresh_from_db()
    assert (message.deleted, message.deleted_by, message.text) == (True, moderator,
                                                                   "rude words")
    assert mod_log == [{"actor": moderator, "action": "delete_message", "target": message,
                        "reason": "insult"}]
    for viewer in (alice, bob):  # the players' room's readers while the game runs
        [seen] = services.history(game=Game.objects.get(pk=game.pk), viewer=viewer)
        assert (seen["text"], seen["deleted"]) == ("", True)
    [seen] = services.history(game=Game.objects.get(pk=game.pk), viewer=moderator)
    assert (seen["text"], seen["deleted"]) == ("rude words", True)
    # Again: nothing changes, nothing more is logged.
    services.delete_message(actor=moderator, message_id=message.pk, reason="twice")
    assert len(mod_log) == 1


def test_messages_are_fanned_out_after_commit_to_their_room(game, alice, carol, moderator,
                                                            mod_log, sent):
    first = post(game, alice, "hi")
    second = post(game, carol, "watching")
    services.delete_message(actor=moderator, message_id=second.pk, reason="off topic")
    assert [(gid, m["type"], m["room"], m["frame"]["type"]) for gid, m in sent] == [
        (game.pk, "game.chat", "players", "chat"),
        (game.pk, "game.chat", "spectators", "chat"),
        (game.pk, "game.chat", "spectators", "chat_deleted"),
    ]
    assert sent[0][1]["frame"]["message"] == {
        "id": first.pk, "room": "players", "username": "alice", "text": "hi",
        "at": sent[0][1]["frame"]["message"]["at"], "deleted": False}
    assert sent[2][1]["frame"] == {"type": "chat_deleted", "id": second.pk}


def test_nothing_is_fanned_out_for_a_refused_message(game, alice, sent):
    with pytest.raises(TooLong):
        post(game, alice, "z" * 300)
    assert sent == []


def test_history_after_and_newest(game, alice, carol):
    ids = [post(game, carol, f"c{i}").pk for i in range(3)]
    assert [m["id"] for m in services.history(game=game, viewer=carol, after_id=ids[0])] \
        == ids[1:]
    assert [m["id"] for m in services.history(game=game, viewer=carol, limit=2,
                                              newest=True)] == ids[1:]
    assert [m["id"] for m in services.history(game=game, viewer=carol, limit=2)] == ids[:2]
