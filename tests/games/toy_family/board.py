"""The toy family's server board (games/boards/: ``spec`` and ``render_svg``)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape


def spec(kind: str) -> dict[str, Any]:
    return {"line": True}


def render_svg(kind: str, spec: dict[str, Any], state: dict[str, Any], *,
               ply: int | None = None, title: str | None = None) -> str:
    pawns = "".join(f'<circle cx="{20 + 40 * p}" cy="{20 + 40 * s}" r="14"/>'
                    for s, p in enumerate(state["pawns"]))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {40 * spec["cols"]} 80">'
            f"<title>{escape(title or spec['title'])}</title>{pawns}</svg>")
