"""Account pages: register, log in (throttled), change password, profile."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_register_page_creates_and_logs_in(client):
    assert client.get("/accounts/register/").status_code == 200
    response = client.post("/accounts/register/", {
        "username": "zoe", "email": "", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302
    assert User.objects.filter(username="zoe").exists()
    assert b"zoe" in client.get("/").content


def test_register_page_refuses_a_taken_name_in_any_case(client, alice):
    response = client.post("/accounts/register/", {
        "username": "Alice", "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 200
    assert b"That username is taken." in response.content


def test_login_logout_and_lockout_page(client, alice, settings):
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}
                       ).status_code == 302
    client.post("/accounts/logout/")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content


def test_password_change(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/password/", {
        "old_password": PASSWORD, "new_password1": "another-long-pass-77",
        "new_password2": "another-long-pass-77",
    })
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another-long-pass-77")


def test_profile_page(client, alice):
    response = client.get("/users/alice/")
    assert response.status_code == 200
    assert b"No games yet" in response.content
    assert client.get("/users/nobody/").status_code == 404
