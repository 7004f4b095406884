"""accounts.hashers: Argon2id first, stored PBKDF2 hashes still verify and are rehashed at
the next log-in; a crowd of sign-ups or log-ins never holds pooled connections while
hashing, hashes run a bounded number at a time, and a hash that cannot start soon is
refused with 503 `unavailable` and Retry-After instead of a silent wait."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.hashers import (
    Argon2PasswordHasher,
    PBKDF2PasswordHasher,
    check_password,
    make_password,
)
from django.db import connection, transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import hashers
from accounts.models import User
from tests.conftest import PASSWORD

BOUNDED = ["accounts.hashers.BoundedArgon2PasswordHasher",
           "accounts.hashers.BoundedPBKDF2PasswordHasher"]


@pytest.fixture
def bounded(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = BOUNDED
    settings.PASSWORD_HASH_CONCURRENCY = 1
    settings.PASSWORD_HASH_MAX_WAIT = 30
    hashers._gate = None  # built again from the settings
    yield
    hashers._gate = None


@pytest.fixture
def done() -> threading.Event:
    """Set, the hash holding `busy`'s slot ends."""
    return threading.Event()


@pytest.fixture
def busy(bounded: None, settings: Any, done: threading.Event) -> Iterator[hashers.HashGate]:
    """The only hash slot taken (by another thread) until the test ends; no waiting."""
    settings.PASSWORD_HASH_MAX_WAIT = 0
    taken = threading.Event()

    def hold() -> None:
        with hashers.gate().slot():
            taken.set()
            done.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(10)
    yield hashers.gate()
    done.set()
    holder.join()


def pbkdf2_user(username: str) -> User:
    """A user whose password was stored before Argon2id (Django's PBKDF2)."""
    hasher = PBKDF2PasswordHasher()
    user = User.objects.create(username=username,
                               password=hasher.encode(PASSWORD, hasher.salt(), 1000))
    Token.objects.create(user=user)
    return user


def test_new_passwords_are_hashed_with_argon2id(bounded):
    encoded = make_password("correct-horse-battery-9")
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert check_password("correct-horse-battery-9", encoded)
    assert not check_password("correct-horse-battery-8", encoded)


@pytest.mark.django_db
def test_a_pbkdf2_password_still_logs_in_and_is_rehashed_with_argon2id(bounded):
    user = pbkdf2_user("alice")
    answer = APIClient().post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                              format="json")
    assert answer.status_code == 200
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$")
    assert user.check_password(PASSWORD)


@pytest.mark.django_db
def test_a_wrong_password_leaves_a_pbkdf2_hash_as_it_was(bounded):
    user = pbkdf2_user("alice")
    stored = user.password
    answer = APIClient().post("/api/auth/token/", {"username": "alice", "password": "nope"},
                              format="json")
    assert answer.status_code == 400
    user.refresh_from_db()
    assert user.password == stored


@pytest.mark.django_db(transaction=True)
def test_a_hash_gives_the_threads_connection_back_to_the_pool_first(bounded):
    User.objects.exists()  # this thread now holds a pooled connection
    assert connection.connection is not None
    encoded = make_password("correct-horse-battery-9")
    assert connection.connection is None  # returned before hashing
    assert check_password("correct-horse-battery-9", encoded)
    assert not User.objects.filter(username="nobody").exists()  # the next query borrows


@pytest.mark.django_db(transaction=True)
def test_verifying_a_pbkdf2_hash_gives_the_connection_back_too(bounded):
    hasher = PBKDF2PasswordHasher()
    encoded = hasher.encode(PASSWORD, hasher.salt(), 1000)
    User.objects.exists()
    assert check_password(PASSWORD, encoded)
    assert connection.connection is None


@pytest.mark.django_db(transaction=True)
def test_a_hash_inside_a_transaction_keeps_its_connection(bounded):
    with transaction.atomic():
        User.objects.exists()
        make_password("correct-horse-battery-9")
        assert connection.connection is not None and connection.in_atomic_block


