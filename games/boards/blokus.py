"""The blokus family's board (blokus, blokus2, blokus_duo): spec and SVG.

`spec(kind)` adds what the page's `static/js/boards/blokus.js` needs to the common spec:
the layout constants (shared with `render_svg`, so a shared image and the live board
match), the 21 pieces with every fixed orientation *in the engine's order* (the notation
"L5/0@a0" indexes them, so the page never recomputes the order), each colour's start
square and the scoring bonuses.

Squares of one colour that share an edge always belong to one piece (a colour never
touches itself edge to edge), so a piece is drawn as one shape: its squares filled,
an outline only where a square meets a square that is not of its colour. Every square
carries its colour's initial, so colour is never the only cue.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.boards.colours import INK, seat_styles
from games.boards.svg import axis_labels, opening
from games.engine.blokus import pieces

CELL = 30  # one square, in SVG user units
MARGIN = 22  # room for the coordinate labels around the board
GAP = 1  # the gap between empty squares' tiles
BOARD_BG = "#e2e8f0"  # the grid lines between empty squares
EMPTY = "#f8fafc"
LABEL = "#475569"  # >= 4.5:1 on the page background


def _cells(shape: tuple[tuple[int, int], ...]) -> list[list[int]]:
    return [[r, c] for r, c in shape]


def spec(kind: str) -> dict[str, Any]:
    """What a renderer needs beyond the common spec to draw a `kind` board."""
    rules: Any = engine.get(kind)  # a blokus family's rules: it has a geometry
    geo = rules.geo
    return {
        "words": {
            "notation_help": "A move is piece/orientation@anchor: L5/0@a0 puts L5 as drawn "
                             "with its box's top-left on a0 (cells are named as on the rules "
                             "page and the board's edges, letter then number).",
            "notation_placeholder": "Type a move: L5/0@a0",
        },
        "initial_ink": [c["ink"] for c in seat_styles(kind)],  # colours.ink_on
        "layout": {"cell": CELL, "margin": MARGIN, "gap": GAP, "ink": INK,
                   "empty": EMPTY, "grid": BOARD_BG, "label": LABEL},
        "size": geo.size,
        "starts": [list(s) for s in geo.starts],
        "start_word": rules.start_word,
        "colour_seats": list(rules.colour_seats),
        "pieces": [
            {"name": name, "size": pieces.SIZES[i], "cells": _cells(pieces.SHAPES[i]),
             "orientations": [_cells(o) for o in pieces.ORIENTATIONS[i]]}
            for i, name in enumerate(pieces.NAMES)
        ],
        "bonus": {"all_placed": pieces.ALL_PLACED_BONUS, "i1_last": pieces.I1_LAST_BONUS},
        "total_squares": pieces.TOTAL_SQUARES,
    }


def cell_name(r: int, c: int) -> str:
    return f"{chr(ord('a') + c)}{r}"


def colour_score(spec: dict[str, Any], state: dict[str, Any], colour: int) -> int:
    """A colour's score: -1 per square in hand; +15 with all placed, +5 if I1 went last."""
    sizes = {p["name"]: p["size"] for p in spec["pieces"]}
    hand = state["hands"][colour]
    if hand:
        return -sum(sizes[name] for name in hand)
    bonus = spec["bonus"]
    return bonus["all_placed"] + (bonus["i1_last"] if state["last_piece"][colour] == "I1" else 0)


def _edges(board: list[list[Any]], n: int) -> dict[int, list[str]]:
    """Per colour, the path segments of its pieces' outlines (where a neighbour differs)."""
    out: dict[int, list[str]] = {}
    for r in range(n):
        for c in range(n):
            colour = board[r][c]
            if colour is None:
                continue
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            segs = out.setdefault(colour, [])

            def other(rr: int, cc: int, colour: int = colour) -> bool:
                return not (0 <= rr < n and 0 <= cc < n) or board[rr][cc] != colour

            if other(r - 1, c):
                segs.append(f"M{x} {y}h{CELL}")
            if other(r + 1, c):
                segs.append(f"M{x} {y + CELL}h{CELL}")
            if other(r, c - 1):
                segs.append(f"M{x} {y}v{CELL}")
            if other(r, c + 1):
                segs.append(f"M{x + CELL} {y}v{CELL}")
    return out


