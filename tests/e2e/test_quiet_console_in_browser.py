"""A quiet console (issue 45, item 10): an evening's plumbing (sockets opened and closed,
log-ins, static files) writes nothing at make run's LOG_LEVEL=info; a real event still
does. The server runs as make run runs it (DEBUG on, uvicorn, INFO)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import services
from tests.e2e.conftest import live_game, live_user, log_in, run_in_browser
from tests.live.servers import Server, start, stop

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NOISE = ["connection open", "connection closed", "[accepted]", "AXES",
         "StreamingHttpResponse"]


@pytest.fixture
def server(django_db_setup: Any, django_db_blocker: Any,
           tmp_path_factory: Any) -> Iterator[Server]:
    with django_db_blocker.unblock():
        found = start(tmp_path_factory.mktemp("quiet"), server="uvicorn",
                      env={"LOG_LEVEL": "info", "DJANGO_DEBUG": "true"})
    try:
        yield found
    finally:
        stop(found)


def test_an_evening_of_plumbing_writes_no_console_lines(server: Server) -> None:
    alice, bob = live_user("alice"), live_user("bob")
    game = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=game.pk, user=bob)
    before = len(server.log.read_text().splitlines())

    def scenario(new_page: Any) -> None:
        for name in ("alice", "bob"):
            page = new_page()
            log_in(page, name)
            for _ in range(2):  # sockets opened, closed, opened again
                live_game(page, f"/games/{game.pk}/")
            page.goto("/")
            page.close()

    run_in_browser(server, scenario)
    lines = server.log.read_text().splitlines()[before:]
    noisy = [line for line in lines if any(word in line for word in NOISE)]
    assert noisy == [], noisy
    assert len(lines) <= 2, lines  # nothing happened that an operator needs to read
