"""The limits a public site keeps, in one place: rates per address or account, and caps.

Every limit is a count over a window (`Rate`), read from its own environment variable
at start-up and multiplied by `RATE_LIMIT_SCALE` (default 1): benchmarks whose synthetic
users all come from 127.0.0.1 set the scale high; loopback is not exempt by default.
A `Cooldown` is the other kind: after one hit, none for a while (its time divided by
the scale).

Counting is a fixed window in the cache (Redis in production, so every process shares
one count; the process's memory in the embedded mode, which is one process). A refusal
is `RateLimited`: 429 `rate_limited` with `Retry-After` over HTTP, an error frame (or a
close) on a socket.

If the cache itself is unreachable a limit cannot be counted, and each limit says what
that means (docs/operations.md, "Limits while Redis is down"). By default the request is
refused with `Uncounted`: 503 `unavailable` with `Retry-After`, since a limit that lapses
with Redis is one an attacker can switch off (8 of 8 sign-ups past a limit of 5, 35
log-in attempts past 30 got through with Redis stopped). A limit whose lapse costs load
rather than safety (`fail_open`: new games, whose per-user cap is counted in the
database) lets the request through and logs a warning instead.

The client's address is the one the ASGI server reports: `REMOTE_ADDR` for a request,
`scope["client"]` for a socket. Behind a proxy the server rewrites it from the proxy's
`X-Forwarded-For` only for the proxies `FORWARDED_ALLOW_IPS` names; nothing here reads
that header itself, so a client cannot choose its own address.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bloqueio_site.env import env_float, env_int
from bloqueio_site.errors import ServiceError, Unavailable

log = logging.getLogger(__name__)


def scale(env: Mapping[str, str] | None = None) -> float:
    """`RATE_LIMIT_SCALE`: every limit's count is multiplied by it (at least 1 each)."""
    return env_float("RATE_LIMIT_SCALE", 1.0, env, minimum=0.001)


@dataclass(frozen=True)
class Rate:
    """At most `count` hits per `seconds` for one key (an address, an account)."""

    name: str
    count: int
    seconds: int
    # While the cache is unreachable: let requests through (True) or refuse them (False).
    fail_open: bool = False

    def describe(self) -> str:
        """"5 per hour", "10 per 15 minutes": for a refusal's detail."""
        return _("%(count)s per %(span)s") % {"count": self.count,
                                               "span": _span(self.seconds, article=False)}


def rate(name: str, variable: str, count: int, seconds: int,
         env: Mapping[str, str] | None = None, *, fail_open: bool = False) -> Rate:
    """The rate `name`: `count` per `seconds` unless the environment variable `variable`
    says another count; scaled by RATE_LIMIT_SCALE. `fail_open`: see the module
    docstring."""
    base = env_int(variable, count, env, minimum=1)
    return Rate(name, max(1, math.ceil(base * scale(env))), seconds, fail_open)


def cap(variable: str, count: int, env: Mapping[str, str] | None = None) -> int:
    """A cap (how many at once, not per time): the variable's count, scaled."""
    return max(1, math.ceil(env_int(variable, count, env, minimum=1) * scale(env)))


class RateLimited(ServiceError):
    """Over a limit: retry after `retry_after` seconds."""

    code = "rate_limited"
    status = 429

    def __init__(self, detail: str, retry_after: int, *, code: str | None = None):
        super().__init__(detail, code=code)
        self.retry_after = max(1, int(retry_after))

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "retry_after": self.retry_after}


UNCOUNTED_RETRY_AFTER = 10  # seconds: a Redis restart or a failover takes about this


class Uncounted(Unavailable):
    """A limit that must hold could not be counted (the cache is unreachable): 503
    `unavailable`, retry after `retry_after` seconds."""

    def __init__(self) -> None:
        super().__init__(_("This request is limited per address and the limit cannot be "
                           "counted right now, so it is refused; retry in %(wait)s.") % {
                               "wait": _span(UNCOUNTED_RETRY_AFTER)})
        self.retry_after = UNCOUNTED_RETRY_AFTER

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "retry_after": self.retry_after}


# What a page catches to show a limit's refusal on its form (`status`, `retry_after`).
REFUSALS = (RateLimited, Uncounted)


