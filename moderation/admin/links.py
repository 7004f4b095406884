"""What moderators see of a target: a link to it and, for games, the board as SVG."""

from __future__ import annotations

from django.db.models import Model
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.drawings import render_svg
from games.models import Game


def board(game: Game | None) -> SafeString:
    """The game's board at its current ply (server-drawn SVG, no user text in it)."""
    if game is None:
        return mark_safe("")
    svg = render_svg(game.kind, game.state, ply=game.ply)
    return format_html('<div class="moderation-board">{}</div>',  # static/css/admin.css
                       mark_safe(svg))  # our own renderer's output, no user text


def admin_link(obj: Model | None, label: str | None = None) -> SafeString:
    if obj is None:
        return mark_safe("—")
    opts = obj._meta
    try:
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    except NoReverseMatch:
        return format_html("{}", label or str(obj))
    return format_html('<a href="{}">{}</a>', url, label or str(obj))


def links(pairs: list[tuple[str, str]]) -> SafeString:
    return format_html_join(" · ", '<a href="{}">{}</a>', pairs)
