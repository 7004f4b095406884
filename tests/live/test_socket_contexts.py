"""A socket's work on the event loop makes no Django connection.

Django keeps its connections per context under ASGI, and every socket runs in a context
of its own (as the ASGI servers start each connection's task, and as
`WebsocketCommunicator` does). A lookup of `django.db.connection` there makes a
DatabaseWrapper for that socket alone (its operations, features, client and the rest,
pointing back at it): it is never connected, only built, and left to the garbage
collector when the socket goes. Under play every socket's `hello` and first move made
one (docs/performance.md, "Placed by load"). The loop's own reads and writes
(bloqueio_site/loop_db.py) need none: what they take from Django is looked up once.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper

from bloqueio_site import loop_db
from games import table
from games.live import hello
from tests.openings import MOVE0
from tests.ws_helpers import game_socket, receive_type, seat_four

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def wrappers_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every DatabaseWrapper made from here on (its class name)."""
    made: list[str] = []
    init = BaseDatabaseWrapper.__init__

    def counted(self: BaseDatabaseWrapper, *args: Any, **kwargs: Any) -> None:
        made.append(type(self).__name__)
        init(self, *args, **kwargs)

    monkeypatch.setattr(BaseDatabaseWrapper, "__init__", counted)
    return made


async def test_a_socket_opened_played_and_closed_on_the_loop_makes_no_connection(
        wrappers_made: list[str]) -> None:
    assert loop_db.enabled()
    gid, users = await seat_four()
    warm = await game_socket(gid, None)  # the loop's own connection opens outside the count
    await warm.disconnect()
    made_before = len(wrappers_made)
    hellos, writes = hello.counts["on_loop"], table.counts["written"]
    player, watcher = await game_socket(gid, users[0]), await game_socket(gid, None)
    await player.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 1})
    assert (await receive_type(player, "ack"))["ply"] == 1
    assert (await receive_type(watcher, "event"))["event"]["ply"] == 1
    for comm in (player, watcher):
        await comm.disconnect()
    assert hello.counts["on_loop"] == hellos + 2  # both hellos were read on the loop
    assert table.counts["written"] == writes + 1  # and the move written there
    assert wrappers_made[made_before:] == []
