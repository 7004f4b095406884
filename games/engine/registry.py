"""The registered game families and their kinds, merged in a stable order.

A family subpackage exports ``FAMILY`` (``family.Family``: its rules per kind and what
the platform needs besides); adding a family is one import and one entry in
``_BUILT_IN``. ``register`` and ``unregister`` add one at run time (a plug-in, or a
test's toy family); ``KINDS`` is read on each access, so it always lists the kinds
registered now.
"""

from __future__ import annotations

from .barrier import FAMILY as BARRIER
from .blockade import FAMILY as BLOCKADE
from .blokus import FAMILY as BLOKUS
from .errors import UnknownKind
from .family import Family
from .protocol import Rules

_BUILT_IN: tuple[Family, ...] = (BARRIER, BLOCKADE, BLOKUS)

_FAMILIES: dict[str, Family] = {}
_RULES: dict[str, Rules] = {}


def register(family: Family) -> None:
    """Add ``family`` and its kinds; a family or kind name already taken is an error."""
    if family.name in _FAMILIES:
        raise ValueError(f"the {family.name!r} family is already registered")
    taken = sorted(set(family.rules) & set(_RULES))
    if taken:
        raise ValueError(f"kinds already registered: {', '.join(taken)}")
    for kind, rules in family.rules.items():
        if rules.info.family != family.name:
            raise ValueError(f"{kind!r} says its family is {rules.info.family!r}")
    _FAMILIES[family.name] = family
    _RULES.update(family.rules)


def unregister(name: str) -> None:
    """Remove the family ``name`` and its kinds (a test's toy family, after the test)."""
    family = _FAMILIES.pop(name)
    for kind in family.rules:
        del _RULES[kind]


for _family in _BUILT_IN:
    register(_family)


def kinds() -> tuple[str, ...]:
    """Every registered kind, families in registration order, kinds in their order."""
    return tuple(_RULES)


def __getattr__(name: str) -> tuple[str, ...]:
    if name == "KINDS":  # read on each access: a family registered later is listed
        return kinds()
    raise AttributeError(name)


def get(kind: str) -> Rules:
    """The rules of ``kind``; raises ``UnknownKind``."""
    try:
        return _RULES[kind]
    except (KeyError, TypeError):
        raise UnknownKind(f"unknown game kind {kind!r}") from None


def family(name: str) -> Family:
    """The registration of the family ``name`` (``rules.info.family``); ``KeyError``."""
    return _FAMILIES[name]


def family_of(kind: str) -> Family:
    """The registration of ``kind``'s family; raises ``UnknownKind``."""
    return _FAMILIES[get(kind).info.family]
