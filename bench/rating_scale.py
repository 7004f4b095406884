"""Leaderboard and rating history at scale: 100,000 rated users, 1,000,000 finished games.

Seeds a separate PostgreSQL database (created if missing; default
postgres://postgres@127.0.0.1:5432/bloqueio_ratings_bench, or BENCH_DATABASE_URL) with
server-side INSERT ... SELECT generate_series (seconds, not hours), once: later runs
reuse it (`--reseed` starts over). Then times real API requests through Django's test
client (URL routing, DRF, JSON): leaderboard pages, rating histories and profiles.

    .venv/bin/python bench/rating_scale.py [--requests 400] [--reseed]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

URL = os.environ.get("BENCH_DATABASE_URL",
                     "postgres://postgres@127.0.0.1:5432/bloqueio_ratings_bench")
USERS = 100_000
GAMES = 1_000_000
SEATS = 4


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(f'CREATE DATABASE "{name}"')
        print(f"created database {name}")


SEED = [
    # users bench0..bench99999
    f"""INSERT INTO accounts_user (password, is_superuser, username, first_name, last_name,
        email, is_staff, is_active, date_joined)
        SELECT '!', false, 'bench' || g, '', '', '', false, true, now()
        FROM generate_series(0, {USERS - 1}) g""",
    # one million finished ranked 4-seat games, one every 10 s up to now
    f"""INSERT INTO games_game (kind, ranked, status, seat_count, created_at, started_at,
        finished_at, ply, state, result)
        SELECT 'bloqueio', true, 'finished', 4, t, t, t + interval '5 minutes', 40, '{{}}',
               '{{"winner": 0, "ranking": [1, 2, 3, 4], "reason": "goal"}}'
        FROM (SELECT now() - ({GAMES} - g) * interval '10 seconds' AS t
              FROM generate_series(1, {GAMES}) g) s""",
    # seats: game i seats users (4i .. 4i+3) mod USERS, so each user has 40 games
    f"""INSERT INTO games_seat (game_id, seat, user_id, joined_at)
        SELECT g.id, s, u.first + ((g.id - gm.first) * 4 + s) % {USERS}, g.created_at
        FROM games_game g, generate_series(0, 3) s,
             (SELECT min(id) AS first FROM accounts_user) u,
             (SELECT min(id) AS first FROM games_game) gm""",
    """INSERT INTO games_ratingchange (game_id, user_id, kind, seat, rank, mu_before,
        sigma_before, mu_after, sigma_after, rating_before, rating_after, at)
        SELECT s.game_id, s.user_id, 'bloqueio', s.seat, s.seat + 1, 25, 3, 25, 3,
               1500 + (s.id * 37) % 600 - 300, 1500 + (s.id * 41) % 600 - 300,
               s.joined_at + interval '5 minutes'
        FROM games_seat s""",
    # ratings: 90 % established, a few hundred rating values so ties are common
    """INSERT INTO games_rating (user_id, kind, mu, sigma, games, rating, provisional,
        last_played_at)
        SELECT id, 'bloqueio', 25, 3, 40, 800 + (id * 7919) % 1400, id % 10 = 0,
               now() - (id % 30) * interval '1 day'
        FROM accounts_user""",
    "ANALYZE",
]


def seed(reseed: bool) -> None:
    from django.core.management import call_command
    from django.db import connection, transaction

    from accounts.models import User

    if reseed:
        with connection.cursor() as cur:
            cur.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    call_command("migrate", verbosity=0)
    if User.objects.filter(username="bench0").exists():
        print("database already seeded (use --reseed to start over)")
        return
    if User.objects.exists():
        raise SystemExit("the bench database holds other data; use --reseed or another URL")
    with transaction.atomic(), connection.cursor() as cur:
        # Events are append-only by trigger; the bench writes none, so it stays.
        for sql in SEED:
            started = time.perf_counter()
            cur.execute(sql)
            what = sql.split()[2] if sql.startswith("INSERT") else sql
            print(f"  {what:<20} {cur.rowcount:>9} rows "
                  f"{time.perf_counter() - started:6.1f}s", flush=True)


def timed(client, urls: list[str]) -> tuple[float, float]:
    samples = []
    for url in urls:
        started = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return statistics.median(samples), p99


def measure(requests: int) -> None:
    from django.test import Client

    from games.ranked import leaderboard

    rng = random.Random(7)
    client = Client()
    pages = (leaderboard.board(kind="bloqueio").count() + 19) // 20
    board_urls = [f"/api/leaderboard/bloqueio/?page={rng.randint(1, pages)}"
                  for _ in range(requests)]
    top_urls = [f"/api/leaderboard/bloqueio/?page={rng.randint(1, 5)}" for _ in range(requests)]
    users = [f"bench{rng.randrange(USERS)}" for _ in range(requests)]
    history_urls = [f"/api/users/{u}/rating-history/bloqueio/" for u in users]
    profile_urls = [f"/api/users/{u}/" for u in users]
    timed(client, board_urls[:20] + history_urls[:20])  # warm up
    print(f"{requests} requests each; {pages} leaderboard pages")
    for label, urls in [("leaderboard, random page", board_urls),
                        ("leaderboard, pages 1-5", top_urls),
                        ("rating history (40 games)", history_urls),
                        ("profile", profile_urls)]:
        p50, p99 = timed(client, urls)
        print(f"  {label:<28} p50 {p50:6.2f} ms   p99 {p99:6.2f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--reseed", action="store_true")
    args = parser.parse_args()
    ensure_database(URL)
    os.environ["DATABASE_URL"] = URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bloqueio_site.settings")
    import django

    django.setup()
    started = time.perf_counter()
    seed(args.reseed)
    print(f"seed/migrate: {time.perf_counter() - started:.0f}s")
    measure(args.requests)


if __name__ == "__main__":
    main()
