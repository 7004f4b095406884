"""Seat colours as the pages and SVGs show them: the engine's colour for fills, a shade
of it for text and lines (AA, 4.5:1, on every background of a theme) and an ink for the
letters drawn on the fill. The themes' backgrounds are read from static/css/site.css,
their one source (docs/web.md, "Colours and themes")."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from games import engine
from games.engine.palettes import STANDARD

INK = "#0f172a"  # the site's dark ink: letters on light fills, pawn outlines
WHITE = "#ffffff"
SITE_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"

# The theme colours seat text and lines sit on (site.css names): pages, cards, the
# highlighted player, the board and its cells; and each seat's own goal-zone tint.
TEXT_GROUNDS = ("bg", "surface", "surface-2", "accent-soft", "board-bg", "board-cell")
TINT = 0.28  # the opacity of a goal zone's tint (barrier.js, blockade.js)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in rgb)


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""
    la, lb = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: str, b: str, t: float) -> str:
    """`a` moved a fraction `t` of the way to `b` (in sRGB, as a fill-opacity composites)."""
    return _hex(tuple(x + (y - x) * t for x, y in zip(_rgb(a), _rgb(b), strict=True)))


@cache
def themes() -> dict[str, dict[str, str]]:
    """Every theme's colour variables, as site.css defines them: ``light`` from its
    ``:root`` block, each other theme from its ``:root[data-theme="name"]`` block over
    the light values."""
    css = SITE_CSS.read_text(encoding="utf-8")
    found: dict[str, dict[str, str]] = {}
    for block in re.finditer(r':root(?:\[data-theme="([\w-]+)"\])?\s*\{([^}]*)\}', css):
        name = block.group(1) or "light"
        values = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\b", block.group(2)))
        found.setdefault(name, {}).update({k: v.lower() for k, v in values.items()})
    light = found["light"]
    return {name: {**light, **values} for name, values in found.items()}


def text_colour(fill: str, theme: str = "light", minimum: float = 4.5) -> str:
    """A shade of ``fill`` for text and lines in ``theme``: darker on a light theme,
    lighter on a dark one, until it has ``minimum`` contrast on every background it
    meets there (TEXT_GROUNDS and the seat's own goal tint)."""
    return _text_colour(fill.lower(), theme, minimum)


@cache
def _text_colour(fill: str, theme: str, minimum: float) -> str:
    values = themes()[theme]
    grounds = [values[name] for name in TEXT_GROUNDS]
    grounds += [mix(values[name], fill, TINT) for name in ("board-bg", "board-cell")]
    dark = _luminance(_rgb(values["bg"])) < 0.2
    toward = WHITE if dark else "#000000"
    for step in range(101):
        candidate = mix(fill, toward, step / 100)
        if all(contrast(candidate, g) >= minimum for g in grounds):
            return candidate
    return toward


def ink_on(fill: str) -> str:
    """The colour of the letters drawn on ``fill``: our dark ink, else white, else black,
    whichever first reaches 4.5:1 (the best of them if none does)."""
    inks = (INK, WHITE, "#000000")
    return next((i for i in inks if contrast(i, fill) >= 4.5),
                max(inks, key=lambda i: contrast(i, fill)))


def slot_of(fill: str) -> str:
    """The palette slot (palettes.json) of an engine colour: ``red``, ``blue``..."""
    for slot, value in STANDARD.items():
        if value.lower() == fill.lower():
            return slot
    raise ValueError(f"{fill} is not a colour of the standard palette (games/engine/palettes.json)")


@cache
def seat_styles(kind: str) -> tuple[dict[str, Any], ...]:
    """Name, fill colour, text colour, ink and initial of each colour of ``kind`` (a
    seat's, or in Blokus each colour's, with the seat that plays it), in the standard
    palette and the light theme; ``slot`` names its colour in every palette."""
    info = engine.get(kind).info
    seats = info.colour_seats or tuple(range(info.seats))
    return tuple(
        {"name": c.name[:1].upper() + c.name[1:], "colour": c.colour, "text": text_colour(c.colour),
         "ink": ink_on(c.colour), "initial": c.initial, "seat": seats[i], "slot": slot_of(c.colour)}
        for i, c in enumerate(info.colours)
    )


def kind_label(kind: str) -> str:
    """The kind's name as people read it (``engine`` KindInfo.title)."""
    try:
        return engine.get(kind).info.title
    except engine.UnknownKind:
        return kind


def seat_name(kind: str, seat: int) -> str:
    """A seat as people call it: its colour, or its colours ("Blue & Red" in blokus2)."""
    names = [s["name"] for s in seat_styles(kind) if s["seat"] == seat]
    return " & ".join(names) or f"seat {seat}"
