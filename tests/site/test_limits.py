"""bloqueio_site.limits: counting per key and window, scaling, and the refusal's shape."""

from __future__ import annotations

import pytest

from bloqueio_site import limits
from tests.conftest import clear_cache


@pytest.fixture(autouse=True)
def _clear_cache() -> None:
    clear_cache()


def test_within_then_over_the_limit_in_one_window() -> None:
    limit = limits.Rate("test-window", 3, 60)
    now = 600.0  # the start of a window
    assert [limits.hit(limit, "a", now=now) for _ in range(3)] == [None, None, None]
    assert limits.hit(limit, "a", now=now + 10) == 50  # refused until the window ends
    assert limits.hit(limit, "b", now=now) is None  # another key counts apart
    assert limits.hit(limit, "a", now=now + 60) is None  # the next window starts afresh


def test_check_raises_rate_limited_with_retry_after() -> None:
    limit = limits.Rate("test-check", 1, 3600)
    limits.check(limit, "x", "Too many tries")
    with pytest.raises(limits.RateLimited) as caught:
        limits.check(limit, "x", "Too many tries")
    error = caught.value
    assert error.status == 429 and error.code == "rate_limited"
    assert 1 <= error.retry_after <= 3600
    assert error.detail.startswith("Too many tries (at most 1 per hour); retry in ")
    assert error.as_dict()["retry_after"] == error.retry_after


@pytest.mark.parametrize(("wait", "said"), [
    (45, "45 seconds"), (119, "119 seconds"), (737, "13 minutes"), (3540, "59 minutes"),
    (3599, "an hour"), (7200, "2 hours")])
def test_a_refusal_says_when_it_lifts_as_a_person_reads_it(wait, said) -> None:
    """Not "retry in 737 seconds": whole minutes, rounded up, past two minutes; the
    exact seconds stay in `retry_after` (Retry-After)."""
    refused = limits.refusal(limits.Rate("test-wait", 5, 3600), "Too many tries", wait)
    assert refused.detail == f"Too many tries (at most 5 per hour); retry in {said}."
    assert refused.retry_after == wait


def test_scale_multiplies_every_count_and_the_variable_overrides_it() -> None:
    env = {"RATE_LIMIT_SCALE": "100", "SIGNUP_LIMIT": "7"}
    assert limits.rate("signup", "SIGNUP_LIMIT", 5, 3600, env).count == 700
    assert limits.rate("signup", "SIGNUP_LIMIT", 5, 3600, {}).count == 5
    assert limits.cap("SOCKETS", 20, {"RATE_LIMIT_SCALE": "0.01"}) == 1  # never below one
    assert limits.Rate("login", 10, 900).describe() == "10 per 15 minutes"


def test_address_comes_from_the_server_never_from_a_header() -> None:
    class Request:
        META = {"REMOTE_ADDR": "10.1.2.3", "HTTP_X_FORWARDED_FOR": "1.1.1.1"}

    assert limits.address_of(Request()) == "10.1.2.3"
    assert limits.address_of({"client": ("10.9.9.9", 5000)}) == "10.9.9.9"


def test_a_cooldown_refuses_until_its_time_from_the_first_hit_passed() -> None:
    pause = limits.Cooldown("test-cooldown", 300)
    limits.check_cooldown(pause, "a", "Sent already", now=1000.0)
    with pytest.raises(limits.RateLimited) as caught:
        limits.check_cooldown(pause, "a", "Sent already", now=1290.0)
    assert caught.value.retry_after == 10  # 300 s from the first hit, not a clock window
    assert caught.value.detail == "Sent already; retry in 10 seconds."
    limits.check_cooldown(pause, "b", "Sent already", now=1290.0)  # another key apart
    env = {"RATE_LIMIT_SCALE": "100", "EMAIL_CONFIRM_COOLDOWN": "600"}
    assert limits.cooldown("c", "EMAIL_CONFIRM_COOLDOWN", 300, env).seconds == 6
    assert limits.cooldown("c", "EMAIL_CONFIRM_COOLDOWN", 300, {}).seconds == 300
