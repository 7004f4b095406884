"""`{% seat_palettes_href %}`: the URL of the seat palettes' stylesheet (the CSS
variables of games/boards/palettes.py, served by `bloqueio_site.views.seat_palettes`),
versioned by its content. base.html links it in every page's <head>, so a palette or
theme switch needs no stylesheet of its own and applies before the first paint; a
stylesheet rather than an inline <style>, which the Content-Security-Policy refuses."""

from __future__ import annotations

import hashlib
from functools import cache

from django import template
from django.urls import reverse

from games.boards.palettes import palette_css

register = template.Library()


@register.simple_tag
@cache
def seat_palettes_href() -> str:
    version = hashlib.sha256(palette_css().encode()).hexdigest()[:12]
    return f"{reverse('seat-palettes')}?v={version}"
