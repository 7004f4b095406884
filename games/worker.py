"""The background worker's periodic jobs.

`python manage.py run_worker` runs every registered job at its interval. Jobs are plain
functions that must be safe to run from several workers at once (they lock what they
touch in the database), so the worker can be scaled or restarted freely.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import computer, outbox
from games.ranked import clocks, matchmaking, places

log = logging.getLogger(__name__)


@dataclass
class Job:
    name: str
    interval: float
    run: Callable[[], object]
    next_at: float = field(default=0.0)


JOBS: list[Job] = []


def register(name: str, interval: float) -> Callable[[Callable[[], object]], Callable[[], object]]:
    """Decorator: run the function every `interval` seconds in the worker."""

    def wrap(func: Callable[[], object]) -> Callable[[], object]:
        JOBS.append(Job(name=name, interval=interval, run=func))
        return func

    return wrap


@register("clear_expired_sessions", interval=3600)
def clear_expired_sessions() -> int:
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@register("outbox", interval=1)
def outbox_tick() -> int:
    """Carry out the side effects changes wrote (games/outbox.py). The poll behind the
    wake-up: `run_worker` runs it at once when an insert commits (PostgreSQL)."""
    # Where the writers carry their rows out themselves, the worker takes what they left.
    grace = outbox.IN_PROCESS_GRACE if settings.OUTBOX_IN_PROCESS else timedelta(0)
    return outbox.run_pending(settled_for=grace)


@register("forget_outbox", interval=3600)
def forget_outbox_tick() -> int:
    return outbox.forget_done()


@register("clocks", interval=1)
def clocks_tick() -> int:
    """Forgive downtime, flag seats out of time, abort games whose first moves never came."""
    return clocks.tick()


@register("matchmaking", interval=2)
def matchmaking_tick() -> int:
    """Expire abandoned queue entries and form matches as rating spreads widen."""
    return matchmaking.tick()


@register("bots", interval=0.25)
def bots_tick() -> int:
    """Play the computer's seats whose turn it is (bounded per tick: games/computer.py)."""
    return computer.tick()


@register("abandoned", interval=60)
def abandoned_tick() -> int:
    """End computer games whose people left them (games/computer.py, abort_abandoned)."""
    return computer.abort_abandoned()


@register("forget_places", interval=3600)
def forget_places_tick() -> int:
    """Delete the places ranked players played from once RANKED_ADDRESS_DAYS have passed
    (games/ranked/places.py: privacy)."""
    return places.forget()


def run_now(name: str) -> None:
    """Run the job `name` now (a wake-up), and not again before its interval."""
    run_due(only=name, force=True)


def run_due(now: float | None = None, *, only: str | None = None,
            force: bool = False) -> list[str]:
    """Run every job whose time has come; a failing job is logged, never fatal.

    A job that did something (a non-zero, non-empty outcome) is one line at INFO; an
    idle tick ("bots -> 0" four times a second) only at DEBUG, so the console of
    `make run` shows events, not the heartbeat."""
    now = time.monotonic() if now is None else now
    ran = []
    for job in JOBS:
        if (only is not None and job.name != only) or (now < job.next_at and not force):
            continue
        job.next_at = now + job.interval
        try:
            outcome = job.run()
            log.log(logging.INFO if outcome else logging.DEBUG, "worker: %s -> %s",
                    job.name, outcome)
        except Exception:
            log.exception("worker: job %s failed", job.name)
        ran.append(job.name)
    return ran
