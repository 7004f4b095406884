"""The `moderators` group may also see tournaments and cancel one or take a player out
of it (docs/tournaments.md)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [
    ("moderation", "cancel_tournament"),
    ("tournaments", "view_tournament"), ("tournaments", "view_entry"),
    ("tournaments", "view_round"),
]


def forwards(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate); make them now.
    for label in ("moderation", "tournaments"):
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(*[Permission.objects.get(content_type__app_label=app,
                                                   codename=codename)
                            for app, codename in PERMISSIONS])


def backwards(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(*Permission.objects.filter(
            codename__in=[codename for _, codename in PERMISSIONS]))


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0005_tournament_actions"),
        ("tournaments", "0001_initial"),
    ]
    operations = [migrations.RunPython(forwards, backwards)]
