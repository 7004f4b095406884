"""The blockade family's board (blockade, blockade_run): spec and SVG.

`spec(kind)` adds what a blockade board needs to the common spec: the layout constants
(`CELL`, `MARGIN`, inset, pawn radius, mark size, ink) that
`static/js/boards/blockade-board.js` draws with too, so a shared image and the live
board match; for `blockade_run` also each seat's start cell and goal row (`starts`,
`goal_rows`, by seat). The common `seats` are left as they are.

`render_svg` draws a position with row 0 at the top and the notation's coordinate labels
(columns a.., rows 0..): Blockade's placed cells as tinted squares in the seat's colour
with its symbol (X / O) on them, the most recent placement ringed; Blockade Run's goal
rows tinted in their seat's colour and marked with its initial, blocked cells as dark
blocks, the pawns as circles with their seat's initial, the pawn that ran last ringed.
Cells are `<rect class="cell" data-row data-col>`; marks `<g class="mark" data-seat
data-row data-col>`, blocks `<rect class="block" data-row data-col>`, pawns `<g
class="pawn" data-seat data-row data-col>`; the last move's mark or pawn adds
`data-last="true"` and a `last-ring` around its cell.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _

from games import engine
from games.boards.colours import INK
from games.boards.svg import axis_labels, opening

CELL = 64  # one cell, in SVG user units
MARGIN = 26  # room for the coordinate labels around the board
INSET = 3  # gap between a cell's tile and its neighbours
PAWN_R = 21  # pawn radius
MARK_FONT = 30  # the X / O symbol on a placed cell
LABEL_FONT = 13
LABEL_INK = "#475569"  # 7.6:1 on the board's background
BLOCK = "#334155"  # a blocked cell
BLOCK_EDGE = "#0f172a"
ACCENT = "#4338ca"  # the last move's ring (as the barrier board's highlight)
BACKGROUND = "#f1f5f9"
GRID = "#cbd5e1"
GOAL_OPACITY = 0.22
MARK_OPACITY = 0.38


def spec(kind: str) -> dict[str, Any]:
    """What a renderer needs beyond the common spec to draw a `kind` board."""
    info = engine.get(kind).info
    out: dict[str, Any] = {
        "layout": {
            "cell": CELL, "margin": MARGIN, "inset": INSET, "pawn": PAWN_R,
            "mark_font": MARK_FONT, "label_font": LABEL_FONT, "label_ink": LABEL_INK,
            "ink": INK, "block": BLOCK, "block_edge": BLOCK_EDGE, "accent": ACCENT,
            "background": BACKGROUND, "grid": GRID, "goal_opacity": GOAL_OPACITY,
            "mark_opacity": MARK_OPACITY,
        },
    }
    out["words"] = {  # cells "as on the rules page and the board's edges": every rotation
        "notation_help": "Cells are named as on the rules page and the board's edges, "
                         "letter then number: "
                         "c2 places your mark on c2.",
        "notation_placeholder": "Type a move: c2",
    }
    if kind == "blockade_run":
        out["words"] = {
            "notation_help": "Cells are named as on the rules page and the board's edges, "
                         "letter then number: "
                             "c1^d3 steps to c1 and blocks d3; a winning step is just its "
                             "cell (c4).",
            "notation_placeholder": "Type a move: c1^d3",
        }
        initial = engine.get(kind).initial().to_json()
        out["starts"] = [list(p) for p in initial["pawns"]]
        # A seat wins on entering the row on the far side from its start.
        out["goal_rows"] = [info.rows - 1 if p[0] == 0 else 0 for p in initial["pawns"]]
    return out


def cell_name(r: int, c: int) -> str:
    return f"{chr(ord('a') + c)}{r}"


def _origin(r: int, c: int) -> tuple[float, float]:
    return MARGIN + c * CELL, MARGIN + r * CELL


def render_svg(kind: str, spec: dict[str, Any], state: dict[str, Any], *,
               ply: int | None = None, title: str | None = None) -> str:
    """A standalone SVG of a blockade-family position (no rotation: row 0 at the top)."""
    rows, cols, seats = spec["rows"], spec["cols"], spec["seats"]
    width, height = cols * CELL + 2 * MARGIN, rows * CELL + 2 * MARGIN
    last = state.get("last") or None
    last_at = tuple(last["at"]) if last else None
    out = opening(kind, spec, width, height, ply=ply, title=title, background=BACKGROUND)
    out += axis_labels(rows, cols, cell=CELL, margin=MARGIN, top=8, left=8, size=LABEL_FONT,
                       fill=LABEL_INK)
    goals: dict[int, int] = {}
    if kind == "blockade_run":
        goals = {row: seat for seat, row in enumerate(spec["goal_rows"])}
    for r in range(rows):
        for c in range(cols):
            x, y = _origin(r, c)
            goal = goals.get(r)
            fill = "#ffffff" if goal is None else seats[goal]["colour"]
            opacity = "" if goal is None else f' fill-opacity="{GOAL_OPACITY}"'
            extra = "" if goal is None else f' data-goal="{goal}"'
            out.append(
                f'<rect class="cell" data-row="{r}" data-col="{c}"{extra} '
                f'x="{x + INSET}" y="{y + INSET}" width="{CELL - 2 * INSET}" '
                f'height="{CELL - 2 * INSET}" rx="6" fill="{fill}"{opacity} stroke="{GRID}"/>'
            )
            if goal is not None:  # whose goal, in a letter too (as blockade-board.js)
                out.append(
                    f'<text class="zone-mark" x="{x + INSET + 5}" y="{y + INSET + 15}" '
                    f'font-size="13" font-weight="700" fill="{seats[goal]["text"]}" '
                    f'aria-hidden="true">{escape(seats[goal]["initial"])}</text>')
    if kind == "blockade":
        out.extend(_marks(spec, state, last_at))
    else:
        out.extend(_run_pieces(spec, state, last_at))
    out.append("</svg>")
    return "\n".join(out)


def _ring(r: int, c: int) -> str:
    x, y = _origin(r, c)
    return (f'<rect class="last-ring" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" '
            f'height="{CELL - 2}" rx="8" fill="none" stroke="{ACCENT}" stroke-width="3"/>')


def _marks(spec: dict[str, Any], state: dict[str, Any],
           last_at: tuple[int, ...] | None) -> list[str]:
    """Blockade: each placed cell, a tinted square with its seat's symbol."""
    out: list[str] = []
    seats = spec["seats"]
    for r, row in enumerate(state.get("board", [])):
        for c, owner in enumerate(row):
            if owner is None:
                continue
            seat = seats[owner]
            x, y = _origin(r, c)
            is_last = last_at == (r, c)
            label = _("%(name)s on %(cell)s") % {"name": seat["name"], "cell": cell_name(r, c)}
            out.append(
                f'<g class="mark" data-seat="{owner}" data-row="{r}" data-col="{c}"'
                + (' data-last="true"' if is_last else "") + ">"
                f"<title>{escape(label)}</title>"
                f'<rect x="{x + INSET}" y="{y + INSET}" width="{CELL - 2 * INSET}" '
                f'height="{CELL - 2 * INSET}" rx="6" fill="{seat["colour"]}" '
                f'fill-opacity="{MARK_OPACITY}" stroke="{seat["text"]}" stroke-width="1.5"/>'
                f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + MARK_FONT * 0.36}" '
                f'text-anchor="middle" font-size="{MARK_FONT}" font-weight="700" fill="{INK}" '
                f'font-family="system-ui, sans-serif">{escape(seat["initial"])}</text></g>'
            )
            if is_last:
                out.append(_ring(r, c))
    return out


