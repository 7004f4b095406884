"""The API keeps the promises of its own OpenAPI schema (`/api/schema/`), checked by
schemathesis: for every operation, generated requests that fit the schema and requests
that break it, sent with a real token to real data (a game in play, a finished one, a
waiting one, users with ratings), get no 5xx, and every answer (status, headers, body)
is one the schema documents.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from games import services
from tests.conftest import make_user
from tests.games.helpers import play, started_game
from tests.hostile.conftest import IN_CI, tracebacks

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Per operation and generation mode (positive, negative): ~20 operations in ~1.5 minutes.
EXAMPLES = 50

# Operations that refuse some schema-valid requests with a documented 400 for reasons no
# schema can state: there "positive data" may get a 400 (and every other check still
# holds). Anything not listed here must accept what its schema allows.
SEMANTIC_400 = {
    ("POST", "/api/auth/register/"): "password strength rules; a name already taken",
    ("POST", "/api/auth/token/"): "wrong credentials (`invalid_credentials`)",
    ("POST", "/api/games/{game_id}/actions/"): "an action the rules forbid (`illegal_action`)",
    ("POST", "/api/games/{game_id}/join/"): "a seat number beyond this game's seats",
    ("GET", "/api/games/{game_id}/replay/"): "a ply beyond the game's current ply",
    ("POST", "/api/tournaments/"): "a Swiss needs rounds and an Arena minutes (one or the "
                                    "other by `system`), an Arena only for a two-seat kind "
                                    "with a live clock, a start within 30 days",
    ("GET", "/api/games/{game_id}/analysis/{ply}/best/"):
        "a ply beyond the game, or a position nobody is to move in",
    ("POST", "/api/games/"): "more bots than the kind has seats besides yours (`too_many_bots`)",
    ("POST", "/api/games/{game_id}/bots/"): "a seat number beyond this game's seats",
    ("POST", "/api/games/{game_id}/seats/{seat}/bot/"): "a seat number beyond this game's seats",
    ("PATCH", "/api/me/"): "an e-mail address that is not one (`invalid_email`); a change "
                           "without the account's password (`password_required`, "
                           "`invalid_credentials`)",
}
DEFAULT_ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
CONFIG = schemathesis.Config.from_dict({"operations": [
    {"include-method": method, "include-path": path,
     "checks": {"positive_data_acceptance": {"expected-statuses": [*DEFAULT_ACCEPTED, "400"]}}}
    for method, path in SEMANTIC_400
]})


@pytest.fixture
def seeded() -> dict[str, Any]:
    """Real data for the generated requests to land on, and a token to send them with."""
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    active = started_game([alice, bob], kind="bloqueio2")
    play(active, [alice, bob], [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [8, 5]}])
    finished = started_game([carol, dave], kind="quoridor")
    services.resign(game_id=finished.pk, user=dave)
    waiting = services.create_game(user=carol, kind="bloqueio")
    return {
        "headers": {"Authorization": f"Token {alice.auth_token.key}"},
        "path": [{"game_id": active.pk, "username": "alice", "kind": "bloqueio2"},
                 {"game_id": finished.pk, "username": "carol", "kind": "quoridor"},
                 {"game_id": waiting.pk, "username": "dave", "kind": "bloqueio"}],
    }


def _cases(operation: Any, path: list[dict[str, Any]]) -> st.SearchStrategy[Any]:
    """Cases of both generation modes, about half of them on the seeded objects (random
    ids and names alone would mostly meet 404s)."""
    names = {p.name for p in operation.path_parameters}
    variants: list[dict[str, Any] | None] = [None]
    if names:
        variants += [{k: v for k, v in p.items() if k in names} for p in path]
    return st.one_of(*[
        operation.as_strategy(generation_mode=mode, path_parameters=fixed)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
        for fixed in variants
    ])


# Many tests in one (every operation, 100 cases each): its time scales with the
# machine's load (about 1.5 minutes on a quiet two-core machine, over five when other
# processes take the cores). The suite's 300 s timeout fired inside Hypothesis there,
# and was then reported as an operation's "inconsistent results", not as a timeout.
@pytest.mark.timeout(1200)
def test_every_operation_conforms_to_the_schema(
    seeded: dict[str, Any], warning_log: list[logging.LogRecord],
) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(),
                                            config=CONFIG)
    failures: dict[str, str] = {}
    checked = 0
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(max_examples=2 * EXAMPLES, deadline=None, derandomize=IN_CI,
                  database=None, suppress_health_check=list(HealthCheck))
        @given(case=_cases(operation, seeded["path"]))
        def conforms(case: Any) -> None:
            response = case.call(headers=seeded["headers"])
            case.validate_response(response, headers=seeded["headers"])

        try:
            conforms()
        except (Exception, BaseExceptionGroup) as exc:  # report every operation's failures
            failures[operation.label] = str(exc)[:3000]
        checked += 1
    assert checked >= 20, "the schema lost operations"
    assert failures == {}, "\n\n".join(f"== {k}\n{v}" for k, v in failures.items())
    assert tracebacks(warning_log) == []
