"""accounts.hashers: a crowd of sign-ups or log-ins never holds pooled connections while
hashing, and hashes run a bounded number at a time."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, make_password
from django.db import connection, transaction

from accounts import hashers
from accounts.models import User

BOUNDED = ["accounts.hashers.BoundedPBKDF2PasswordHasher"]


@pytest.fixture
def bounded(settings: Any) -> None:
    settings.PASSWORD_HASHERS = BOUNDED
    settings.PASSWORD_HASH_CONCURRENCY = 1
    hashers._slots = None  # built again from the setting
    yield
    hashers._slots = None


@pytest.mark.django_db(transaction=True)
def test_a_hash_gives_the_threads_connection_back_to_the_pool_first(bounded):
    User.objects.exists()  # this thread now holds a pooled connection
    assert connection.connection is not None
    encoded = make_password("correct-horse-battery-9")
    assert connection.connection is None  # returned before hashing
    assert encoded.startswith("pbkdf2_sha256$")  # the stock algorithm: old hashes verify
    assert check_password("correct-horse-battery-9", encoded)
    assert User.objects.count() == 0  # and the next query simply borrows again


@pytest.mark.django_db(transaction=True)
def test_a_hash_inside_a_transaction_keeps_its_connection(bounded):
    with transaction.atomic():
        User.objects.exists()
        make_password("correct-horse-battery-9")
        assert connection.connection is not None and connection.in_atomic_block


def test_no_more_hashes_run_at_once_than_the_setting_allows(bounded, settings, monkeypatch):
    settings.PASSWORD_HASH_CONCURRENCY = 2
    running, most = 0, 0
    lock = threading.Lock()
    stock = PBKDF2PasswordHasher.encode

    def watched(self: Any, password: str, salt: str, iterations: int | None = None) -> str:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)  # long enough for the other threads to pile up
        try:
            return stock(self, password, salt, 1000)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", watched)
    threads = [threading.Thread(target=make_password, args=(f"pw-{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 2
