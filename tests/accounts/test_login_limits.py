"""Log-in lock-outs per account whatever the letter case, and limits per address on
log-in attempts and sign-ups, for the API and the pages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import services
from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _token(client: APIClient, username: str, password: str):
    return client.post("/api/auth/token/", {"username": username, "password": password},
                       format="json")


def test_lockout_counts_every_case_of_a_name_as_one_account(anon, carol, settings):
    spellings = ["carol", "Carol", "cArol", "caRol", "CAROL"]
    for i in range(settings.AXES_FAILURE_LIMIT):
        _token(anon, spellings[i % len(spellings)], "wrong")
    for name in spellings:
        locked = _token(anon, name, PASSWORD)
        assert (locked.status_code, locked.json()["code"]) == (429, "locked_out"), name
        assert locked["Retry-After"]


def test_lockout_page_counts_every_case_as_one_account(client, dave, settings):
    for i in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "dave" if i % 2 else "Dave",
                                         "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "DAVE", "password": PASSWORD})
    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    assert "_auth_user_id" not in client.session


def test_login_attempts_per_address_are_limited_whatever_the_name(anon, alice, settings):
    for i in range(services.LOGIN_RATE.count):
        assert _token(anon, f"nobody{i}", "junk").status_code == 400
    refused = _token(anon, "alice", PASSWORD)
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert int(refused["Retry-After"]) >= 1
    assert "login attempts" in refused.json()["detail"]
    other = APIClient(REMOTE_ADDR="10.0.0.7")  # another address is not affected
    assert _token(other, "alice", PASSWORD).status_code == 200


def test_login_page_attempts_per_address_are_limited(client, alice):
    for i in range(services.LOGIN_RATE.count):
        client.post("/accounts/login/", {"username": f"nobody{i}", "password": "junk"})
    refused = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert b"Too many login attempts from your address" in refused.content
    assert "_auth_user_id" not in client.session


def test_signups_per_address_are_limited(anon):
    for i in range(services.SIGNUP_RATE.count):
        created = anon.post("/api/auth/register/",
                            {"username": f"farm{i}", "password": PASSWORD}, format="json")
        assert created.status_code == 201
    refused = anon.post("/api/auth/register/", {"username": "farmx", "password": PASSWORD},
                        format="json")
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert int(refused["Retry-After"]) >= 1
    assert not User.objects.filter(username="farmx").exists()
    other = APIClient(REMOTE_ADDR="10.0.0.8")
    assert other.post("/api/auth/register/", {"username": "farmy", "password": PASSWORD},
                      format="json").status_code == 201


def test_signup_page_per_address_is_limited(client):
    def sign_up(name: str):
        return client.post("/accounts/register/", {
            "username": name, "password1": PASSWORD, "password2": PASSWORD})

    for i in range(services.SIGNUP_RATE.count):
        assert sign_up(f"farm{i}").status_code == 302
        client.post("/accounts/logout/")
    refused = sign_up("farmx")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert b"Too many sign-ups from your address" in refused.content
    assert not User.objects.filter(username="farmx").exists()
