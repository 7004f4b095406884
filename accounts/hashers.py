"""Password hashing that a crowd cannot turn into a database outage or a silent wait.

A password hash costs tens of milliseconds of CPU by design. Three hundred sign-ups or
log-ins at once once meant three hundred threads hashing side by side on two cores:
every hash took the whole surge's time, and each request that had touched the database
first held its pooled connection all along, so the pool ran dry. Queueing the hashes
fixed that but left the end of the queue waiting so long that clients timed out without
an answer. So every hash here follows three rules:

- the thread's pooled database connection goes back to the pool first (outside a
  transaction only; Django opens a new one on the next query), so no connection waits
  on a hash;
- at most `PASSWORD_HASH_CONCURRENCY` hashes run at once (default: the CPU count); the
  rest queue, first come first served;
- a hash that could not start within `PASSWORD_HASH_MAX_WAIT` seconds is refused with
  `HashQueueFull` (503 `unavailable` with `Retry-After`): at once when the queue already
  holds more than that much work (measured from the hashes just done), else when the
  wait runs out. Each refusal's `Retry-After` is a turn of its own after the queue and
  the turns already given, so a crowd that honours it comes back spread out at the pace
  the hashes are done, instead of all at once into another refusal.

`BoundedArgon2PasswordHasher` (Argon2id, the preferred hasher: parameters measured in
docs/operations.md, "Sign-up and log-in") and `BoundedPBKDF2PasswordHasher` (verifies the
PBKDF2 hashes stored before it; Django rehashes them with Argon2id at the next log-in)
keep Django's algorithm names, so every stored hash stays valid with or without them.
"""

from __future__ import annotations

import math
import statistics
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.contrib.auth.hashers import Argon2PasswordHasher, PBKDF2PasswordHasher
from django.db import connections

from bloqueio_site.errors import Unavailable


class HashQueueFull(Unavailable):
    """No hash slot within `PASSWORD_HASH_MAX_WAIT`: the client should retry later."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("The server is busy with other sign-ups and log-ins; "
                         f"retry in {retry_after} s.")
        self.retry_after = retry_after


class HashGate:
    """At most `concurrency` hashes at once; none waits longer than `max_wait` to start."""

    # How many recent hashes the typical duration is the median of: it follows a machine
    # getting busier within a few hashes, and an odd slow one (a process's first, cold)
    # does not move it.
    RECENT = 15
    # The longest Retry-After: turns are given only while clients are refused, and a
    # crowd that never comes back must not push honest clients' turns out for long.
    MAX_RETRY_AFTER = 30

    def __init__(self, concurrency: int, max_wait: float) -> None:
        self.concurrency = concurrency
        self.max_wait = max_wait
        self._slots = threading.BoundedSemaphore(concurrency)
        self._lock = threading.Lock()  # guards the counts and durations below
        self.waiting = 0
        self.running = 0
        self.recent: deque[float] = deque(maxlen=self.RECENT)  # seconds each held its slot
        self.turns_from = 0.0  # monotonic time the turns given to refused clients start
        self.turns = 0  # turns given since then

    def expected_wait(self) -> float:
        """Seconds a hash arriving now would wait for a slot."""
        ahead = self.waiting + self.running - self.concurrency + 1
        if ahead <= 0:
            return 0.0
        return math.ceil(ahead / self.concurrency) * self.typical()

    def typical(self) -> float:
        """Seconds a hash holds its slot these days. Before any ran, the longest wait:
        a crowd arriving at a fresh process queues one round of hashes, not all of it
        (each then waiting until its wait runs out)."""
        return statistics.median_low(self.recent) if self.recent else self.max_wait

    def _refusal(self) -> HashQueueFull:
        """A refusal whose Retry-After is this client's turn: the n-th client refused
        since the queue last emptied of turns comes back n hashes after the work queued
        now is done.

        A turn lasts the quickest recent hash, as measured now (not when earlier turns
        were given): the hashes done while a crowd arrives are slowed by its arrival,
        the ones done on its return are not. A client back too early is refused again,
        cheaply, and gets a later turn; turns too far apart would leave the CPU idle
        while clients wait."""
        now = time.monotonic()
        queue_done = now + self.expected_wait()
        turn = self.turns_from + self.turns * min(self.recent, default=0.0) / self.concurrency
        if turn <= queue_done:  # every turn given has come: start again after the queue
            self.turns_from, self.turns, turn = queue_done, 0, queue_done
        self.turns += 1
        return HashQueueFull(max(1, min(self.MAX_RETRY_AFTER, math.ceil(turn - now))))

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._lock:
            if self.expected_wait() > self.max_wait:
                raise self._refusal()
            self.waiting += 1
        try:
            acquired = self._slots.acquire(timeout=self.max_wait)
        finally:
            with self._lock:
                self.waiting -= 1
        with self._lock:
            if not acquired:
                raise self._refusal()
            self.running += 1
        began = time.perf_counter()
        try:
            yield
        finally:
            took = time.perf_counter() - began
            with self._lock:
                self.running -= 1
                self.recent.append(took)
            self._slots.release()


_gate: HashGate | None = None
_gate_lock = threading.Lock()


def gate() -> HashGate:
    """This process's gate, built from the settings on first use."""
    global _gate
    with _gate_lock:
        if _gate is None:
            _gate = HashGate(settings.PASSWORD_HASH_CONCURRENCY, settings.PASSWORD_HASH_MAX_WAIT)
        return _gate


def release_connections() -> None:
    """Give this thread's idle database connections back to the pool."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


@contextmanager
def bounded() -> Iterator[None]:
    """Run one hash under the rules above."""
    release_connections()
    with gate().slot():
        yield


class BoundedArgon2PasswordHasher(Argon2PasswordHasher):
    """Argon2id with OWASP's recommended minimum (19 MiB, 2 passes), measured on our
    2-core machine (bench/hash_cost.py, docs/operations.md): ~20 ms a hash. Changing
    them rehashes each password at its next log-in (Django's `must_update`)."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1  # the gate already runs one hash per core

    def encode(self, password: str, salt: str) -> str:
        with bounded():
            return super().encode(password, salt)

    def verify(self, password: str, encoded: str) -> bool:
        with bounded():
            return super().verify(password, encoded)


class BoundedPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Verifies stored PBKDF2 hashes (its `verify` and `harden_runtime` call `encode`)."""

    def encode(self, password: str, salt: str, iterations: int | None = None) -> str:
        with bounded():
            return super().encode(password, salt, iterations)