def _run_pieces(spec: dict[str, Any], state: dict[str, Any],
                last_at: tuple[int, ...] | None) -> list[str]:
    """Blockade Run: the blocked cells, then the pawns."""
    out: list[str] = []
    for r, c in state.get("blocks", []):
        x, y = _origin(r, c)
        out.append(
            f'<rect class="block" data-row="{r}" data-col="{c}" x="{x + INSET}" '
            f'y="{y + INSET}" width="{CELL - 2 * INSET}" height="{CELL - 2 * INSET}" rx="6" '
            f'fill="{BLOCK}" stroke="{BLOCK_EDGE}" stroke-width="1.5">'
            f"<title>{escape(_('%(cell)s blocked') % {'cell': cell_name(r, c)})}</title>"
            "</rect>"
        )
    seats = spec["seats"]
    for index, pawn in enumerate(state.get("pawns", [])):
        if pawn is None:
            continue
        r, c = pawn
        seat = seats[index]
        x, y = _origin(r, c)
        cx, cy = x + CELL / 2, y + CELL / 2
        is_last = last_at == (r, c)
        if is_last:
            out.append(_ring(r, c))
        label = _("%(name)s pawn on %(cell)s") % {"name": seat["name"],
                                                  "cell": cell_name(r, c)}
        out.append(
            f'<g class="pawn" data-seat="{index}" data-row="{r}" data-col="{c}"'
            + (' data-last="true"' if is_last else "") + ">"
            f"<title>{escape(label)}</title>"
            f'<circle cx="{cx}" cy="{cy}" r="{PAWN_R}" fill="{seat["colour"]}" '
            f'stroke="{INK}" stroke-width="2"/>'
            f'<text x="{cx}" y="{cy + 7}" text-anchor="middle" font-size="20" '
            f'font-weight="700" fill="{seat["ink"]}" font-family="system-ui, sans-serif">'
            f"{escape(seat['initial'])}</text></g>"
        )
    return out
