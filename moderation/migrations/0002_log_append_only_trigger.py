"""A database trigger makes the moderation log append-only and undeletable for every
client, not only Django (as games_event, games/migrations/0002).

TRUNCATE is left alone, as for games_event: the test runner's flush between transactional
tests uses it, and it needs the table owner's rights, which the application role should
not have in production."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION moderation_log_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'moderation_moderationlog is append-only (%% refused)', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER moderation_log_append_only
    BEFORE UPDATE OR DELETE ON moderation_moderationlog
    FOR EACH ROW EXECUTE FUNCTION moderation_log_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS moderation_log_append_only ON moderation_moderationlog;
DROP FUNCTION IF EXISTS moderation_log_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("moderation", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
