"""Moderators for the moderation tests: the real group, and staff with chosen permissions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD, make_user, moderators_group


def staff(username: str, *perms: str, group: str | None = None) -> User:
    """A staff user with the given "app.codename" permissions and/or group."""
    user = make_user(username)
    user.is_staff = True
    user.save()
    for perm in perms:
        app, codename = perm.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=codename))
    if group:
        user.groups.add(Group.objects.get(name=group))
    return User.objects.get(pk=user.pk)  # no stale permission cache


@pytest.fixture(autouse=True)
def _moderators(db: Any) -> None:
    moderators_group()


@pytest.fixture
def mod(db: Any) -> User:
    """A moderator: staff in the `moderators` group."""
    return staff("mod", group="moderators")


@pytest.fixture
def root(db: Any) -> User:
    return User.objects.create_superuser("root", "root@example.org", PASSWORD)


@pytest.fixture
def staff_with(db: Any) -> Callable[..., User]:
    return lambda *perms, name="partial": staff(name, *perms)


def browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response: Any) -> list[str]:
    from django.contrib.messages import get_messages

    return [str(m) for m in get_messages(response.wsgi_request)]
