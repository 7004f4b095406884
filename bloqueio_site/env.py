"""Strict environment parsing: a bad value stops the process with a clear message.

Settings read every knob through these helpers so that a typo in production fails at
start-up instead of silently falling back to a default.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}

N = TypeVar("N", int, float)


def env_str(name: str, default: str = "", env: Mapping[str, str] | None = None) -> str:
    """The variable's value, or `default` when it is unset or empty."""
    value = (env if env is not None else os.environ).get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool, env: Mapping[str, str] | None = None) -> bool:
    raw = env_str(name, env=env).strip().lower()
    if raw == "":
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true/false)")


def _number(name: str, default: N, env: Mapping[str, str] | None,
            parse: Callable[[str], N], what: str) -> tuple[str, N]:
    """The variable as written ("" when unset or empty) and its value (`default` then)."""
    raw = env_str(name, env=env).strip()
    if raw == "":
        return raw, default
    try:
        return raw, parse(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not {what}") from None


def env_int(
    name: str, default: int, env: Mapping[str, str] | None = None, *, minimum: int = 0
) -> int:
    raw, value = _number(name, default, env, int, "an integer")
    if raw and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum {minimum}")
    return value


def env_float(
    name: str, default: float, env: Mapping[str, str] | None = None, *, minimum: float = 0.0
) -> float:
    raw, value = _number(name, default, env, float, "a number")
    if raw and (not value >= minimum or value == float("inf")):  # also refuses nan and inf
        raise ImproperlyConfigured(f"{name}={raw} is not a number from {minimum} up")
    return value


def env_list(name: str, default: list[str], env: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    raw = env_str(name, env=env)
    if raw == "":
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(
    name: str, choices: tuple[str, ...], default: str, env: Mapping[str, str] | None = None
) -> str:
    value = env_str(name, default, env=env).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(choices)}")
    return value
