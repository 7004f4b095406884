"""Notifications: made from games and reports, read over the API and the page, pushed to
`/ws/me/` for the badge, and e-mailed (opt-in, once a day per game for "your turn",
unsubscribed by a link that needs no log-in), read from a real SMTP server."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bloqueio_site.asgi import application
from games import outbox
from games.models import Outbox
from notifications import mail, services
from notifications.models import Kind, Mail, Notification
from tests.conftest import client_for, make_user
from tests.games.helpers import play, started_game
from tests.mailbox import Mailbox, body
from tests.ws_helpers import LOCAL, receive_type

pytestmark = pytest.mark.django_db(transaction=True)  # pushes and e-mail go after commit

QUORIDOR_OPENING = [{"type": "move", "to": [7, 4]}, {"type": "move", "to": [1, 4]}]


def _verified(user: User, address: str) -> User:
    user.email, user.email_verified = address, True
    user.save(update_fields=["email", "email_verified"])
    return user


def test_your_turn_is_one_unread_row_a_game_and_settles_when_the_turn_passes(alice, bob):
    game = started_game([alice, bob], kind="quoridor", time_control={"days": 2})
    assert outbox.run_pending() == 1  # alice to move
    [row] = Outbox.objects.filter(kind=outbox.TURN)
    outbox.record(outbox.Effect(outbox.TURN, game.pk, row.payload))  # told again
    assert outbox.run_pending() == 1  # refreshed, not a second row
    [note] = Notification.objects.filter(user=alice)
    assert (note.kind, note.game_id, note.read_at) == (Kind.YOUR_TURN, game.pk, None)
    play(game, [alice, bob], QUORIDOR_OPENING[:1])  # now bob is to move
    assert outbox.run_pending() == 1
    note.refresh_from_db()
    assert note.read_at is not None  # alice's turn is over: no longer "unread"
    assert Notification.objects.get(user=bob).kind == Kind.YOUR_TURN


def test_a_turn_already_played_is_not_told(alice, bob):
    """A row carried out late (put off after a failure, or the worker away): a turn that
    has passed is not announced, and it settles nothing (a later row says what is
    true)."""
    game = started_game([alice, bob], kind="quoridor", time_control={"days": 2})
    play(game, [alice, bob], QUORIDOR_OPENING)  # alice's turn again, two rows later
    first = Outbox.objects.filter(kind=outbox.TURN).earliest("id")
    later = timezone.now() + timedelta(minutes=5)
    Outbox.objects.filter(pk=first.pk).update(due_at=later)  # as if put off
    assert outbox.run_pending() == 2  # the others do not wait for it
    assert outbox.run_pending(later) == 1
    assert list(Notification.objects.values_list("user__username", "kind", "read_at")) \
        == [("alice", "your_turn", None)]


def test_a_real_turn_based_game_notifies_by_itself(alice, bob, carol):
    """No hand-made change: the games' own writes, with days a move, make the rows."""
    game = started_game([alice, bob], kind="quoridor", time_control={"days": 2})
    outbox.run_pending()
    assert Notification.objects.get(user=alice, read_at__isnull=True).kind == Kind.YOUR_TURN
    play(game, [alice, bob], QUORIDOR_OPENING[:1])
    outbox.run_pending()
    assert list(Notification.objects.filter(read_at__isnull=True)
                .values_list("user__username", "kind")) == [("bob", "your_turn")]
    from games import services as games

    games.resign(game_id=game.pk, user=bob)
    outbox.run_pending()
    assert sorted(Notification.objects.filter(read_at__isnull=True)
                  .values_list("user__username", "kind")) == [("alice", "game_over"),
                                                              ("bob", "game_over")]
    # an invitation by name (its outbox row) reaches the invited user
    table = games.create_game(user=alice, kind="quoridor", private=True)
    answer = client_for(alice).post(f"/api/games/{table.pk}/invitations/",
                                    {"username": "carol"}, format="json")
    assert answer.status_code == 201, answer.content
    outbox.run_pending()
    note = Notification.objects.get(user=carol)
    assert (note.kind, note.game_id, note.data["by"]) == (Kind.INVITATION, table.pk, "alice")
    text = client_for(carol).get("/api/notifications/").json()["results"][0]["text"]
    assert text == f"alice invites you to game #{table.pk} (Quoridor)."