def render_svg(kind: str, spec: dict[str, Any], state: dict[str, Any], *,
               ply: int | None = None, title: str | None = None) -> str:
    """A standalone SVG of a Blokus position (no rotation: row 0 at the top)."""
    n = spec["size"]
    colours = spec["colours"]
    size = n * CELL + 2 * MARGIN
    board: list[list[Any]] = state["board"]
    font = 'font-family="system-ui, sans-serif"'
    out = [*opening(kind, spec, size, size, ply=ply, title=title, background="#f1f5f9",
                    css="board blokus"),
           f'<rect x="{MARGIN}" y="{MARGIN}" width="{n * CELL}" height="{n * CELL}" '
           f'fill="{BOARD_BG}"/>']
    out += axis_labels(n, n, cell=CELL, margin=MARGIN, top=7, left=5, size=11, fill=LABEL,
                       attrs=f" {font}")
    for r in range(n):
        for c in range(n):
            if board[r][c] is None:
                out.append(
                    f'<rect class="empty" x="{MARGIN + c * CELL + GAP}" '
                    f'y="{MARGIN + r * CELL + GAP}" '
                    f'width="{CELL - 2 * GAP}" height="{CELL - 2 * GAP}" rx="2" fill="{EMPTY}"/>')
    for index, (r, c) in enumerate(spec["starts"]):
        if board[r][c] is not None:
            continue
        colour = colours[index]
        cx, cy = MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2
        label = _("%(name)s starts on %(cell)s") % {"name": colour["name"],
                                                    "cell": cell_name(r, c)}
        out.append(
            f'<g class="start" data-colour="{index}" data-row="{r}" data-col="{c}">'
            f"<title>{escape(label)}</title>"
            f'<circle cx="{cx}" cy="{cy}" r="{CELL / 2 - 4}" fill="{colour["colour"]}" '
            f'fill-opacity="0.22" stroke="{colour["text"]}" stroke-width="2" '
            f'stroke-dasharray="4 3"/>'
            f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" font-size="11" font-weight="700" '
            f'fill="{colour["text"]}" {font}>{escape(colour["initial"])}</text></g>')
    for r in range(n):
        for c in range(n):
            index = board[r][c]
            if index is None:
                continue
            colour = colours[index]
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            out.append(
                f'<g class="square" data-row="{r}" data-col="{c}" data-colour="{index}">'
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{colour["colour"]}"/>'
                f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="3" '
                f'fill="#ffffff" fill-opacity="0.18"/>'
                f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 4}" text-anchor="middle" '
                f'font-size="11" font-weight="700" fill="{spec["initial_ink"][index]}" {font}>'
                f"{escape(colour['initial'])}</text></g>")
    for index, segs in sorted(_edges(board, n).items()):
        out.append(f'<path class="outline" data-colour="{index}" d="{"".join(segs)}" '
                   f'stroke="{colours[index]["text"]}" stroke-width="2" fill="none" '
                   f'stroke-linecap="square"/>')
    out.append("</svg>")
    return "\n".join(out)


PIECE_CELL = 14  # one square of a rules-page piece drawing, in SVG user units


def piece_figures(kind: str) -> list[dict[str, str]]:
    """Every piece as a small SVG from the engine's own shapes (orientation 0, as the
    notation's `/0`), for the rules page: `[{"name", "svg"}]` in canonical order."""
    fill = seat_styles(kind)[0]["colour"]
    out = []
    for name, shape in zip(pieces.NAMES, pieces.SHAPES, strict=True):
        rows = 1 + max(r for r, _ in shape)
        cols = 1 + max(c for _, c in shape)
        w, h = cols * PIECE_CELL + 2, rows * PIECE_CELL + 2
        label = ngettext("%(name)s: %(count)s square", "%(name)s: %(count)s squares",
                         len(shape)) % {"name": name, "count": len(shape)}
        squares = "".join(
            f'<rect x="{1 + c * PIECE_CELL}" y="{1 + r * PIECE_CELL}" width="{PIECE_CELL}" '
            f'height="{PIECE_CELL}" fill="{fill}" stroke="{INK}" stroke-width="1"/>'
            for r, c in shape)
        out.append({"name": name, "svg": (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
            f'height="{h}" role="img" class="piece" data-piece="{name}" '
            f'data-squares="{len(shape)}"><title>{escape(label)}</title>{squares}</svg>')})
    return out
