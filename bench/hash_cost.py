"""Password hash cost: the time one hash takes per parameter set, on this machine.

For each Argon2id parameter set (time_cost, memory_cost in KiB, parallelism), and for
Django's PBKDF2 as the reference, prints the median and max wall time of one hash
(`--rounds` hashes, one at a time) and the hashes a second with `--threads` hashing side
by side, as `PASSWORD_HASH_CONCURRENCY` lets a server do. docs/operations.md ("Sign-up
and log-in") chose accounts/hashers.py's parameters from this table.

    python bench/hash_cost.py                   # the default sets, 20 rounds
    python bench/hash_cost.py --set 2,19456,1 --set 3,65536,1 --rounds 50
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import argon2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (time_cost, memory_cost KiB, parallelism): OWASP's minimum sets, RFC 9106's second
# recommendation, Django's default, and a few between.
DEFAULT_SETS = [
    (2, 19 * 1024, 1), (1, 46 * 1024, 1), (3, 12 * 1024, 1), (2, 32 * 1024, 1),
    (3, 32 * 1024, 1), (3, 64 * 1024, 1), (3, 64 * 1024, 4), (2, 100 * 1024, 8),
]


def measure(hash_once: Callable[[int], object], rounds: int,
            threads: int) -> tuple[float, float, float]:
    """Median and max seconds of one hash alone, and hashes a second `threads` at once."""
    hash_once(-1)  # warm up (tables, first allocation)
    alone = []
    for n in range(rounds):
        started = time.perf_counter()
        hash_once(n)
        alone.append(time.perf_counter() - started)
    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(hash_once, range(rounds * threads)))
    rate = rounds * threads / (time.perf_counter() - started)
    return statistics.median(alone), max(alone), rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", default=[], metavar="T,M,P",
                        help="an Argon2id set: time_cost,memory_cost_kib,parallelism")
    parser.add_argument("--rounds", type=int, default=20, help="hashes per set, one at a time")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2,
                        help="hashes side by side for the rate (default: the CPU count)")
    args = parser.parse_args()
    sets = [tuple(int(x) for x in s.split(",")) for s in args.set] or DEFAULT_SETS

    print(f"{os.cpu_count()} CPUs, {args.rounds} rounds, rate with {args.threads} threads")
    print(f"{'hasher':<34} {'median ms':>10} {'max ms':>8} {'hashes/s':>9}")
    for t, m, p in sets:
        hasher = argon2.PasswordHasher(time_cost=t, memory_cost=m, parallelism=p,
                                       type=argon2.Type.ID)
        median, most, rate = measure(lambda n, h=hasher: h.hash(f"pw-{n}-Bench!"),
                                     args.rounds, args.threads)
        print(f"{f'argon2id t={t} m={m // 1024} MiB p={p}':<34} "
              f"{median * 1000:>10.1f} {most * 1000:>8.1f} {rate:>9.1f}")

    import django
    from django.conf import settings

    settings.configure()
    django.setup()
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    pbkdf2 = PBKDF2PasswordHasher()
    median, most, rate = measure(lambda n: pbkdf2.encode(f"pw-{n}-Bench!", pbkdf2.salt()),
                                 max(3, args.rounds // 4), args.threads)
    print(f"{f'pbkdf2_sha256 {pbkdf2.iterations} iterations':<34} "
          f"{median * 1000:>10.1f} {most * 1000:>8.1f} {rate:>9.1f}")


if __name__ == "__main__":
    main()
