"""What every family's board drawing starts with: the <svg> element (its size, and the
kind and ply as data), its <title> in the reader's words, and the rounded background."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from django.utils.translation import gettext as _


def opening(kind: str, spec: dict[str, Any], width: float, height: float, *,
            ply: int | None, title: str | None, background: str,
            css: str = "board") -> list[str]:
    """The first lines of a board's SVG; `title` replaces "<Kind> position"."""
    default_title = _("%(kind)s position") % {"kind": spec["title"]}
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" class="{css}" '
        f"data-kind={quoteattr(kind)}"
        + (f' data-ply="{int(ply)}"' if ply is not None else "") + ">",
        f"<title>{escape(title or default_title)}</title>",
        f'<rect width="{width}" height="{height}" rx="12" fill="{background}"/>',
    ]


def axis_labels(rows: int, cols: int, *, cell: float, margin: float, top: float, left: float,
                size: int, fill: str, attrs: str = "") -> list[str]:
    """The column letters above the board and the row numbers left of it, `top` and
    `left` user units off its edge (`data-edge` says which, as the pages' boards do);
    `attrs` adds attributes to every label."""
    out = []
    for c in range(cols):
        x = margin + c * cell + cell / 2
        out.append(f'<text x="{x}" y="{margin - top}" class="label" data-edge="top" '
                   f'text-anchor="middle" font-size="{size}" fill="{fill}"{attrs}>'
                   f'{chr(ord("a") + c)}</text>')
    for r in range(rows):
        y = margin + r * cell + cell / 2
        out.append(f'<text x="{margin - left}" y="{y + 4}" class="label" data-edge="left" '
                   f'text-anchor="end" font-size="{size}" fill="{fill}"{attrs}>{r}</text>')
    return out
