"""The version's doorbell (docs/architecture.md, "How a change reaches every socket"):
every update of a game's row that moves its `version` sends, from its own transaction,
`pg_notify('games_version', '<id> <version>')`. PostgreSQL delivers it at commit to every
process LISTENing (games/live/doorbell.py), whatever becomes of the writer afterwards,
and never for a rolled-back change; a trigger covers every writer, present and future
(the move's statement, seats, annulments, `rebuild_games`' repair) without any of them
remembering it. PostgreSQL only: the embedded mode's SQLite has no NOTIFY."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_version_ring() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('games_version', NEW.id || ' ' || NEW.version);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_version_ring
    AFTER UPDATE ON games_game
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION games_version_ring();
"""

DROP = """
DROP TRIGGER IF EXISTS games_version_ring ON games_game;
DROP FUNCTION IF EXISTS games_version_ring();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_game_version"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
