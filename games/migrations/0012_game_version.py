"""`Game.version` replaces `Game.seat_changes`: one integer that every change to a game
adds one to, the write guard's only compare and the stream's `v` (docs/realtime.md).

An existing game's version starts where a new game's does (its creation time in
microseconds) plus every change it is known to have had (its plies and seat changes),
so it keeps growing from there."""

from django.db import migrations, models

import games.models


def carry_over(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    batch = []
    for game in Game.objects.only("id", "created_at", "ply", "seat_changes").iterator(
            chunk_size=2000):
        game.version = (int(game.created_at.timestamp() * 1_000_000) + game.ply
                        + game.seat_changes)
        batch.append(game)
        if len(batch) >= 2000:
            Game.objects.bulk_update(batch, ["version"])
            batch = []
    if batch:
        Game.objects.bulk_update(batch, ["version"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_outbox"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="version",
            field=models.PositiveBigIntegerField(default=games.models.first_version,
                                                 editable=False, verbose_name="version"),
        ),
        migrations.RunPython(carry_over, migrations.RunPython.noop),
        migrations.RemoveField(model_name="game", name="seat_changes"),
    ]
