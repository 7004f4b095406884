"""Issue 28: the words a board's page uses come from its family, per kind: Quoridor
places walls (no "barrier", no "cells marked R"), Blockade's input hint is Blockade's
own syntax and fits its box, no help says "letters are columns" (on a rotated board
the letters run down the side), and the kind menu and summaries read as the board."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.boards import board_spec

PLACEHOLDER_FITS = 20  # characters the notation box shows on a phone


@pytest.mark.parametrize("kind", engine.KINDS)
def test_every_kind_has_its_own_notation_words(kind: str) -> None:
    words = board_spec(kind)["words"]
    assert "columns" not in words["notation_help"].lower()
    assert "as on the rules page and the board's edges" in words["notation_help"]
    assert len(words["notation_placeholder"]) <= PLACEHOLDER_FITS
    example = words["notation_placeholder"].removeprefix("Type a move: ").split(", ")
    rules = engine.get(kind)
    for text in example:  # the placeholder's examples are this kind's own syntax
        assert rules.parse_notation(text) is not None, text


def test_walls_where_the_goal_is_outside_the_board_barriers_where_it_is_marked() -> None:
    for kind in engine.KINDS:
        spec = board_spec(kind)
        if spec["family"] != "barrier":
            continue
        marked = any(isinstance(z, int) for row in spec["zones"] for z in row)
        assert spec["words"]["wall"] == ("barrier" if marked else "wall"), kind
        if not marked:
            assert "barrier" not in spec["words"]["notation_help"]


@pytest.mark.django_db
def test_the_kind_menu_says_the_player_count_once_and_summaries_name_cells_as_the_board(
        alice: Any) -> None:
    client = Client()
    client.force_login(alice)  # the computer's form is for people signed in
    page = client.get("/").content.decode()
    options = re.findall(r'<option value="[a-z_0-9]+">([^<]*players\)[^<]*)</option>', page)
    assert options and not [o for o in options if o.count("players)") > 1], options
    for kind in engine.KINDS:
        assert not re.search(r"\[\d+, ?\d+\]", engine.get(kind).info.summary), kind
