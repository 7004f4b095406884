"""Password hashing that a crowd cannot turn into a database outage.

PBKDF2 costs ~0.3 s of CPU by design. Three hundred sign-ups or log-ins at once meant
three hundred threads hashing side by side on two cores: every hash took the whole
surge's time (~45 s), and each request that had touched the database first held its
pooled connection all along, so the pool ran dry and everyone else got 503s.

`BoundedPBKDF2PasswordHasher` is Django's PBKDF2 hasher (same algorithm name, so every
stored hash stays valid) with two rules around each hash:

- the thread's pooled database connection goes back to the pool first (outside a
  transaction only; Django opens a new one on the next query), so no connection waits
  on a hash;
- at most `PASSWORD_HASH_CONCURRENCY` hashes run at once (default: the CPU count); the
  rest queue, so each hash takes its 0.3 s and requests finish in arrival order.
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connections

_slots: threading.BoundedSemaphore | None = None
_slots_lock = threading.Lock()


def _semaphore() -> threading.BoundedSemaphore:
    global _slots
    with _slots_lock:
        if _slots is None:
            _slots = threading.BoundedSemaphore(settings.PASSWORD_HASH_CONCURRENCY)
        return _slots


def release_connections() -> None:
    """Give this thread's idle database connections back to the pool."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


class BoundedPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    def encode(self, password: str, salt: str, iterations: int | None = None) -> str:
        release_connections()
        with _semaphore():
            return super().encode(password, salt, iterations)
