"""Boards drawn as SVG in the reader's language: games.boards draws, games.texts names.

texts is built on boards (page specs, seat styles), so boards cannot ask texts for its
words; this module, above both, hands the drawing a spec whose title and colour names are
in the active language (the `<title>`s of /games/{id}/board.svg and the rules pages'
figures)."""

from __future__ import annotations

from typing import Any

from games import boards, texts


def in_words(spec: dict[str, Any]) -> dict[str, Any]:
    """`spec` with its title and colour names in the active language (a copy: the
    cached spec stays English)."""

    def named(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**e, "name": texts.colour(e["name"])} for e in entries]
    return {**spec, "title": texts.words(spec["title"]), "seats": named(spec["seats"]),
            "colours": named(spec["colours"])}


def render_svg(kind: str, state: dict[str, Any], *, ply: int | None = None,
               title: str | None = None) -> str:
    """`boards.render_svg` in the reader's words."""
    return boards.render_svg(kind, state, ply=ply, title=title, words=in_words)


def rules_figures(kind: str) -> dict[str, Any]:
    """`boards.rules_figures` in the reader's words."""
    return boards.rules_figures(kind, words=in_words)
