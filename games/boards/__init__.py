"""Boards, one module per game family: the spec the page draws from, and the SVG image.

`board_spec(kind)` is the common part (kind, family, script, title, grid size, per seat and per
colour its name, colours and initial) plus the family's own (`<family>.spec`); the page
embeds it as JSON and `static/js/boards/<script>.js` draws with it. `render_svg` is the
same position as a standalone image (`/games/{id}/board.svg`). `page_spec(kind)` is
the spec as the page embeds it, its colours the theme's and palette's CSS variables
(palettes.py). A family module has:

    spec(kind) -> dict                                 what its board needs beyond the common spec
    render_svg(kind, spec, state, *, ply, title) -> str
    piece_figures(kind) -> [{"name", "svg"}]           optional: its pieces, for the rules page

A family names its module in its one registration (`engine.Family.board`, with the
page's module as `script`); only the family modules here and the page's board modules
know families, and everything else asks here.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

from django.utils.translation import gettext

from games import engine
from games.boards.colours import seat_styles
from games.boards.palettes import paint, painted

# A spec in the reader's words (games/drawings.py): a copy with names translated.
Words = Callable[[dict[str, Any]], dict[str, Any]]



def family_board(kind: str) -> ModuleType:
    """The server board module `kind`'s family registered (`engine.Family.board`)."""
    return importlib.import_module(engine.family_of(kind).board)


@cache
def _spec(kind: str) -> dict[str, Any]:
    info = engine.get(kind).info
    colours = list(seat_styles(kind))
    common = {
        "kind": kind, "family": info.family, "title": info.title, "summary": info.summary,
        "rows": info.rows, "cols": info.cols, "colours": colours,
        # One entry per seat (a seat may play several colours, as in blokus2): the name
        # and look of its first colour, and the colour indexes it plays.
        "seats": [
            {**next(c for c in colours if c["seat"] == seat), "seat": seat,
             "colour_ids": [i for i, c in enumerate(colours) if c["seat"] == seat],
             "name": " & ".join(c["name"] for c in colours if c["seat"] == seat)}
            for seat in range(info.seats)
        ],
        "measure": {"name": info.measure_name, "higher_is_better": info.measure_higher_is_better},
        # the page's board module: static/js/boards/<script>.js (engine.Family.script)
        "script": engine.family_of(kind).script,
    }
    return {**common, **family_board(kind).spec(kind)}


def board_spec(kind: str) -> dict[str, Any]:
    """Everything the page needs to draw a `kind` board (a fresh copy)."""
    return copy.deepcopy(_spec(kind))


def page_spec(kind: str) -> dict[str, Any]:
    """`board_spec(kind)` as the page embeds it: colours that follow the palette and
    theme the reader chose (palettes.py)."""
    return painted(_spec(kind))


def page_seat_styles(kind: str) -> list[dict[str, Any]]:
    """Each colour of `kind` as the lobby shows it (colours.seat_styles, painted)."""
    return [paint(s) for s in seat_styles(kind)]


def board_css(kind: str) -> str:
    """The static path of the stylesheet of `kind`'s board module."""
    return f"css/boards/{_spec(kind)['script']}.css"


def render_svg(kind: str, state: dict[str, Any], *, ply: int | None = None,
               title: str | None = None, words: Words | None = None) -> str:
    """The position `state` of a `kind` game as a standalone SVG (row 0 at the top);
    `words` puts the spec's names in the reader's language (games/drawings.py)."""
    spec = _spec(kind) if words is None else words(_spec(kind))
    return family_board(kind).render_svg(kind, spec, state, ply=ply, title=title)


def rules_figures(kind: str, words: Words | None = None) -> dict[str, Any]:
    """The rules page's drawings, from the engine's own data: the starting position
    (`start`, an SVG) and, for a family with pieces, each piece (`pieces`)."""
    spec = _spec(kind)
    family = family_board(kind)
    named = spec if words is None else words(spec)
    start = render_svg(kind, engine.get(kind).initial().to_json(), words=words,
                       title=gettext("%(kind)s: the starting position") % {
                           "kind": named["title"]})
    figures = getattr(family, "piece_figures", None)
    return {"start": start, "pieces": figures(kind) if figures else []}
