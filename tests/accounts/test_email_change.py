"""Changing an account's address (issue 44: a stolen token or session took the account
for good): it needs the password, the old verified address is told and can put itself
back once, ending every session and token; resets go only to a verified address."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD, client_for, make_user
from tests.mailbox import Mailbox, body, link, site_path

pytestmark = pytest.mark.django_db(transaction=True)  # mail goes after commit


def _verified(username: str, email: str) -> User:
    user = make_user(username)
    user.email, user.email_verified = email, True
    user.save()
    return user


def test_a_change_needs_the_current_password(mailbox: Mailbox) -> None:
    user = _verified("sara", "sara@example.com")
    thief = client_for(user)  # a stolen token
    missing = thief.patch("/api/me/", {"email": "thief@example.com"}, format="json")
    assert missing.status_code == 400 and missing.json()["code"] == "password_required"
    wrong = thief.patch("/api/me/", {"email": "", "password": "guess"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_credentials"
    # A refused change changes nothing else in the request either.
    both = thief.patch("/api/me/", {"email": "thief@example.com", "language": "pt-br"},
                       format="json")
    assert both.status_code == 400
    user.refresh_from_db()
    assert (user.email, user.email_verified, user.language) == ("sara@example.com", True, "")
    page = Client()
    page.force_login(user)  # a stolen session
    refused = page.post("/accounts/email/", {"email": "thief@example.com"})
    assert refused.status_code == 400 and "needs your current password" in \
        refused.content.decode()
    user.refresh_from_db()
    assert user.email == "sara@example.com"
    assert not mailbox.messages
    # Other settings need no password, as before.
    assert thief.patch("/api/me/", {"language": "en"}, format="json").status_code == 200


def test_the_old_address_is_told_and_can_undo_the_change_once(mailbox: Mailbox) -> None:
    user = _verified("tina", "tina@example.com")
    thief, owner_page = client_for(user), Client()
    owner_page.force_login(user)
    assert thief.patch("/api/me/", {"email": "thief@example.com", "password": PASSWORD},
                       format="json").status_code == 200
    mailbox.wait(2)
    [notice] = mailbox.to("tina@example.com")
    assert "changed" in notice["Subject"] and "thief@example.com" in body(notice)
    undo = site_path(link(notice))
    # A reset to the new address goes nowhere until its owner confirms it.
    Client().post("/accounts/password/reset/", {"email": "thief@example.com"})
    visitor = Client(enforce_csrf_checks=True)
    shown = visitor.get(undo)  # a GET (a mail scanner) changes nothing
    assert shown.status_code == 200 and "tina@example.com" in shown.content.decode()
    user.refresh_from_db()
    assert user.email == "thief@example.com"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', shown.content.decode())
    assert token is not None
    done = visitor.post(undo, {"csrfmiddlewaretoken": token[1]})
    assert done.status_code == 200 and "signed out" in done.content.decode()
    user.refresh_from_db()
    assert (user.email, user.email_verified) == ("tina@example.com", True)
    assert thief.get("/api/me/").status_code == 401  # every token ended
    assert owner_page.get("/accounts/email/").status_code == 302  # and every session
    again = visitor.post(undo, {"csrfmiddlewaretoken": token[1]})
    assert again.status_code == 400 and "does not work" in again.content.decode()
    assert len(mailbox.messages) == 2  # the reset above mailed nobody


def test_an_undo_link_dies_with_the_next_change(mailbox: Mailbox) -> None:
    user = _verified("ugo", "ugo@example.com")
    client = client_for(user)
    client.patch("/api/me/", {"email": "new@example.com", "password": PASSWORD}, format="json")
    mailbox.wait(2)
    [notice] = mailbox.to("ugo@example.com")
    client.patch("/api/me/", {"email": "", "password": PASSWORD}, format="json")
    page = Client().get(site_path(link(notice)))
    assert "does not work" in page.content.decode()
    assert len(mailbox.messages) == 2  # an unverified address is not told
    user.refresh_from_db()
    assert user.email == ""