def test_a_rematch_offer_tells_the_rest_of_the_table_as_an_invitation(alice, bob, carol):
    """Issue 45: a player who left the page never learnt of a rematch offer. Every other
    person at the table gets it with invitations (badge, list, the e-mail they chose);
    the offerer, a bot, and later answers make no more."""
    from games import rematch
    from games import services as games

    game = started_game([alice, bob, carol], kind="quoridor4", bots=["easy"])
    games.resign(game_id=game.pk, user=bob)
    games.resign(game_id=game.pk, user=carol)
    games.resign(game_id=game.pk, user=alice)
    services.set_email_choices(_verified(bob, "bob@example.org"), {"invitation": True})
    rematch.offer(game_id=game.pk, user=alice)
    outbox.run_pending()
    notes = Notification.objects.filter(kind=Kind.INVITATION, game_id=game.pk)
    assert sorted(notes.values_list("user__username", flat=True)) == ["bob", "carol"]
    assert notes.get(user=bob).mail == Mail.PENDING and notes.get(user=carol).mail == Mail.NONE
    listing = client_for(bob).get("/api/notifications/").json()
    assert listing["unread"] == 1
    assert listing["results"][0]["text"] == (
        f"alice offers a rematch of game #{game.pk} (Quoridor (4 players)).")
    rematch.offer(game_id=game.pk, user=bob)  # an answer is not a new offer
    outbox.run_pending()
    assert notes.count() == 2


