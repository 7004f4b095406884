""""Your table is ready": when a round is seated, each person at a table is told (the
badge's notification, and an e-mail if they opted in), through the outbox row written
with the round; never a bot, and not once the table's game is over. The e-mail goes
through a real SMTP server (tests/mailbox.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from accounts.models import User
from games import outbox
from games.models import Outbox
from notifications import kinds, mail
from notifications import services as notifications
from notifications.models import Kind, Mail, Notification
from tests.conftest import client_for, make_user
from tests.mailbox import Mailbox, body, mailbox, site_path  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)  # pushes and e-mail go after commit


def _verified(user: User, *kinds_wanted: str) -> User:
    user.email, user.email_verified = f"{user.username}@example.com", True
    user.save(update_fields=["email", "email_verified"])
    notifications.set_email_choices(user, dict.fromkeys(kinds_wanted, True))
    return user


def _started(kind: str, users: list[User]) -> dict[str, Any]:
    organiser = client_for(users[0])
    made = organiser.post("/api/tournaments/", {"kind": kind, "rounds": 2}, format="json")
    url = f"/api/tournaments/{made.json()['id']}/"
    for user in users:
        assert client_for(user).post(url + "join/", {}, format="json").status_code == 200
    started = organiser.post(url + "start/", {}, format="json")
    assert started.status_code == 200, started.json()
    return started.json()


def test_each_person_at_a_table_is_told_and_mailed_if_they_chose(mailbox: Mailbox):  # noqa: F811
    ann = _verified(make_user("ann"), "table_ready")
    bea = _verified(make_user("bea"))  # a verified address, not this kind
    cid = make_user("cid")
    others = [make_user(name) for name in ("dan", "eve", "fay", "gus")]
    # Seven people at a four-seat kind: a table of four, and three with a bot.
    tournament = _started("bloqueio", [ann, bea, cid, *others])
    tables = tournament["rounds"][0]["tables"]
    assert sorted(s is None for t in tables for s in t["seats"]) == [False] * 7 + [True]
    seated = {name: t["game_id"] for t in tables for name in t["seats"] if name}
    # Written with the round, in its transaction; carried out by the worker.
    rows = Outbox.objects.filter(kind=outbox.TABLE_READY)
    assert sorted(r.game_id for r in rows) == sorted(t["game_id"] for t in tables)
    assert all(r.done_at is None for r in rows)
    assert not Notification.objects.exists()
    assert outbox.run_pending() >= 2
    notes = Notification.objects.filter(kind=Kind.TABLE_READY).select_related("user")
    assert sorted(n.user.username for n in notes) == sorted(seated)  # seven, no bot
    for note in notes:
        assert note.game_id == seated[note.user.username] and note.read_at is None
        assert note.data == {"kind": "bloqueio", "tournament": tournament["id"],
                             "system": "swiss", "round": 1}
    assert {n.user.username: n.mail for n in notes if n.mail != Mail.NONE} == {
        "ann": Mail.PENDING}
    table = {"game_id": seated["cid"]}
    listed = client_for(cid).get("/api/notifications/").json()
    assert listed["unread"] == 1
    expected = (f"Your table is ready: round 1 of tournament #{tournament['id']} "
                f"(Bloqueio), game #{table['game_id']}.")
    assert listed["results"][0]["text"] == expected
    with translation.override("pt-br"):
        assert kinds.sentence(notes.get(user=cid), "table_ready") == (
            f"Sua mesa está pronta: rodada 1 do torneio #{tournament['id']} "
            f"(Bloqueio), partida #{table['game_id']}.")

    assert mail.send_pending() == 1
    [message] = mailbox.wait(1)
    assert message["To"] == "ann@example.com"
    mailed = expected.replace(f"#{table['game_id']}", f"#{seated['ann']}")
    assert mailed in message["Subject"] and mailed in body(message)
    # Its link (the first; then the unsubscribe and settings links) opens the game.
    links = re.findall(r"https?://\S+", body(message))
    assert site_path(links[0]) == f"/games/{seated['ann']}/"
    assert mail.send_pending() == 0 and len(mailbox.messages) == 1  # nothing twice


def test_a_table_already_over_when_the_worker_comes_is_not_announced(mailbox):  # noqa: F811
    ann, bea = _verified(make_user("ann"), "table_ready"), make_user("bea")
    tournament = _started("bloqueio2", [ann, bea])
    [table] = tournament["rounds"][0]["tables"]
    gone = client_for(bea).post(f"/api/games/{table['game_id']}/resign/", {}, format="json")
    assert gone.status_code == 200
    outbox.run_pending()
    assert Outbox.objects.get(kind=outbox.TABLE_READY).done_at is not None
    assert not Notification.objects.filter(kind=Kind.TABLE_READY).exists()
    assert mail.send_pending() == 0 and mailbox.messages == []


def test_the_choice_is_offered_with_the_others(alice):
    shown = client_for(alice).get("/api/notifications/settings/").json()["email"]
    assert shown["table_ready"] is False  # off until opted in, as every kind
    turned = client_for(alice).patch("/api/notifications/settings/",
                                     {"email": {"table_ready": True}}, format="json")
    assert turned.json()["email"]["table_ready"] is True
