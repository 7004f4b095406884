"""The registered game kinds: every family's ``RULES`` mapping, merged in a stable order.

A family subpackage exports ``RULES: dict[str, Rules]`` (its kinds, in their order);
adding a family is one import and one entry in ``_FAMILIES``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .barrier import RULES as BARRIER_RULES
from .blockade import RULES as BLOCKADE_RULES
from .blokus import RULES as BLOKUS_RULES
from .errors import UnknownKind
from .protocol import Rules

_FAMILIES: tuple[Mapping[str, Rules], ...] = (BARRIER_RULES, BLOCKADE_RULES, BLOKUS_RULES)

_RULES: dict[str, Rules] = {kind: rules for family in _FAMILIES for kind, rules in family.items()}

KINDS: tuple[str, ...] = tuple(_RULES)


def get(kind: str) -> Rules:
    """The rules of ``kind``; raises ``UnknownKind``."""
    try:
        return _RULES[kind]
    except (KeyError, TypeError):
        raise UnknownKind(f"unknown game kind {kind!r}") from None
