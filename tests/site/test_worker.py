"""The background worker runs its jobs and answers its health check."""

import logging
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import worker
from games.models import ClockHeartbeat

pytestmark = pytest.mark.django_db


def test_expired_sessions_are_cleared_and_live_ones_kept():
    now = timezone.now()
    Session.objects.create(session_key="old", session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="new", session_data="", expire_date=now + timedelta(1))
    assert worker.clear_expired_sessions() == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == ["new"]


def test_run_due_skips_jobs_that_are_not_due(monkeypatch):
    calls = []
    jobs = [worker.Job("fast", 1.0, lambda: calls.append("fast")),
            worker.Job("slow", 100.0, lambda: calls.append("slow"))]
    monkeypatch.setattr(worker, "JOBS", jobs)
    assert worker.run_due(now=10.0) == ["fast", "slow"]
    assert worker.run_due(now=10.5) == []
    assert worker.run_due(now=11.0) == ["fast"]
    assert calls == ["fast", "slow", "fast"]


def test_a_failing_job_is_logged_not_fatal(monkeypatch, caplog):
    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(worker, "JOBS", [worker.Job("broken", 1.0, broken)])
    assert worker.run_due(now=1.0) == ["broken"]
    assert "job broken failed" in caplog.text


def test_an_idle_tick_is_not_logged_and_a_busy_one_is_one_line(monkeypatch, caplog):
    """`make run`'s console: "bots -> 0" four times a second buried everything else."""
    jobs = [worker.Job("idle", 1.0, lambda: 0), worker.Job("busy", 1.0, lambda: 2)]
    monkeypatch.setattr(worker, "JOBS", jobs)
    caplog.set_level(logging.INFO, logger="games.worker")
    worker.run_due(now=1.0)
    assert [r.getMessage() for r in caplog.records] == ["worker: busy -> 2"]


def test_check_succeeds_only_while_a_worker_heartbeat_is_fresh(capsys):
    with pytest.raises(CommandError, match="no heartbeat yet"):
        call_command("run_worker", "--check")
    call_command("run_worker", "--once")  # a worker's tick beats the heartbeat
    call_command("run_worker", "--check")
    assert "worker alive" in capsys.readouterr().out
    ClockHeartbeat.objects.update(beat_at=timezone.now() - timedelta(seconds=60))
    with pytest.raises(CommandError, match="last heartbeat 60 s ago"):
        call_command("run_worker", "--check")
