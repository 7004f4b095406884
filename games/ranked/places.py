"""Where accounts take ranked seats from, so that a ring of accounts at one place cannot
rate each other (issue #44; docs/ranked.md, "Rated play that cannot be farmed").

A place is the client address the ASGI server reported (bloqueio_site/limits.py): an
IPv4 address, or an IPv6 address's /64 (one household or host gets a /64, and hands its
devices any address in it). It is stored only as a keyed hash (HMAC-SHA256 under
SECRET_KEY), never as the address, and only when an account takes a seat in a ranked
game: creating one, joining one (by id, by invitation) or queueing for matchmaking.
A row is deleted RANKED_ADDRESS_DAYS (default 30) after it was last seen, unless its
account still sits in an unfinished ranked game (whose rating needs it); 0 keeps
nothing and links nobody.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone

from bloqueio_site.env import env_int
from games.models import Game, PlayedFrom, Seat, Status

IPV6_PREFIX = 64


def days() -> int:
    """RANKED_ADDRESS_DAYS: how long a place links the accounts seen at it (0: never)."""
    return env_int("RANKED_ADDRESS_DAYS", 30, minimum=0)


def place_of(address: str) -> str | None:
    """The keyed hash of `address`'s place; None for what is no IP address ("unknown",
    a test client's name): nothing to link by."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        else:
            text = str(ipaddress.IPv6Network(f"{ip}/{IPV6_PREFIX}", strict=False))
            return _keyed(text)
    return _keyed(str(ip))


def _keyed(text: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), b"ranked-place:" + text.encode(),
                    hashlib.sha256).hexdigest()[:32]


def note(user: AbstractBaseUser, address: str | None, now: datetime | None = None) -> None:
    """Record that `user` took a ranked seat from `address` (one upsert statement)."""
    if address is None or days() == 0 or getattr(user, "bot_level", ""):
        return
    place = place_of(address)
    if place is None:
        return
    PlayedFrom.objects.bulk_create(
        [PlayedFrom(user_id=user.pk, place=place, last_seen=now or timezone.now())],
        update_conflicts=True, unique_fields=["user", "place"], update_fields=["last_seen"])


def linked(game: Game, user_ids: Iterable[int], now: datetime) -> set[int]:
    """Those of `user_ids` who share a place with another of them, each seen there since
    RANKED_ADDRESS_DAYS before `game` started (or since, while it was played)."""
    span = days()
    ids = set(user_ids)
    if span == 0 or len(ids) < 2:
        return set()
    since = (game.started_at or game.created_at or now) - timedelta(days=span)
    at: dict[str, set[int]] = {}
    for user_id, place in PlayedFrom.objects.filter(
            user_id__in=ids, last_seen__gte=since).values_list("user_id", "place"):
        at.setdefault(place, set()).add(user_id)
    return {uid for together in at.values() if len(together) > 1 for uid in together}


def forget(now: datetime | None = None) -> int:
    """Delete the places not seen for RANKED_ADDRESS_DAYS, but those of accounts still
    seated in an unfinished ranked game (the worker's `forget_places`, hourly)."""
    cutoff = (now or timezone.now()) - timedelta(days=days())
    playing = Seat.objects.filter(
        game__ranked=True, game__status__in=[Status.WAITING, Status.ACTIVE],
    ).values("user_id")
    deleted, _ = (PlayedFrom.objects.filter(last_seen__lt=cutoff)
                  .exclude(user_id__in=playing).delete())
    return deleted
