"""User names: one case folding everywhere, look-alike and invisible names refused."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.db import IntegrityError
from django.test import Client

from accounts import names
from accounts.models import User
from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

CYRILLIC_ALICE = "\u0430lice"


def _register(anon, username: str):
    return anon.post("/api/auth/register/", {"username": username, "password": PASSWORD},
                     format="json")


def test_a_look_alike_of_an_existing_name_is_refused_naming_it(anon, alice):
    refused = _register(anon, CYRILLIC_ALICE)
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    assert refused.json()["errors"]["username"] == [
        'That username looks like the existing name "alice".']
    assert not User.objects.filter(username=CYRILLIC_ALICE).exists()


@pytest.mark.parametrize(("existing", "newcomer"), [
    ("bob", "b0b"), ("bill", "biII"), ("modern", "rnodern"), ("alice", "ALICE"),
])
def test_look_alikes_and_other_cases_are_refused(anon, existing, newcomer):
    make_user(existing)
    refused = _register(anon, newcomer)
    assert refused.status_code == 400
    assert "username" in refused.json()["errors"]


def test_the_register_page_names_the_clash(client, alice):
    response = client.post("/accounts/register/", {
        "username": CYRILLIC_ALICE, "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 200
    assert b"looks like the existing name &quot;alice&quot;" in response.content


@pytest.mark.parametrize("name", ["\u3164alice", "al\u115fice", "alice\u180e"])
def test_names_with_invisible_characters_are_refused(anon, name):
    refused = _register(anon, name)
    assert refused.status_code == 400
    assert "invisible" in refused.json()["errors"]["username"][-1]


def test_the_database_refuses_a_look_alike_that_races_past_the_check(alice):
    with pytest.raises(IntegrityError):
        User.objects.create_user(username=CYRILLIC_ALICE, password=PASSWORD)


@pytest.mark.parametrize(("stored", "typed"), [
    ("\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3",  # ODYSSEUS in Greek capitals
     "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c2"),  # and in small letters
    ("\u0130stanbul", "\u0130STANBUL"),
    ("Stra\u00dfe", "STRASSE"),
])
def test_every_lookup_folds_names_the_same_way(anon, client, stored, typed):
    make_user(stored)
    for name in (stored, typed):
        assert anon.get(f"/api/users/{name}/").json()["username"] == stored
        assert client.get(f"/users/{name}/").status_code == 200
        token = anon.post("/api/auth/token/", {"username": name, "password": PASSWORD},
                          format="json")
        assert token.status_code == 200, name
    assert _register(anon, typed).status_code == 400


def test_renaming_derives_the_keys_again(alice):
    alice.username = "Alicia"
    alice.save(update_fields=["username"])
    alice.refresh_from_db()
    assert (alice.username_key, alice.username_skeleton) == (
        "alicia", names.confusable_key("Alicia"))
    assert User.objects.get_by_natural_key("ALICIA") == alice


def test_the_admin_refuses_look_alikes_as_form_errors(alice, bob):
    admin = User.objects.create_superuser("root", password=PASSWORD)
    client = Client()
    client.force_login(admin)
    added = client.post("/admin/accounts/user/add/", {
        "username": CYRILLIC_ALICE, "password1": PASSWORD, "password2": PASSWORD,
        "usable_password": "true"})
    assert added.status_code == 200
    assert b"looks like the existing name &quot;alice&quot;" in added.content
    page = client.get(f"/admin/accounts/user/{bob.pk}/change/")
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items()
            if value is not None and name not in ("groups", "user_permissions", "password")}
    data.update(username="ALICE", date_joined_0="2026-01-01", date_joined_1="00:00:00",
                is_active="on")
    data.pop("date_joined", None)
    data.pop("last_login", None)
    renamed = client.post(f"/admin/accounts/user/{bob.pk}/change/", data)
    assert renamed.status_code == 200
    assert b"That username is taken." in renamed.content


def test_the_migration_keys_existing_names_oldest_first():
    """Names from before the keys: each gets its keys; a later look-alike, or a later
    name that folds like an older one, keeps NULL there instead of failing the
    migration (accounts/migrations/0003)."""
    from django.apps import apps

    fill_keys = import_module("accounts.migrations.0003_username_keys").fill_keys
    User.objects.bulk_create([User(username=name, password="!") for name in
                              ("Stra\u00dfe", "STRASSE", "alice", CYRILLIC_ALICE)])
    fill_keys(apps, None)
    rows = dict(User.objects.filter(username__in=["Stra\u00dfe", "STRASSE", "alice",
                                                  CYRILLIC_ALICE])
                .values_list("username", "username_key"))
    assert rows == {"Stra\u00dfe": "strasse", "STRASSE": None, "alice": "alice",
                    CYRILLIC_ALICE: names.fold(CYRILLIC_ALICE)}
    assert User.objects.get(username=CYRILLIC_ALICE).username_skeleton is None
    assert User.objects.get_by_natural_key("strasse").username == "Stra\u00dfe"