def hit(limit: Rate, key: str, *, now: float | None = None) -> int | None:
    """Count one hit of `key` against `limit`: None if it is within the limit, else the
    seconds until the window that refused it ends. With the cache unreachable: None for
    a `fail_open` limit, else `Uncounted` is raised."""
    now = time.time() if now is None else now
    window = int(now // limit.seconds)
    cache_key = f"limit:{limit.name}:{key}:{window}"
    try:
        # add() is a no-op when the key exists; incr() is atomic in Redis (INCR).
        cache.add(cache_key, 0, timeout=limit.seconds + 1)
        count = cache.incr(cache_key)
    except ValueError:  # expired between add and incr (locmem): the window is new
        cache.set(cache_key, 1, timeout=limit.seconds + 1)
        count = 1
    except Exception as exc:  # the cache is down: as the limit says, and say so
        log.warning("rate limit %s not counted: the cache is unavailable (%r); %s",
                    limit.name, exc, "let through" if limit.fail_open else "refused")
        if limit.fail_open:
            return None
        raise Uncounted() from None
    if count <= limit.count:
        return None
    return max(1, math.ceil((window + 1) * limit.seconds - now))


def spent(limit: Rate, key: str, *, now: float | None = None) -> int | None:
    """Without counting: the seconds until `limit`'s window for `key` ends when that
    window is used up, else None (for a limit that only failures count: checked before
    the attempt, `hit` after a failed one). The cache unreachable: as `hit`."""
    now = time.time() if now is None else now
    window = int(now // limit.seconds)
    try:
        count = int(cache.get(f"limit:{limit.name}:{key}:{window}") or 0)
    except Exception as exc:
        log.warning("rate limit %s not read: the cache is unavailable (%r); %s",
                    limit.name, exc, "let through" if limit.fail_open else "refused")
        if limit.fail_open:
            return None
        raise Uncounted() from None
    if count < limit.count:
        return None
    return max(1, math.ceil((window + 1) * limit.seconds - now))


def check(limit: Rate, key: str, detail: str, *, code: str | None = None) -> None:
    """Count one hit; raise `RateLimited` (with `detail` and the limit) when over it,
    `Uncounted` when it cannot be counted (unless the limit fails open)."""
    wait = hit(limit, key)
    if wait is not None:
        raise refusal(limit, detail, wait, code=code)


def refusal(limit: Rate, detail: str, wait: int, *, code: str | None = None) -> RateLimited:
    """The `RateLimited` for a hit over `limit`, `wait` seconds before its window ends."""
    return RateLimited(_("%(detail)s (at most %(limit)s); retry in %(wait)s.") % {
        "detail": detail, "limit": limit.describe(), "wait": _wait(wait)}, wait, code=code)


def _wait(seconds: int) -> str:
    """A wait as a person reads it: seconds under two minutes, else whole minutes rounded
    up ("13 minutes", never "737 seconds"); `retry_after` keeps the exact seconds."""
    if seconds < 120:
        return _span(seconds)
    return _span(math.ceil(seconds / 60) * 60)


@dataclass(frozen=True)
class Cooldown:
    """After one hit of a key, no other for `seconds` (the window starts at that hit)."""

    name: str
    seconds: int


def cooldown(name: str, variable: str, seconds: int,
             env: Mapping[str, str] | None = None) -> Cooldown:
    """The cool-down `name`: `seconds` unless the environment variable `variable` says
    otherwise; divided by RATE_LIMIT_SCALE, as a rate of one per `seconds` would be."""
    base = env_int(variable, seconds, env, minimum=1)
    return Cooldown(name, max(1, math.ceil(base / scale(env))))


def check_cooldown(limit: Cooldown, key: str, detail: str, *, code: str | None = None,
                   now: float | None = None) -> None:
    """Start `limit`'s cool-down for `key`, or raise `RateLimited` (with `detail`) while
    the one an earlier hit started runs. The cache is unreachable: let it through (as
    `hit`)."""
    now = time.time() if now is None else now
    cache_key = f"limit:{limit.name}:{key}"
    try:
        # add() stores only when no cool-down runs (SET NX): two racing hits, one wins.
        if cache.add(cache_key, now, timeout=limit.seconds):
            return
        started = cache.get(cache_key)
        if started is None:  # it ended between add and get: this hit starts the next
            cache.set(cache_key, now, timeout=limit.seconds)
            return
    except Exception as exc:
        log.warning("cool-down %s not kept: the cache is unavailable (%r)", limit.name, exc)
        return
    wait = max(1, math.ceil(float(started) + limit.seconds - now))
    raise RateLimited(_("%(detail)s; retry in %(wait)s.") % {"detail": detail,
                                                              "wait": _span(wait)},
                      wait, code=code)


def address_of(request: Any) -> str:
    """The client's address as the ASGI server reported it (see the module docstring)."""
    meta = getattr(request, "META", None)
    if meta is not None:
        return str(meta.get("REMOTE_ADDR") or "unknown")
    client = request.get("client") if isinstance(request, dict) else None
    return str(client[0]) if client else "unknown"


def _span(seconds: int, *, article: bool = True) -> str:
    """"an hour", "15 minutes", "2 seconds" (without `article`: "hour", "15 minutes")."""
    if seconds % 3600 == 0 and seconds >= 3600:
        n = seconds // 3600
        text = (ngettext("an hour", "%(count)s hours", n) if article
                else ngettext("hour", "%(count)s hours", n))
    elif seconds % 60 == 0 and seconds >= 60:
        n = seconds // 60
        text = (ngettext("a minute", "%(count)s minutes", n) if article
                else ngettext("minute", "%(count)s minutes", n))
    else:
        n = seconds
        text = (ngettext("a second", "%(count)s seconds", n) if article
                else ngettext("second", "%(count)s seconds", n))
    return text % {"count": n}
