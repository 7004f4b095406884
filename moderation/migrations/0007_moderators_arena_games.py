"""The `moderators` group may also see an Arena's games (tournaments.Pairing), shown
with the tournament in admin."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [("tournaments", "view_pairing")]


def forwards(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate); make them now.
    config = apps.get_app_config("tournaments")
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
            content_type__app_label="tournaments",
            codename__in=[codename for _, codename in PERMISSIONS]))


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0006_moderators_tournaments"),
        ("tournaments", "0002_arena"),
    ]
    operations = [migrations.RunPython(forwards, backwards)]
