"""The reader's language: from Accept-Language, switched from any page (a cookie),
remembered on the account; `<html lang>`; the API's error details in it, codes English."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang_of(response) -> str:
    found = re.search(r'<html lang="([^"]+)">', response.content.decode())
    assert found, response.content[:200]
    return found.group(1)


def switch(client: Client, language: str, back_to: str = "/") -> None:
    response = client.post("/i18n/setlang/", {"language": language, "next": back_to})
    assert response.status_code == 302 and response["Location"] == back_to


def test_the_browser_language_chooses_the_page_language():
    assert lang_of(Client(HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9").get("/")) == "pt-br"
    assert lang_of(Client(HTTP_ACCEPT_LANGUAGE="pt-PT,pt;q=0.9").get("/")) == "pt-br"
    assert lang_of(Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").get("/")) == "en"
    response = Client().get("/")
    assert lang_of(response) == "en" and response["Content-Language"] == "en"
    assert "Accept-Language" in response["Vary"]


def test_every_page_offers_the_switcher_back_to_itself(alice):
    client = Client()
    client.force_login(alice)
    for path in ("/", "/leaderboard/quoridor/", "/users/alice/", "/rules/bloqueio/",
                 "/accounts/tokens/"):
        page = client.get(path).content.decode()
        form = re.search(r'<form method="post" action="/i18n/setlang/".*?</form>', page, re.S)
        assert form, path
        assert f'name="next" value="{path}"' in form.group(0)
        assert re.findall(r'name="language" value="([^"]+)"', form.group(0)) == ["en", "pt-br"]
        assert 'value="en" lang="en" aria-describedby="lang-l" aria-current="true"' in (
            form.group(0))


def test_switching_sets_the_cookie_and_every_page_follows(client):
    switch(client, "pt-br", "/leaderboard/")
    assert client.cookies[COOKIE].value == "pt-br"
    page = client.get("/leaderboard/", HTTP_ACCEPT_LANGUAGE="en")
    assert lang_of(page) == "pt-br"
    assert "Classificação" in page.content.decode()
    switch(client, "en")
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="pt-BR")) == "en"


def test_an_unknown_language_changes_nothing(client):
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert COOKIE not in response.cookies
    assert client.get("/i18n/setlang/").status_code == 405


def test_the_switcher_never_sends_anyone_elsewhere(client):
    response = client.post("/i18n/setlang/", {"language": "pt-br",
                                              "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_signed_in_choice_is_remembered_across_logout_and_login(alice):
    first = Client(HTTP_ACCEPT_LANGUAGE="en")
    first.force_login(alice)
    switch(first, "pt-br")
    alice.refresh_from_db()
    assert alice.language == "pt-br"
    first.post("/accounts/logout/")

    # Another browser, in English and without the cookie: the account's choice wins.
    other = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert lang_of(other.get("/")) == "en"
    response = other.post("/accounts/login/", {"username": "alice", "password": PASSWORD},
                          follow=True)
    assert lang_of(response) == "pt-br"
    assert "Suas partidas" in response.content.decode()
    # ...and it stays, signed out, on that browser too (the cookie followed the account).
    assert other.cookies[COOKIE].value == "pt-br"
    other.post("/accounts/logout/")
    assert lang_of(other.get("/")) == "pt-br"


def test_the_account_wins_over_the_cookie_and_the_browser(alice):
    User.objects.filter(pk=alice.pk).update(language="pt-br")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.cookies[COOKIE] = "en"
    client.force_login(alice)
    assert lang_of(client.get("/")) == "pt-br"


def test_a_choice_made_before_logging_in_becomes_the_accounts(alice, bob):
    User.objects.filter(pk=bob.pk).update(language="en")
    for user in (alice, bob):
        client = Client()
        switch(client, "pt-br")
        response = client.post("/accounts/login/", {"username": user.username,
                                                     "password": PASSWORD})
        assert response.status_code == 302
        user.refresh_from_db()
    assert alice.language == "pt-br"  # had none: takes this browser's
    assert bob.language == "en"  # had one: keeps it


def test_signing_up_after_choosing_keeps_the_choice():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    switch(client, "pt-br")
    response = client.post("/accounts/register/", {
        "username": "erin", "password1": PASSWORD, "password2": PASSWORD}, follow=True)
    assert lang_of(response) == "pt-br"
    assert User.objects.get(username="erin").language == "pt-br"


def test_the_api_shows_and_changes_the_accounts_language(alice):
    api = client_for(alice)
    assert api.get("/api/me/").json()["language"] == ""
    response = api.patch("/api/me/", {"language": "pt-br"}, format="json")
    assert response.status_code == 200 and response.json()["language"] == "pt-br"
    alice.refresh_from_db()
    assert alice.language == "pt-br"
    wrong = api.patch("/api/me/", {"language": "klingon"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid" and "language" in wrong.json()["errors"]
    assert api.patch("/api/me/", {}, format="json").json()["language"] == "pt-br"
    assert api.patch("/api/me/", {"language": ""}, format="json").json()["language"] == ""
    assert APIClient().patch("/api/me/", {"language": "en"}, format="json").status_code == 401


def test_api_error_details_follow_accept_language_and_codes_stay_english(alice):
    english = APIClient().get("/api/games/987654/")
    portuguese = APIClient(HTTP_ACCEPT_LANGUAGE="pt-BR").get("/api/games/987654/")
    assert english.json() == {"code": "not_found", "detail": "No game 987654."}
    assert portuguese.status_code == 404
    assert portuguese.json() == {"code": "not_found", "detail": "Não existe a partida 987654."}
    assert portuguese["Content-Language"] == "pt-br"

    # DRF's own messages, and the first of a validation error's.
    refused = APIClient(HTTP_ACCEPT_LANGUAGE="pt-BR").post("/api/auth/register/", {},
                                                             format="json")
    assert refused.json()["code"] == "invalid"
    assert refused.json()["detail"] == "username: Este campo é obrigatório."
    anonymous = APIClient(HTTP_ACCEPT_LANGUAGE="pt-BR").post("/api/games/", {}, format="json")
    assert anonymous.json()["code"] == "not_authenticated"
    assert anonymous.json()["detail"] == "As credenciais de autenticação não foram fornecidas."

    # A program's account language, without any Accept-Language.
    User.objects.filter(pk=alice.pk).update(language="pt-br")
    token = client_for(alice)
    gone = token.delete("/api/auth/tokens/0123456789abcdef/")
    assert gone.json() == {"code": "not_found",
                           "detail": "Você não tem nenhum token com esse id."}


def test_a_locked_out_login_says_so_in_the_readers_language(client, dave, settings):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "dave", "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "dave", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Tentativas de entrar falharam demais" in locked.content.decode()
    api = APIClient(HTTP_ACCEPT_LANGUAGE="pt-BR").post(
        "/api/auth/token/", {"username": "dave", "password": PASSWORD}, format="json")
    assert api.json()["code"] == "locked_out"
    assert api.json()["detail"].startswith("Tentativas de entrar nesta conta falharam demais")