def test_live_games_make_no_rows(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    play(game, [alice, bob], QUORIDOR_OPENING)
    assert not Outbox.objects.exists()  # a live game's player is at the board
    assert not Notification.objects.exists()


def test_game_over_tells_every_player_and_ends_their_turns(alice, bob):
    from games import services as games

    game = started_game([alice, bob], kind="quoridor", time_control={"days": 2})
    outbox.run_pending()  # alice's turn
    games.resign(game_id=game.pk, user=bob)
    outbox.run_pending()
    assert sorted(Notification.objects.filter(kind=Kind.GAME_OVER)
                  .values_list("user__username", flat=True)) == ["alice", "bob"]
    assert not Notification.objects.filter(kind=Kind.YOUR_TURN, read_at__isnull=True).exists()


def test_bots_are_never_notified(alice):
    bot = User.objects.create(username="medium-bot", bot_level="medium", password="!")
    assert services.notify(bot, Kind.YOUR_TURN, game_id=None) is None
    assert not Notification.objects.exists()


def test_the_api_lists_unread_first_and_marks_read(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    old = services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    services.mark_read(alice, [old.pk])
    new = services.notify(alice, Kind.INVITATION, game_id=game.pk,
                          data={"kind": "quoridor", "by": "bob"})
    services.notify(bob, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    api = client_for(alice)
    listing = api.get("/api/notifications/").json()
    assert listing["unread"] == 1
    assert [n["id"] for n in listing["results"]] == [new.pk, old.pk]
    assert listing["results"][0]["text"] == f"bob invites you to game #{game.pk} (Quoridor)."
    assert [n["id"] for n in api.get("/api/notifications/?unread=true").json()["results"]] \
        == [new.pk]
    # bob's notification is not alice's to read: ignored, and bob's stays unread
    bobs = Notification.objects.get(user=bob).pk
    assert api.post("/api/notifications/read/", {"ids": [new.pk, bobs]},
                    format="json").json() == {"unread": 0}
    assert Notification.objects.get(pk=bobs).read_at is None
    assert client_for(bob).post("/api/notifications/read/", {"all": True},
                                format="json").json() == {"unread": 0}


@pytest.mark.parametrize("body", [{}, {"ids": [1], "all": True}, {"ids": "1"},
                                  {"ids": [0]}, {"all": "maybe"}, {"all": 0.0, "ids": [1]},
                                  {"all": 1}, {"ids": ["1"]}, {"ids": [1.0]}, {"ids": [True]}])
def test_marking_read_refuses_a_malformed_body(alice, body):
    answer = client_for(alice).post("/api/notifications/read/", body, format="json")
    assert answer.status_code == 400 and answer.json()["code"]


def test_anonymous_callers_are_refused(anon):
    for path in ("/api/notifications/", "/api/notifications/settings/"):
        assert anon.get(path).status_code == 401
    assert anon.post("/api/notifications/read/", {"all": True},
                     format="json").status_code == 401


def test_email_choices_over_the_api(alice):
    api = client_for(alice)
    before = api.get("/api/notifications/settings/").json()
    assert before["email"] == {k: False for k in Kind.values}  # opt-in: all off
    after = api.patch("/api/notifications/settings/", {"email": {"your_turn": True}},
                      format="json").json()
    assert after["email"]["your_turn"] is True and after["email"]["game_over"] is False
    bad = api.patch("/api/notifications/settings/", {"email": {"weather": True}},
                    format="json")
    assert bad.status_code == 400 and bad.json()["code"]


def test_the_page_lists_saves_choices_and_opens_a_notification(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    note = services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    page = Client()
    page.force_login(alice)
    html = page.get("/notifications/").content.decode()
    assert f"Game #{game.pk} (Quoridor) is over." in html
    assert 'id="notif-badge" aria-live="polite">1<' in html  # the header's badge
    answer = page.post("/notifications/", {"email_game_over": "on"})
    assert answer.status_code == 302
    assert services.email_choice(alice.pk).game_over is True
    assert services.email_choice(alice.pk).your_turn is False
    opened = page.post(f"/notifications/{note.pk}/open/")
    assert opened["Location"] == f"/games/{game.pk}/"
    note.refresh_from_db()
    assert note.read_at is not None
    other = Client()
    other.force_login(bob)
    assert other.post(f"/notifications/{note.pk}/open/").status_code == 404
    assert Client().get("/notifications/").status_code == 302  # to the log-in page


async def test_the_badge_counts_on_the_users_own_socket(alice, bob):
    comm = WebsocketCommunicator(application, "/ws/me/", headers=[
        *LOCAL, (b"authorization", f"Token {alice.auth_token.key}".encode())])
    assert (await comm.connect())[0]
    await receive_type(comm, "hello")
    note = await sync_to_async(services.notify)(alice, Kind.GAME_OVER, game_id=None)
    frame = await receive_type(comm, "notify")
    assert (frame["event"], frame["unread"], frame["notification"]["id"]) \
        == ("notification", 1, note.pk)
    await sync_to_async(services.mark_read)(alice, None)
    frame = await receive_type(comm, "notify")
    assert (frame["event"], frame["unread"]) == ("notifications_read", 0)
    await comm.disconnect()


def test_a_report_outcome_is_told_to_the_reporter_only(alice, bob):
    from moderation import services as moderation
    from tests.moderation.conftest import moderators_group, staff

    moderators_group()
    mod = staff("mod", group="moderators")
    report = moderation.file_report(reporter=alice, target_type="user", target_id=bob.pk,
                                    category="abuse", reason="rude")
    moderation.dismiss_report(moderator=mod, report_id=report.pk, note="nothing rude")
    [note] = Notification.objects.all()
    assert (note.user_id, note.kind, note.data["outcome"]) == (alice.pk, "report_outcome",
                                                               "dismissed")
    text = client_for(alice).get("/api/notifications/").json()["results"][0]["text"]
    assert "no action was needed" in text and "nothing rude" not in text


def test_email_only_when_opted_in_and_verified(alice, bob, mailbox: Mailbox):
    game = started_game([alice, bob], kind="quoridor")
    services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    _verified(alice, "alice@example.com")
    services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    services.set_email_choices(alice, {"game_over": True})
    bob.email = "bob@example.com"  # not verified
    bob.save(update_fields=["email"])
    services.set_email_choices(bob, {"game_over": True})
    services.notify(bob, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    wanted = services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    assert sorted(Notification.objects.values_list("mail", flat=True)) \
        == ["none", "none", "none", "pending"]
    assert mail.send_pending() == 1
    [message] = mailbox.wait(1)
    assert message["To"] == "alice@example.com"
    assert f"Game #{game.pk} (Quoridor) is over." in message["Subject"]
    assert f"/games/{game.pk}/" in body(message)
    wanted.refresh_from_db()
    assert wanted.mail == Mail.SENT
    assert mail.send_pending() == 0  # nothing twice


def test_your_turn_is_mailed_once_a_day_per_game(alice, bob, mailbox: Mailbox):
    game = started_game([alice, bob], kind="quoridor")
    _verified(alice, "alice@example.com")
    services.set_email_choices(alice, {"your_turn": True})
    now = timezone.now()
    services.notify(alice, Kind.YOUR_TURN, game_id=game.pk, data={"kind": "quoridor"}, now=now)
    assert mail.send_pending(now) == 1
    services.mark_read(alice, None)  # she moved; her turn comes again an hour later
    later = now + timedelta(hours=1)
    services.notify(alice, Kind.YOUR_TURN, game_id=game.pk, data={"kind": "quoridor"},
                    now=later)
    assert mail.send_pending(later) == 0
    assert Notification.objects.filter(mail=Mail.SKIPPED).count() == 1
    services.mark_read(alice, None)
    next_day = now + timedelta(days=1, minutes=1)
    services.notify(alice, Kind.YOUR_TURN, game_id=game.pk, data={"kind": "quoridor"},
                    now=next_day)
    assert mail.send_pending(next_day) == 1
    assert len(mailbox.wait(2)) == 2


def test_the_unsubscribe_link_works_without_logging_in(alice, bob, mailbox: Mailbox):
    game = started_game([alice, bob], kind="quoridor")
    _verified(alice, "alice@example.com")
    services.set_email_choices(alice, {"game_over": True, "invitation": True})
    services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    mail.send_pending()
    [message] = mailbox.wait(1)
    header = str(message["List-Unsubscribe"]).strip().strip("<>")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert header in body(message)
    path = urlsplit(header).path
    visitor = Client(enforce_csrf_checks=True)
    asked = visitor.get(path)  # a GET (a link scanner) changes nothing
    assert asked.status_code == 200 and services.email_choice(alice.pk).game_over is True
    done = visitor.post(path, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and "alice" in done.content.decode()
    choice = services.email_choice(alice.pk)
    assert (choice.game_over, choice.invitation) == (False, True)  # only that kind
    damaged = visitor.post(path[:-3] + "xx/").content.decode()
    assert "not valid" in damaged and services.email_choice(alice.pk).invitation is True


def test_a_claimed_mail_is_sent_once_across_workers(alice, bob, mailbox: Mailbox):
    """Two workers claiming at once: each pending e-mail goes out once (SKIP LOCKED)."""
    from tests.games.helpers import at_once

    game = started_game([alice, bob], kind="quoridor")
    _verified(alice, "alice@example.com")
    services.set_email_choices(alice, {"game_over": True})
    for _ in range(6):
        services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    sent: list[int] = []
    at_once(lambda: sent.append(mail.send_pending()), 3)
    assert sum(sent) == 6
    assert len(mailbox.wait(6)) == 6
    assert set(Notification.objects.values_list("mail", flat=True)) == {"sent"}


def test_a_new_user_has_no_notifications(db):
    user = make_user("newbie")
    assert client_for(user).get("/api/notifications/").json() == {"unread": 0, "results": []}
