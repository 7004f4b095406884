"""Tokens listed, made and revoked; a password change ends every other session and
token (REST and pages alike)."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from rest_framework.test import APIClient

from accounts import credentials
from accounts.models import User
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-pass-77"


def _by_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_named_tokens_are_listed_work_and_are_revoked(alice):
    api = client_for(alice)
    made = api.post("/api/auth/tokens/", {"name": "my bot"}, format="json")
    assert made.status_code == 201
    named = made.json()
    assert named["name"] == "my bot" and not named["default"]
    assert _by_token(named["token"]).get("/api/me/").json()["username"] == "alice"
    listed = api.get("/api/auth/tokens/").json()
    assert [(t["name"], t["default"]) for t in listed] == [("default", True), ("my bot", False)]
    assert all("token" not in t and alice.auth_token.key not in t.values() for t in listed)

    assert api.delete(f"/api/auth/tokens/{named['id']}/").status_code == 204
    refused = _by_token(named["token"]).get("/api/me/")
    assert (refused.status_code, refused.json()["code"]) == (401, "authentication_failed")
    missing = api.delete(f"/api/auth/tokens/{named['id']}/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_the_default_token_is_revoked_and_made_again_at_the_next_login(alice, anon):
    old = alice.auth_token.key
    api = client_for(alice)
    default = api.get("/api/auth/tokens/").json()[0]
    assert api.delete(f"/api/auth/tokens/{default['id']}/").status_code == 204
    assert _by_token(old).get("/api/me/").status_code == 401
    new = anon.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                    format="json").json()["token"]
    assert new != old and _by_token(new).get("/api/me/").status_code == 200


def test_a_user_cannot_revoke_anothers_token(alice, bob):
    bobs = client_for(bob).get("/api/auth/tokens/").json()[0]["id"]
    assert client_for(alice).delete(f"/api/auth/tokens/{bobs}/").status_code == 404
    assert client_for(bob).get("/api/me/").status_code == 200


def test_named_tokens_are_capped(alice):
    api = client_for(alice)
    for i in range(credentials.MAX_NAMED_TOKENS):
        assert api.post("/api/auth/tokens/", {"name": f"t{i}"}, format="json").status_code == 201
    over = api.post("/api/auth/tokens/", {"name": "one more"}, format="json")
    assert (over.status_code, over.json()["code"]) == (409, "too_many_tokens")
    blank = api.post("/api/auth/tokens/", {"name": "  "}, format="json")
    assert blank.status_code == 400


def test_password_change_page_ends_every_other_session_and_token(alice):
    old_token = alice.auth_token.key
    named = credentials.create_token(user=alice, name="bot")[1]
    elsewhere = _signed_in(alice)
    here = _signed_in(alice)
    response = here.post("/accounts/password/", {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    for key in (old_token, named):
        assert _by_token(key).get("/api/me/").status_code == 401
    assert elsewhere.get("/api/me/").status_code == 401  # no session: anonymous
    assert not Session.objects.filter(session_key=elsewhere.session.session_key).exists()
    assert here.get("/api/me/").json()["username"] == "alice"  # this browser stays in


def test_password_change_over_the_api_keeps_only_the_calling_token(alice, anon):
    named = credentials.create_token(user=alice, name="bot")[1]
    browser = _signed_in(alice)
    api = _by_token(named)
    wrong = api.post("/api/auth/password/", {"old_password": "nope",
                                             "new_password": NEW_PASSWORD}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "invalid")
    assert "old_password" in wrong.json()["errors"]
    weak = api.post("/api/auth/password/", {"old_password": PASSWORD,
                                            "new_password": "123"}, format="json")
    assert "new_password" in weak.json()["errors"]
    done = api.post("/api/auth/password/", {"old_password": PASSWORD,
                                            "new_password": NEW_PASSWORD}, format="json")
    assert done.status_code == 204
    assert api.get("/api/me/").status_code == 200
    assert client_for(alice).get("/api/me/").status_code == 401  # the default token
    assert browser.get("/api/me/").status_code == 401
    assert anon.post("/api/auth/token/", {"username": "alice", "password": NEW_PASSWORD},
                     format="json").status_code == 200


def test_the_tokens_page_makes_lists_and_revokes(alice):
    page = _signed_in(alice)
    made = page.post("/accounts/tokens/", {"name": "laptop"})
    assert made.status_code == 200
    key = made.context["new_key"]
    assert key.encode() in made.content
    assert _by_token(key).get("/api/me/").status_code == 200
    listing = page.get("/accounts/tokens/")
    assert b"laptop" in listing.content and key.encode() not in listing.content
    token_id = credentials.public_id(key)
    assert page.post("/accounts/tokens/", {"revoke": token_id}).status_code == 302
    assert _by_token(key).get("/api/me/").status_code == 401
    assert page.post("/accounts/tokens/", {"revoke": token_id}).status_code == 400
    assert Client().get("/accounts/tokens/").status_code == 302  # to the login page


def test_a_password_set_in_the_admin_ends_the_users_tokens_and_sessions(alice):
    root = User.objects.create_superuser("root", password=PASSWORD)
    admin = _signed_in(root)
    browser = _signed_in(alice)
    response = admin.post(f"/admin/accounts/user/{alice.pk}/password/", {
        "password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"})
    assert response.status_code == 302
    assert client_for(alice).get("/api/me/").status_code == 401
    assert browser.get("/api/me/").status_code == 401
    assert admin.get("/admin/").status_code == 200  # the administrator stays signed in


def test_a_key_names_its_active_user_in_one_query(alice, bob, django_assert_num_queries):
    _, named = credentials.create_token(user=bob, name="bot script")
    with django_assert_num_queries(1):
        assert credentials.user_for_key(alice.auth_token.key) == alice
    with django_assert_num_queries(1):
        assert credentials.user_for_key(named) == bob
    for unknown in ("0" * 40, "", "x" * 41, "abc\x00def"):
        assert credentials.user_for_key(unknown) is None
    User.objects.filter(pk=bob.pk).update(is_active=False)
    assert credentials.user_for_key(named) is None
    assert credentials.user_for_key(alice.auth_token.key) == alice
