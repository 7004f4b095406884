"""Latency from a turn-based move's commit to the worker carrying out its outbox row
(games/outbox.py), with a real worker running beside it:

    python manage.py run_worker &
    python manage.py shell < bench/outbox_latency.py

Prints the median, p90 and max of (row done - row written) over N moves, each in a game
of its own, spaced out (docs/performance.md, "The outbox's wake-up").
"""

import statistics
import time
import uuid

from accounts.models import User
from games import engine, services
from games.models import Outbox
from notifications.models import Notification

N = 30
DAYS = {"days": 2}

tag = uuid.uuid4().hex[:6]
first = User.objects.create_user(username="la" + tag, password="x-Long-pass-1")
second = User.objects.create_user(username="lb" + tag, password="x-Long-pass-1")
rules = engine.get("quoridor")
games = []
for _ in range(N):
    game = services.create_game(user=first, kind="quoridor", time_control=DAYS)
    services.join_game(game_id=game.pk, user=second)
    game.refresh_from_db()
    action = rules.legal_actions(rules.state_from_json(game.state))[0].to_json()
    services.submit_action(game_id=game.pk, user=first, action=action, ply=0)
    games.append(game.pk)
    time.sleep(0.3)  # not measured: spaces the moves out
time.sleep(2)
waits = []
for row in Outbox.objects.filter(game_id__in=games, kind="turn", payload__ply=1):
    told = Notification.objects.filter(game_id=row.game_id, user=second,
                                       kind="your_turn").exists()
    if told and row.done_at is not None:
        waits.append((row.done_at - row.created_at).total_seconds() * 1000)
waits.sort()
print(f"rows {len(waits)}/{N}: median {statistics.median(waits):.1f} ms, "
      f"p90 {waits[int(len(waits) * 0.9) - 1]:.1f} ms, max {waits[-1]:.1f} ms")
