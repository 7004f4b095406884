"""Run the background worker: `python manage.py run_worker [--once|--check]`."""

from __future__ import annotations

import signal
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections, connection

from games import worker


class Command(BaseCommand):
    help = "Run the periodic background jobs (clocks, clean-up) until stopped."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="run every job once and exit")
        parser.add_argument("--check", action="store_true", help="exit 0 if the database answers")
        parser.add_argument("--tick", type=float, default=1.0, help="seconds between checks")

    def handle(self, *args: Any, once: bool, check: bool, tick: float, **options: Any) -> None:
        if check:
            try:
                connection.ensure_connection()
            except Exception as exc:
                raise CommandError(f"database unreachable: {exc}") from exc
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
        while not stopping:
            close_old_connections()
            worker.run_due()
            time.sleep(tick)
        self.stdout.write("worker stopped")
