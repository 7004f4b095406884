"""Unique name keys in PostgreSQL (a sign-up race is settled there), replacing the
LOWER(username) constraint; named API tokens."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import accounts.models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_username_keys"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="user",
            name="accounts_user_username_ci_unique",
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(fields=("username_key",),
                                               name="accounts_user_username_key_unique"),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(fields=("username_skeleton",),
                                               name="accounts_user_username_skeleton_unique"),
        ),
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=50)),
                ("key", models.CharField(default=accounts.models._new_key, editable=False,
                                         max_length=40, unique=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="api_tokens",
                                           to=settings.AUTH_USER_MODEL)),
            ],
            options={"ordering": ["created", "pk"]},
        ),
    ]
