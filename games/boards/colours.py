"""Seat colours as the pages and SVGs show them: the engine's colour for fills, and a
darker shade of it for text, computed to meet WCAG AA (4.5:1) on white."""

from __future__ import annotations

from functools import cache
from typing import Any

from games import engine

INK = "#0f172a"  # initials on pieces; `ink_on` falls back to black where it is too weak
WHITE = (255, 255, 255)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


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


# Hand-picked text shades of the colours the engine uses (Tailwind's 700s), all >= 4.5:1
# on white; any other colour gets a computed one.
_TEXT = {
    "#ef4444": "#b91c1c", "#3b82f6": "#1d4ed8", "#22c55e": "#15803d",
    "#f59e0b": "#b45309", "#8b5cf6": "#6d28d9", "#f97316": "#c2410c",
}


@cache
def text_colour(fill: str, minimum: float = 4.5) -> str:
    """A shade of ``fill`` for text on white with at least ``minimum`` contrast."""
    known = _TEXT.get(fill.lower())
    if known is not None and contrast(known, "#ffffff") >= minimum:
        return known
    r, g, b = _rgb(fill)
    for step in range(101):
        k = 1 - step / 100
        candidate = f"#{round(r * k):02x}{round(g * k):02x}{round(b * k):02x}"
        if contrast(candidate, "#ffffff") >= minimum:
            return candidate
    return INK


@cache
def seat_styles(kind: str) -> tuple[dict[str, Any], ...]:
    """Name, fill colour, accessible text colour and initial of each colour of ``kind``
    (a seat's, or in Blokus each colour's, with the seat that plays it)."""
    info = engine.get(kind).info
    seats = info.colour_seats or tuple(range(info.seats))
    return tuple(
        {"name": c.name[:1].upper() + c.name[1:], "colour": c.colour, "text": text_colour(c.colour),
         "ink": ink_on(c.colour), "initial": c.initial, "seat": seats[i]}
        for i, c in enumerate(info.colours)
    )


def ink_on(fill: str) -> str:
    """The colour for an initial drawn on ``fill``: our dark ink, or black where the ink
    falls short of 4.5:1 (Blokus Duo's purple)."""
    return INK if contrast(INK, fill) >= 4.5 else "#000000"


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
