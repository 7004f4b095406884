"""Moderators read chat (messages, deleted ones included, and mutes) in admin; what they
may do to it is the moderation permissions `delete_message` and `mute_user`."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = [("chat", "view_chatmessage"), ("chat", "view_mute")]


def forwards(apps, schema_editor):
    config = apps.get_app_config("chat")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.get(name="moderators")
    group.permissions.add(*[Permission.objects.get(content_type__app_label=app,
                                                   codename=codename)
                            for app, codename in PERMISSIONS])


def backwards(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="moderators").first()
    if group is not None:
        group.permissions.remove(*Permission.objects.filter(
            content_type__app_label="chat", codename__in=[c for _, c in PERMISSIONS]))


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0001_initial"),
        ("moderation", "0003_moderators_group"),
    ]
    operations = [migrations.RunPython(forwards, backwards)]
