"""Every page in English and in Brazilian Portuguese: a pt-BR rendering shows no
sentence of the English one (names and notation aside), whether the language came from
the browser's Accept-Language or from the switcher's cookie.

The pages are rendered by the server; what static/js writes into them later is the
JavaScript catalogue's (docs/i18n.md), and inline SVG boards are notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import Client, RequestFactory
from django.utils import translation

from accounts import lockout
from bloqueio_site import unavailable, views
from games import engine, services
from games.bot_accounts import bot_account
from tests.games.helpers import play, started_game
from tests.moderation.conftest import moderators_group, staff
from tests.site.visible_text import english_left
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

PT = "pt-br"
NAMES = frozenset({"alice", "bob", "root", "mod"})


def _lang(html: str) -> str | None:
    found = re.search(r'<html lang="([^"]+)"', html)
    return found.group(1) if found else None


def _clients(user: Any) -> dict[str, Client]:
    """An English browser, a Portuguese one, and an English one that chose Portuguese
    with the switcher."""
    english = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    browser = Client(HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9,en;q=0.5")
    switched = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    switched.cookies[settings.LANGUAGE_COOKIE_NAME] = PT
    clients = {"en": english, "accept-language": browser, "cookie": switched}
    if user is not None:
        for client in clients.values():
            client.force_login(user)
    return clients


def _assert_translated(page: str, render: Callable[[Client], Any], user: Any = None,
                       status: int = 200) -> None:
    clients = _clients(user)
    answers = {how: render(client) for how, client in clients.items()}
    english = answers.pop("en")
    assert english.status_code == status, (page, english.status_code)
    assert _lang(english.content.decode()) == "en", page
    for how, answer in answers.items():
        assert answer.status_code == status, (page, how, answer.status_code)
        html = answer.content.decode()
        assert _lang(html) == PT, (page, how)
        left = english_left(english.content.decode(), html, names=NAMES)
        assert left == [], f"{page} in pt-BR ({how}) still says {len(left)}: {left[:12]}"


@pytest.fixture
def finished(alice, bob):
    """A two-seat Quoridor game, two plies in, that bob resigned."""
    game = started_game([alice, bob], kind="quoridor")
    play(game, [alice, bob], [{"type": "move", "to": [7, 4]}, {"type": "move", "to": [1, 4]}])
    services.resign(game_id=game.pk, user=bob)
    return game


@pytest.fixture
def waiting(alice):
    return services.create_game(user=alice, kind="bloqueio")


PAGES = ["/", "/leaderboard/", "/leaderboard/quoridor/", "/accounts/login/", "/tournaments/",
         "/accounts/register/", "/nothing-here/", "/users/alice/", "/users/easy-bot/",
         *(f"/rules/{kind}/" for kind in engine.KINDS)]


@pytest.mark.parametrize("path", PAGES)
def test_pages_for_visitors_are_translated(path, alice):
    bot_account("easy")
    status = 404 if path == "/nothing-here/" else 200
    _assert_translated(path, lambda client: client.get(path), status=status)


@pytest.mark.parametrize("path", ["/", "/users/alice/", "/users/bob/", "/accounts/tokens/",
                                  "/accounts/password/", "/accounts/password/done/",
                                  "/leaderboard/", "/tournaments/"])
def test_pages_for_players_are_translated(path, alice, bob, finished):
    _assert_translated(path, lambda client: client.get(path), user=alice)


def test_a_tournaments_page_is_translated(alice, bob):
    tournament = tournaments.create(user=alice, kind="bloqueio2", rounds=1)
    path = f"/tournaments/{tournament.pk}/"
    _assert_translated(path, lambda client: client.get(path))
    _assert_translated(path, lambda client: client.get(path), user=bob)


def test_an_arenas_page_is_translated(alice):
    tournament = tournaments.create(user=alice, kind="blockade", system="arena", minutes=30)
    path = f"/tournaments/{tournament.pk}/"
    _assert_translated(path, lambda client: client.get(path), user=alice)


@pytest.mark.parametrize("page", ["game", "replay"])
def test_game_pages_are_translated(page, alice, bob, finished, waiting):
    for game in (finished, waiting):
        path = f"/games/{game.pk}/" + ("replay/" if page == "replay" else "")
        _assert_translated(path, lambda client, path=path: client.get(path))
        _assert_translated(path, lambda client, path=path: client.get(path), user=alice)
        _assert_translated(path, lambda client, path=path: client.get(path), user=bob)


def test_forms_with_their_errors_are_translated(alice):
    _assert_translated("register with errors", lambda client: client.post(
        "/accounts/register/", {"username": "alice", "password1": "123",
                                "password2": "456"}))
    _assert_translated("login with errors", lambda client: client.post(
        "/accounts/login/", {"username": "alice", "password": "wrong"}))
    _assert_translated("password change with errors", lambda client: client.post(
        "/accounts/password/", {"old_password": "wrong", "new_password1": "1",
                                "new_password2": "2"}), user=alice)
    _assert_translated("tokens with an error", lambda client: client.post(
        "/accounts/tokens/", {"name": " "}), user=alice, status=400)


def test_messages_after_a_form_are_translated(alice):
    def refused_then_lobby(client: Client) -> Any:
        client.post("/games/new/", {"kind": "quoridor", "time_control": "nonsense"})
        return client.get("/")  # the refusal, shown once

    _assert_translated("lobby with a refusal", refused_then_lobby, user=alice)


def test_the_400_page_is_translated():
    # A Host this site does not serve: Django's DisallowedHost, answered by handler400.
    _assert_translated("400", lambda client: client.get("/", HTTP_HOST="evil.invalid"),
                       status=400)


@pytest.mark.parametrize("page", ["500", "503", "locked out"])
def test_error_pages_drawn_by_handlers_are_translated(page, rf: RequestFactory):
    def draw(language: str) -> Any:
        request = rf.get("/")
        with translation.override(language):
            if page == "500":
                return views.server_error(request)
            if page == "503":
                return unavailable.response(request, OperationalError("down"))
            return lockout.lockout_response(request)

    english, portuguese = draw("en"), draw(PT)
    assert english.status_code == portuguese.status_code
    left = english_left(english.content.decode(), portuguese.content.decode())
    assert left == [], f"the {page} page in pt-BR still says: {left}"
    assert _lang(portuguese.content.decode()) == PT


def test_the_moderators_reason_page_is_translated(alice):
    """templates/admin/moderation/reason.html, inside Django admin (translated by Django;
    its sidebar's model names are not ours to check here)."""
    moderator = staff("mod", group=moderators_group().name)
    clients = _clients(moderator)

    def content(client: Client) -> str:
        page = client.post("/admin/accounts/user/", {"action": "ban_users",
                                                     "_selected_action": [alice.pk]})
        assert page.status_code == 200
        html = page.content.decode()
        assert 'name="reason"' in html
        return html[html.index('<div id="content"'):]

    english = content(clients.pop("en"))
    assert "Kept in the moderation log" in english
    for how, client in clients.items():
        left = english_left(english, content(client), names=NAMES)
        assert left == [], f"the ban reason page in pt-BR ({how}) still says: {left}"


def test_the_english_pages_are_english_by_default(client, alice):
    """No Accept-Language, no cookie: the site's default language."""
    html = client.get("/").content.decode()
    assert _lang(html) == "en" and "Open games" in html
    client.force_login(alice)
    assert "Your games" in client.get("/").content.decode()


def test_portuguese_reads_naturally_where_english_counts_and_dates(alice):
    """No "0 partida em jogo" (pt-BR's singular covers 0) and no capitalised month
    ("Novembro"): Portuguese writes "Nenhuma partida em jogo" and "28 de nov. de 2026"."""
    client = _clients(alice)["accept-language"]
    lobby = client.get("/").content.decode()
    assert "Nenhuma partida em jogo" in lobby and "0 partida" not in lobby
    joined = alice.date_joined
    profile = client.get("/users/alice/").content.decode()
    months = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov",
              "dez")
    assert f"{joined.day} de {months[joined.month - 1]}. de {joined.year}" in profile
