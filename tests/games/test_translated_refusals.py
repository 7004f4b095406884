"""What was still English (issue #30): ranked refusals, the board images' titles, the
move check's answer to a malformed action, the admin's names of models and fields."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.test import Client
from django.utils import translation

from games import errors, services
from games.bot_accounts import bot_account
from games.ranked import matchmaking
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db

PT = "pt-br"
# Words that are the same in both languages (or loanwords the site keeps).
SAME = {"mu", "sigma", "rating", "ratings", "spam", "rating before", "rating after"}


def test_ranked_refusals_are_translated(alice, bob):
    with translation.override(PT):
        with pytest.raises(errors.HumansOnly) as humans_only:
            matchmaking.join_queue(user=bot_account("easy"), kind="bloqueio")
        with pytest.raises(errors.InvalidRequest) as unknown:
            matchmaking.join_queue(user=alice, kind="chess")
        with pytest.raises(errors.GameNotFound) as missing:
            services.annul_game(game_id=987654)
        game = started_game([alice, bob], kind="bloqueio2")
        with pytest.raises(errors.NotRanked) as not_ranked:
            services.annul_game(game_id=game.pk)
    assert humans_only.value.detail == "As filas ranqueadas são para pessoas."
    assert unknown.value.code == "unknown_kind"
    assert unknown.value.detail == "Tipo de jogo desconhecido 'chess'."
    assert missing.value.detail == "Não existe a partida 987654."
    assert not_ranked.value.detail.startswith("Só uma partida terminada")


def titles(svg: str) -> list[str]:
    return re.findall(r"<title>(.*?)</title>", svg)


def test_the_board_image_titles_follow_the_reader(alice, bob):
    game = started_game([alice, bob], kind="bloqueio2")
    portuguese = Client(HTTP_ACCEPT_LANGUAGE="pt-BR").get(f"/games/{game.pk}/board.svg")
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/games/{game.pk}/board.svg")
    pt, en = titles(portuguese.content.decode()), titles(english.content.decode())
    assert en[0].endswith("ply 0") and any(t.endswith(" pawn on f1") for t in en)
    assert len(pt) == len(en) and not set(pt) & set(en)
    assert any(t.startswith("Peão Vermelho em ") for t in pt)
    # One URL, two images: a cache must keep them apart by language and by cookie.
    vary = {v.strip() for v in portuguese["Vary"].split(",")}
    assert {"Accept-Language", "Cookie"} <= vary
    by_cookie = Client(HTTP_ACCEPT_LANGUAGE="en")
    by_cookie.cookies["django_language"] = "pt-br"
    assert titles(by_cookie.get(f"/games/{game.pk}/board.svg").content.decode()) == pt


@pytest.mark.parametrize("kind", ["bloqueio", "blockade_run", "blokus"])
def test_the_rules_diagrams_are_titled_in_portuguese(kind):
    page = Client(HTTP_ACCEPT_LANGUAGE="pt-BR").get(f"/rules/{kind}/").content.decode()
    found = titles(page)
    assert any(t.endswith(": a posição inicial") for t in found), found
    assert not [t for t in found if " on " in t or "position" in t or "square" in t]


def test_the_move_check_answers_a_malformed_action_in_portuguese(alice, bob):
    game = started_game([alice, bob], kind="bloqueio2")
    url = f"/games/{game.pk}/check"
    pt = Client(HTTP_ACCEPT_LANGUAGE="pt-BR").get(url, {"action": '"move"'}).json()
    en = Client(HTTP_ACCEPT_LANGUAGE="en").get(url, {"action": '"move"'}).json()
    assert en == {"ok": False, "reason": "an action must be a JSON object, not 'move'"}
    assert pt == {"ok": False, "reason": "uma ação precisa ser um objeto JSON, não 'move'"}
    pt = Client(HTTP_ACCEPT_LANGUAGE="pt-BR").get(
        url, {"action": '{"type": "move", "to": [true, 5]}'}).json()
    assert pt["reason"] == "linha de 'to' precisa ser um número inteiro, não True"


OUR_APPS = ("accounts", "chat", "games", "moderation", "tournaments")


def test_every_model_and_field_has_a_portuguese_name():
    untranslated = []
    for app in OUR_APPS:
        config = apps.get_app_config(app)
        for model in config.get_models():
            meta = model._meta
            names = [("model", meta.verbose_name), ("models", meta.verbose_name_plural)]
            names += [(f.name, f.verbose_name) for f in meta.get_fields()
                      if f.concrete and f.editable and not f.auto_created and f.model is model]
            with translation.override("en"):
                english = {key: str(name) for key, name in names}
            with translation.override(PT):
                portuguese = {key: str(name) for key, name in names}
            untranslated += [f"{model.__name__}.{key}: {english[key]}" for key in english
                             if english[key] == portuguese[key] and english[key] not in SAME]
    assert untranslated == []


def test_the_admin_speaks_portuguese(admin_client):
    page = admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
    for words in ("Partidas", "Mensagens do bate-papo", "Denúncias", "Registro de moderação"):
        assert words in page, words
    listing = admin_client.get("/admin/games/game/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
    # The filter by status: the field's name and its choices.
    assert "situação" in listing.lower() and "aguardando" in listing


def test_a_finished_game_says_its_status_in_portuguese(alice, bob):
    game = started_game([alice, bob], kind="bloqueio2")
    services.resign(game_id=game.pk, user=alice)
    with translation.override(PT), pytest.raises(errors.GameOver) as over:
        services.submit_action(game_id=game.pk, user=bob,
                               action={"type": "move", "to": [1, 4]}, ply=1)
    assert over.value.code == "game_over"
    assert "terminada" in over.value.detail and "finished" not in over.value.detail