@pytest.mark.parametrize("job", ["encode", "verify"])
def test_no_more_hashes_run_at_once_than_the_setting_allows(bounded, settings, monkeypatch,
                                                             job):
    settings.PASSWORD_HASH_CONCURRENCY = 2
    running, most = 0, 0
    lock = threading.Lock()
    stock = getattr(Argon2PasswordHasher, job)

    def watched(self: Any, password: str, other: str) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)  # long enough for the other threads to pile up
        try:
            return stock(self, password, other)
        finally:
            with lock:
                running -= 1

    encoded = make_password("pw-0") if job == "verify" else ""
    # A hash measured already: the eight are judged by it and all queue (a fresh
    # process, knowing none, queues one round and refuses the rest).
    hashers.gate().recent.append(0.01)
    monkeypatch.setattr(Argon2PasswordHasher, job, watched)
    work = make_password if job == "encode" else (lambda pw: check_password(pw, encoded))
    done: list[object] = []
    threads = [threading.Thread(target=lambda n=n: done.append(work(f"pw-{n}")))
               for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(done) == 8  # every hash ran, none was refused
    assert most == 2


def test_a_hash_that_cannot_start_in_time_is_refused(busy):
    with pytest.raises(hashers.HashQueueFull) as refused:
        make_password("correct-horse-battery-9")
    assert refused.value.status == 503 and refused.value.code == "unavailable"
    assert refused.value.retry_after >= 1
    assert busy.waiting == 0 and busy.running == 1  # the refused hash left no trace


def test_a_queue_longer_than_the_wait_is_refused_without_waiting(busy, monkeypatch):
    busy.max_wait = 10
    busy.recent.append(20.0)  # the hash that holds the slot has 20 s of work: more than 10
    waited: list[float] = []
    monkeypatch.setattr(busy._slots, "acquire", lambda timeout: waited.append(timeout))
    with pytest.raises(hashers.HashQueueFull) as refused:
        make_password("correct-horse-battery-9")
    assert waited == []  # never queued for the slot
    assert refused.value.retry_after == 20  # when the queued work will be done


def test_each_refused_client_gets_a_turn_of_its_own(busy):
    busy.max_wait = 5
    busy.recent.append(8.0)  # 8 s of work queued: every hash arriving now is refused
    turns = []
    for _ in range(5):
        with pytest.raises(hashers.HashQueueFull) as refused:
            make_password("correct-horse-battery-9")
        turns.append(refused.value.retry_after)
    # After the work queued now, then one hash apart: the crowd comes back spread out,
    # within MAX_RETRY_AFTER.
    assert turns == [8, 16, 24, 30, 30]


def test_a_short_queue_waits_its_turn(busy, done):
    busy.max_wait = 30
    busy.recent.append(0.01)
    answer: list[str] = []
    waiter = threading.Thread(target=lambda: answer.append(make_password("pw-1-Queue!")))
    waiter.start()
    while busy.waiting == 0 and waiter.is_alive():
        time.sleep(0.01)
    assert busy.waiting == 1  # queued, not refused
    done.set()  # the hash holding the slot ends
    waiter.join()
    assert answer and answer[0].startswith("argon2$")


def test_a_fresh_process_queues_one_round_and_refuses_the_rest(bounded):
    gate = hashers.gate()  # one slot, 30 s of wait, no hash measured yet
    taken, free = threading.Event(), threading.Event()

    def hold() -> None:
        with gate.slot():
            taken.set()
            free.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(10)
    answer: list[str] = []
    waiter = threading.Thread(target=lambda: answer.append(make_password("pw-1-Queue!")))
    waiter.start()
    while gate.waiting == 0 and waiter.is_alive():
        time.sleep(0.01)
    try:
        with pytest.raises(hashers.HashQueueFull):  # a second round: refused at once
            make_password("correct-horse-battery-9")
    finally:
        free.set()
        holder.join()
        waiter.join()
    assert answer and answer[0].startswith("argon2$")  # the first round was served


@pytest.mark.django_db
def test_api_sign_up_when_busy_is_503_with_retry_after(busy):
    answer = APIClient().post("/api/auth/register/",
                              {"username": "zoe", "password": PASSWORD}, format="json")
    assert answer.status_code == 503
    assert answer.json()["code"] == "unavailable" and answer.json()["detail"]
    assert int(answer["Retry-After"]) >= 1
    assert not User.objects.filter(username="zoe").exists()


@pytest.mark.django_db
def test_api_log_in_when_busy_is_503_with_retry_after(busy):
    pbkdf2_user("alice")
    answer = APIClient().post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                              format="json")
    assert (answer.status_code, answer.json()["code"]) == (503, "unavailable")
    assert int(answer["Retry-After"]) >= 1


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["/accounts/register/", "/accounts/login/"])
def test_sign_up_and_log_in_pages_when_busy_are_503_with_retry_after(busy, client, page):
    pbkdf2_user("alice")
    answer = client.post(page, {"username": "alice", "password": PASSWORD,
                                "password1": PASSWORD, "password2": PASSWORD})
    assert answer.status_code == 503
    seconds = int(answer["Retry-After"])
    assert seconds >= 1
    assert f"try again in {seconds} second" in answer.content.decode()
