"""`manage.py rebuild_games [--check] [--game ID]`: re-derive projections from events."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import projection
from games.models import Game


class Command(BaseCommand):
    help = "Re-derive every game's state and result from its events; report or fix drift."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--check", action="store_true", help="report only; exit 1 on drift")
        parser.add_argument("--game", type=int, action="append", help="only these game ids")

    def handle(self, *args: Any, check: bool, game: list[int] | None, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if game:
            games = games.filter(pk__in=game)
        drifted = 0
        total = 0
        for item in games.iterator(chunk_size=500):
            total += 1
            drift = projection.check(item) if check else projection.repair(item.pk)
            if drift is None:
                continue
            drifted += 1
            names = ", ".join(sorted(drift.fields))
            verb = "differs" if check else "repaired"
            self.stdout.write(f"game {drift.game_id}: {verb} ({names})")
        self.stdout.write(f"{total} games checked, {drifted} {'drifted' if check else 'repaired'}")
        if check and drifted:
            raise CommandError(f"{drifted} game projection(s) differ from their events")
