"""The barrier family's board (bloqueio, bloqueio2, quoridor, quoridor4): spec and SVG.

`spec(kind)` adds what a barrier board needs to the common spec: which cells are
playable / a seat's goal zone / unusable corners, the barrier anchor range and barriers
per seat, and per seat its start and goal line. The page embeds the spec as JSON and
`static/js/boards/barrier.js` draws with the same layout constants (`CELL`, `MARGIN`,
wall and pawn sizes) as `render_svg` here, so a shared image and the live board match.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _

from games import engine
from games.boards.colours import INK, seat_styles
from games.boards.svg import axis_labels, opening

CELL = 40  # one cell, in SVG user units
MARGIN = 22  # room for the coordinate labels around the board
INSET = 2.5  # gap between a cell's tile and its grid lines
WALL = 7  # barrier thickness
PAWN_R = 14  # pawn radius

ZONE_INNER = "in"
ZONE_CORNER = "x"


def spec(kind: str) -> dict[str, Any]:
    """What a renderer needs beyond the common spec to draw a `kind` board."""
    rules: Any = engine.get(kind)  # a barrier family's rules: it has a geometry
    geometry = rules.geometry
    grid, lo, hi = geometry.grid, geometry.offset, geometry.offset + geometry.side - 1
    zones: list[list[Any]] = [[ZONE_INNER] * grid for _ in range(grid)]
    seats = []
    for index, (spec, style) in enumerate(zip(geometry.seats, seat_styles(kind), strict=True)):
        seats.append({
            **style, "seat": index, "start": list(spec.start),
            "goal": {"axis": spec.axis, "line": spec.line},
        })
        if grid > geometry.side:  # Bloqueio: the border rows/cols are goal zones
            for k in range(lo, hi + 1):
                r, c = (spec.line, k) if spec.axis == 0 else (k, spec.line)
                zones[r][c] = index
    for r in range(grid):
        for c in range(grid):
            if not (lo <= r <= hi or lo <= c <= hi):
                zones[r][c] = ZONE_CORNER
            elif zones[r][c] == ZONE_INNER and not (lo <= r <= hi and lo <= c <= hi):
                zones[r][c] = ZONE_CORNER  # a border cell that is nobody's goal
    return {
        "words": words(grid > geometry.side),
        "grid": grid, "anchor": [geometry.anchor_lo, geometry.anchor_hi],
        "barriers_each": rules.barriers_each, "seats": seats, "zones": zones,
        "layout": {"cell": CELL, "margin": MARGIN, "inset": INSET, "wall": WALL,
                   "pawn": PAWN_R, "ink": INK},
    }


def words(zones_on_board: bool) -> dict[str, str]:
    """The family's words for a board: Bloqueio (goal zones on the board, cells marked
    with a seat's initial) places barriers; Quoridor (goal bands outside) places walls.
    `notation_help` names cells "as on the rules page and the board's edges", true on
    every rotation (the board may be turned to the viewer's seat)."""
    wall = "barrier" if zones_on_board else "wall"
    return {
        "wall": wall, "walls": f"{wall}s",
        "notation_help": "Cells are named as on the rules page and the board's edges, letter "
                         "then number (f2); "
                         f"a {wall} by the earliest letter and lowest number of the four "
                         "cells it touches, then h or v (e3h).",
        "notation_placeholder": "Type a move: f2, e3h",
    }


def cell_name(r: int, c: int) -> str:
    return f"{chr(ord('a') + c)}{r}"


def wall_points(at: list[int], orientation: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two grid points (row, col of line crossings) a barrier runs between."""
    r, c = at
    if orientation == "H":
        return (r + 1, c), (r + 1, c + 2)
    return (r, c + 1), (r + 2, c + 1)


def render_svg(kind: str, spec: dict[str, Any], state: dict[str, Any], *,
               ply: int | None = None, title: str | None = None) -> str:
    """A standalone SVG of a barrier-game position (no rotation: row 0 at the top)."""
    grid, seats = spec["grid"], spec["seats"]
    size = grid * CELL + 2 * MARGIN
    out = opening(kind, spec, size, size, ply=ply, title=title, background="#f1f5f9")
    out += axis_labels(grid, grid, cell=CELL, margin=MARGIN, top=7, left=6, size=11,
                       fill="#475569")
    for r in range(grid):
        for c in range(grid):
            zone = spec["zones"][r][c]
            if zone == ZONE_CORNER:
                continue
            fill = "#ffffff" if zone == ZONE_INNER else seats[zone]["colour"]
            opacity = "" if zone == ZONE_INNER else ' fill-opacity="0.28"'
            out.append(
                f'<rect class="cell" data-row="{r}" data-col="{c}" '
                f'x="{MARGIN + c * CELL + INSET}" y="{MARGIN + r * CELL + INSET}" '
                f'width="{CELL - 2 * INSET}" height="{CELL - 2 * INSET}" rx="5" '
                f'fill="{fill}"{opacity} stroke="#cbd5e1"/>'
            )
            if zone != ZONE_INNER:  # whose zone, in a letter too (as barrier-board.js)
                out.append(
                    f'<text class="zone-mark" x="{MARGIN + c * CELL + CELL / 2}" '
                    f'y="{MARGIN + r * CELL + CELL / 2 + 4}" text-anchor="middle" '
                    f'font-size="11" fill="{seats[zone]["text"]}" aria-hidden="true">'
                    f'{escape(seats[zone]["initial"])}</text>')
    if grid == 9:  # Quoridor: goal rows/columns are marked by a coloured band outside
        for seat in seats:
            out.append(_goal_band(seat, grid))
    for barrier in state.get("barriers", []):
        out.append(_wall(barrier, seats))
    for index, pawn in enumerate(state.get("pawns", [])):
        if pawn is None:
            continue
        r, c = pawn
        seat = seats[index]
        cx, cy = MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2
        label = _("%(name)s pawn on %(cell)s") % {"name": seat["name"],
                                                  "cell": cell_name(r, c)}
        out.append(
            f'<g class="pawn" data-seat="{index}" data-row="{r}" data-col="{c}">'
            f"<title>{escape(label)}</title>"
            f'<circle cx="{cx}" cy="{cy}" r="{PAWN_R}" fill="{seat["colour"]}" '
            f'stroke="{INK}" stroke-width="2"/>'
            f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="15" '
            f'font-weight="700" fill="{seat["ink"]}" font-family="system-ui, sans-serif">'
            f"{seat['initial']}</text></g>"
        )
    out.append("</svg>")
    return "\n".join(out)


def _seat_mark(seat: dict[str, Any], cx: float, cy: float, cls: str) -> str:
    """A seat's letter on a small disc of its colour (as barrier-board.js seatMark)."""
    return (f'<g class="{cls}" aria-hidden="true"><circle cx="{cx}" cy="{cy}" r="7" '
            f'fill="{seat["colour"]}" stroke="{seat["text"]}" stroke-width="1.5"/>'
            f'<text x="{cx}" y="{cy + 3.5}" text-anchor="middle" font-size="10" '
            f'font-weight="800" fill="{seat["ink"]}" font-family="system-ui, sans-serif">'
            f'{escape(seat["initial"])}</text></g>')


def _wall(barrier: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    """A barrier: its line, and with an owner that seat's letter at its middle."""
    (r0, c0), (r1, c1) = wall_points(barrier["at"], barrier["orientation"])
    x1, y1, x2, y2 = MARGIN + c0 * CELL, MARGIN + r0 * CELL, MARGIN + c1 * CELL, MARGIN + r1 * CELL
    where = (f'data-at="{barrier["at"][0]},{barrier["at"][1]}" '
             f'data-orientation="{barrier["orientation"]}" data-seat="{barrier.get("seat", "")}"')
    line = (f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke-width="{WALL}" '
            'stroke-linecap="round"')
    if "seat" not in barrier:
        return f'<line class="wall" {where} {line} stroke="{INK}"/>'
    seat = seats[barrier["seat"]]
    return (f'<g class="wall" {where}><line class="wall-line" {line} stroke="{seat["text"]}"/>'
            + _seat_mark(seat, (x1 + x2) / 2, (y1 + y2) / 2, "wall-mark") + "</g>")


def _goal_band(seat: dict[str, Any], grid: int) -> str:
    axis, line = seat["goal"]["axis"], seat["goal"]["line"]
    thick, far = 5, MARGIN + grid * CELL
    mid = MARGIN + grid // 2 * CELL  # the letter between the two middle labels
    if axis == 0:
        y = MARGIN - thick - 1 if line == 0 else far + 1
        x, w, h = MARGIN, grid * CELL, thick
        cx, cy = mid, y + h / 2
    else:
        x = MARGIN - thick - 1 if line == 0 else far + 1
        y, w, h = MARGIN, thick, grid * CELL
        cx, cy = x + w / 2, mid
    return (f'<rect class="goal" data-seat="{seat["seat"]}" x="{x}" y="{y}" width="{w}" '
            f'height="{h}" rx="2" fill="{seat["colour"]}" stroke="{seat["text"]}" '
            'stroke-width="1"/>'
            + _seat_mark(seat, cx, cy, "goal-mark"))
