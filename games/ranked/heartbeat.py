"""The clock worker's heartbeat: when it was last alive (a flag falls only if it was)."""

from __future__ import annotations

from datetime import datetime

from games.models import ClockHeartbeat

HEARTBEAT = "clocks"


def last_beat() -> datetime | None:
    return ClockHeartbeat.objects.filter(name=HEARTBEAT).values_list("beat_at", flat=True).first()
