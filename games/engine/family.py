"""A game family's one registration: everything the platform needs of it, in one value.

A family subpackage (``barrier/``, ``blockade/``, ``blokus/``) ends its ``__init__``
with ``FAMILY = Family(...)`` and the registry lists it; nothing else in the platform
names the family. The parts that live outside the pure engine are named by module path
(the bot's evaluation, the server's board module) or by file name (the page's board
module, the rules-page template), so the engine stays free of Django and of the bots'
search, which import the engine themselves; they are imported when first used, as
Django's settings name their backends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .protocol import Rules


@dataclass(frozen=True, slots=True)
class Family:
    """What a family declares once. ``rules`` are its kinds, in the order they are listed.

    ``bot``: the module of its computer opponents (the ``games.bots.FamilyBot`` interface:
    ``easy``, ``medium``, ``hard``, ``nodes_per_second``, ``explain``), by default
    ``games.engine.<name>.bot``; None: no bot. ``board``: the module of its server board
    (``spec``, ``render_svg``, optionally ``piece_figures``), by default
    ``games.boards.<name>``. ``script``: its page board module,
    ``static/js/boards/<script>.js``, by default ``<name>``. ``rules_page``: its
    rules-page template, with ``{kind}`` for the kind.
    """

    name: str
    rules: Mapping[str, Rules]
    bot: str | None = ""
    board: str = ""
    script: str = ""
    rules_page: str = "rules/{kind}.html"

    def __post_init__(self) -> None:
        # the defaults follow the layout every built-in family has
        defaults = {"bot": f"games.engine.{self.name}.bot",
                    "board": f"games.boards.{self.name}", "script": self.name}
        for field, default in defaults.items():
            if getattr(self, field) == "":
                object.__setattr__(self, field, default)

    def rules_template(self, kind: str) -> str:
        """The template of ``kind``'s rules page."""
        return self.rules_page.format(kind=kind)
