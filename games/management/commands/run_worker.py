"""Run the background worker: `python manage.py run_worker [--once|--check]`."""

from __future__ import annotations

import signal
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections
from django.utils import timezone

from games import outbox, worker
from games.ranked import clocks


class Command(BaseCommand):
    help = "Run the periodic background jobs (clocks, clean-up) until stopped."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="run every job once and exit")
        parser.add_argument("--check", action="store_true",
                            help="exit 0 only while a worker's heartbeat is fresh")
        parser.add_argument("--tick", type=float, default=0.25,
                            help="seconds between checks (bots answer within about this)")

    def handle(self, *args: Any, once: bool, check: bool, tick: float, **options: Any) -> None:
        if check:
            # A worker beats the clocks heartbeat every tick: a fresh beat means one runs
            # (this process or another), which is what a health probe needs to know.
            try:
                beat = clocks.last_beat()
            except Exception as exc:
                raise CommandError(f"database unreachable: {exc}") from exc
            age = None if beat is None else (timezone.now() - beat).total_seconds()
            if age is None or age > clocks.DOWNTIME_GRACE.total_seconds():
                raise CommandError("no worker is running: " + (
                    "no heartbeat yet" if age is None else f"last heartbeat {age:.0f} s ago"))
            self.stdout.write(f"worker alive: last heartbeat {age:.1f} s ago")
            return
        if once:
            ran = worker.run_due()
            self.stdout.write("ran: " + ", ".join(ran))
            return
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.stdout.write(f"worker started with jobs: {', '.join(j.name for j in worker.JOBS)}")
        # Between ticks, wait for an outbox insert to commit (PostgreSQL's NOTIFY): a
        # "your turn" is carried out at once, not at the next poll. Without wake-ups
        # (SQLite, or no listening connection) the outbox is polled every tick.
        waker = outbox.Waker()
        try:
            while not stopping:
                close_old_connections()
                worker.run_due()
                woken = waker.wait(tick)
                if (woken or not waker.listening) and not stopping:
                    close_old_connections()
                    worker.run_now("outbox")
        finally:
            waker.close()
        self.stdout.write("worker stopped")
