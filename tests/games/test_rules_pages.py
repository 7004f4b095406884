"""The "How to play" pages: one per game kind (templates/rules/<kind>.html)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games import engine

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", list(engine.KINDS))
def test_rules_page_for_every_kind(client, kind):
    response = client.get(f"/rules/{kind}/")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert engine.get(kind).info.title in page
    assert "<h2" in page
    assert f'href="{reverse("home")}#create"' in page  # the link to play
    # the kind's own fragment (templates/rules/<kind>.html), not just the frame around it
    assert "<h2>The goal</h2>" in page and "<h2>On this site</h2>" in page


def test_rules_fragments_name_their_own_colours(client):
    for kind in engine.KINDS:
        page = client.get(f"/rules/{kind}/").content.decode().lower()
        for colour in engine.get(kind).info.colours:
            assert colour.name.lower() in page, (kind, colour.name)


def test_unknown_kind_is_404(client):
    assert client.get("/rules/chess/").status_code == 404


def test_lobby_links_to_every_rules_page(client):
    page = client.get("/").content.decode()
    for kind in engine.KINDS:
        assert f'href="/rules/{kind}/"' in page, kind


@pytest.mark.parametrize("kind", list(engine.KINDS))
def test_rules_page_draws_the_starting_position_from_the_engine(client, kind):
    """Issue 28: the rules pages had no board diagram."""
    page = client.get(f"/rules/{kind}/").content.decode()
    figure = page.split('id="start-diagram"', 1)[1].split("</figure>", 1)[0]
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in figure and f'data-kind="{kind}"' in figure
    state = engine.get(kind).initial().to_json()
    for pawn in state.get("pawns", []):  # barrier and Blockade Run pawns, where they start
        assert f'data-row="{pawn[0]}" data-col="{pawn[1]}"' in figure


def test_blokus_pieces_are_drawn_from_the_engine_shapes_not_ascii(client):
    """Issue 28: the pieces were ASCII art, W cut off."""
    from games.engine.blokus import pieces

    for kind in ("blokus", "blokus2", "blokus_duo"):
        page = client.get(f"/rules/{kind}/").content.decode()
        assert "<pre" not in page
        for name, shape in zip(pieces.NAMES, pieces.SHAPES, strict=True):
            drawn = page.split(f'data-piece="{name}"', 1)[1].split("</svg>", 1)[0]
            assert drawn.count("<rect") == len(shape), name
