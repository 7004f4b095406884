"""Seat palettes on the page: CSS variables for every palette and theme, and the board
spec the page embeds painted with them.

The page never draws a seat in a fixed hex. Its spec says ``var(--seat-red)`` (the
fill), ``var(--seat-red-text)`` (text and lines in the seat's colour) and
``var(--seat-red-ink)`` (letters on the fill), and the board's own neutral colours are
the theme's ``--board-*`` variables; `palette_css()` defines the seat variables for
every palette of games/engine/palettes.json in every theme of site.css. Switching the
palette or the theme (static/js/theme.js) repaints every board, chip and move list at
once, with nothing redrawn. The server's SVG images keep the standard palette's hex.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from games.boards.colours import ink_on, text_colour, themes
from games.engine.palettes import PALETTES

DEFAULT = "standard"  # the palette with no `data-palette` on <html>

# A board layout's colour keys (games/boards/<family>.py) and the theme variable that
# replaces each on the page (site.css); anything else in a layout is a size.
LAYOUT_VARS = {
    "background": "board-bg", "empty": "board-cell", "grid": "board-grid",
    "label": "board-label", "label_ink": "board-label", "ink": "board-ink",
    "block": "board-block", "block_edge": "board-block-edge", "accent": "accent",
}


def _selector(palette: str, theme: str) -> str:
    out = ":root"
    if palette != DEFAULT:
        out += f'[data-palette="{palette}"]'
    if theme != "light":
        out += f'[data-theme="{theme}"]'
    return out


@cache
def palette_css() -> str:
    """The ``--seat-*`` variables of every palette in every theme, as one stylesheet:
    the fill and its letters' ink per palette, the text shade per palette and theme."""
    rules = []
    for palette, colours in PALETTES.items():
        for theme in themes():
            decls = []
            for slot, fill in colours.items():
                if theme == "light":
                    decls.append(f"--seat-{slot}:{fill};--seat-{slot}-ink:{ink_on(fill)};")
                decls.append(f"--seat-{slot}-text:{text_colour(fill, theme)};")
            rules.append(f"{_selector(palette, theme)}{{{''.join(decls)}}}")
    return "\n".join(rules)


def paint(style: dict[str, Any]) -> dict[str, Any]:
    """A seat style (colours.seat_styles) as the page uses it: its colours are the
    variables of its slot, with the standard light values as fallbacks."""
    slot = style["slot"]
    return {**style,
            "colour": f"var(--seat-{slot}, {style['colour']})",
            "text": f"var(--seat-{slot}-text, {style['text']})",
            "ink": f"var(--seat-{slot}-ink, {style['ink']})"}


def painted(spec: dict[str, Any]) -> dict[str, Any]:
    """A board spec (games.boards.board_spec) as the page embeds it: seat colours and
    the layout's colours as theme variables (the spec's own values as fallbacks)."""
    out = copy.deepcopy(spec)
    out["colours"] = [paint(c) for c in spec["colours"]]
    out["seats"] = [paint(s) for s in spec["seats"]]
    if "initial_ink" in out:
        out["initial_ink"] = [c["ink"] for c in out["colours"]]
    layout = out.get("layout", {})
    for key, var in LAYOUT_VARS.items():
        if key in layout:
            layout[key] = f"var(--{var}, {layout[key]})"
    return out
