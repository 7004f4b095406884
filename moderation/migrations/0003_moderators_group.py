"""The `moderators` group, with exactly what moderators need (docs/operations.md).

View games, events, seats, users, reports and the log; handle reports; the moderator
actions. Nothing on sites, groups, permissions, tokens, or changing users.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [
    ("games", "view_game"), ("games", "view_event"), ("games", "view_seat"),
    ("accounts", "view_user"),
    ("moderation", "view_report"), ("moderation", "change_report"),
    ("moderation", "view_moderationlog"),
    ("moderation", "abort_game"), ("moderation", "annul_game"),
    ("moderation", "remove_seat"), ("moderation", "ban_user"),
    ("moderation", "mute_user"), ("moderation", "delete_message"),
]


def forwards(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate); make them now.
    for label in ("games", "accounts", "moderation"):
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    wanted = [Permission.objects.get(content_type__app_label=app, codename=codename)
              for app, codename in PERMISSIONS]
    group.permissions.set(wanted)


def backwards(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_log_append_only_trigger"),
        ("games", "0003_ranked_play"),
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(forwards, backwards)]
