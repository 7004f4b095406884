"""What the pool's health check costs per borrowed connection (docs/operations.md).

Every move borrows one pooled connection; the pool checks it as it leaves, and Django
skips its own per-call `SELECT 1` under a pool. This times getconn + putconn with no
check, with psycopg_pool's (an empty query, one round trip) and with the site's
(`bloqueio_site.postgres.base.check_idle`: a poll of the socket, the empty query only
when the server has written to an idle connection), on one pooled connection.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/pool_check.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

from psycopg_pool import ConnectionPool

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bloqueio_site.postgres.base import check_idle  # (no Django set-up needed)

BORROWS = 2000
RUNS = 7


def main() -> None:
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    url = url.replace("postgres://", "postgresql://", 1)
    for label, check in (("no check", None), ("pool check", ConnectionPool.check_connection),
                         ("check_idle", check_idle)):
        with ConnectionPool(url, min_size=1, max_size=1, check=check,
                            kwargs={"autocommit": True}) as pool:
            pool.wait()
            runs = []
            for _ in range(RUNS):
                started = time.perf_counter()
                for _ in range(BORROWS):
                    pool.putconn(pool.getconn())
                runs.append((time.perf_counter() - started) / BORROWS * 1e6)
        print(f"{label:>10}: median {statistics.median(runs):.1f} us per borrow "
              f"(min {min(runs):.1f}, max {max(runs):.1f}; {RUNS} runs of {BORROWS})")


if __name__ == "__main__":
    main()
