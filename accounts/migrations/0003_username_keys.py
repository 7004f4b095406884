"""The folded and look-alike keys of user names (accounts/names.py), filled for every
existing user (0004 makes them unique)."""

from django.db import migrations, models

from accounts import names


def fill_keys(apps, schema_editor):
    """Oldest account first keeps its keys; a later one that folds or looks the same as
    an earlier name (possible before these keys existed) keeps NULL there, and is
    reported: it cannot be looked up by name until an administrator renames it."""
    User = apps.get_model("accounts", "User")
    keys: set[str] = set()
    skeletons: set[str] = set()
    for user in User.objects.order_by("pk").only("pk", "username").iterator(chunk_size=2000):
        key, skel = names.fold(user.username), names.confusable_key(user.username)
        if key in keys:
            print(f"\n  user {user.pk} ({user.username!r}) folds like an older name: rename it")
            key = None
        if skel in skeletons:
            skel = None
        keys.add(key or "")
        skeletons.add(skel or "")
        User.objects.filter(pk=user.pk).update(username_key=key, username_skeleton=skel)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_bot_accounts"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.TextField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.TextField(editable=False, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=False),
    ]
