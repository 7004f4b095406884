"""The background worker runs its jobs and answers its health check."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

from games import worker

pytestmark = pytest.mark.django_db


def test_expired_sessions_are_cleared_and_live_ones_kept():
    now = timezone.now()
    Session.objects.create(session_key="old", session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="new", session_data="", expire_date=now + timedelta(1))
    assert worker.clear_expired_sessions() == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == ["new"]


def test_run_due_skips_jobs_that_are_not_due():
    for job in worker.JOBS:
        job.next_at = 0.0
    assert "clear_expired_sessions" in worker.run_due(now=10.0)
    assert worker.run_due(now=11.0) == []


def test_check_flag_succeeds_with_a_database(capsys):
    call_command("run_worker", "--check")
