"""`{% seat_palette_css %}`: the seat palettes' CSS variables (games/boards/palettes.py),
written into every page's <head> by base.html, so a palette or theme switch needs no
stylesheet of its own and applies before the first paint."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.boards.palettes import palette_css

register = template.Library()


@register.simple_tag
def seat_palette_css() -> SafeString:
    # Built from our own files only (palettes.json, site.css): no user input in it.
    return mark_safe(palette_css())
