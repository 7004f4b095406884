"""The lobby says, per level, roughly how strong the computer is (bots.ABOUT)."""

from __future__ import annotations

import html

import pytest

from games import bots

pytestmark = pytest.mark.django_db


def test_every_level_has_a_sentence_on_how_strong_it_is() -> None:
    assert set(bots.ABOUT) == set(bots.LEVELS)
    for text in bots.ABOUT.values():
        assert text.endswith(".") and len(text.split()) >= 8


def test_the_lobby_shows_how_strong_each_level_is(client, alice) -> None:
    client.force_login(alice)
    page = html.unescape(client.get("/").content.decode())
    for level in bots.LEVELS:
        assert f"<b>{level.capitalize()}</b>: {bots.ABOUT[level]}" in page
