"""Sub-protocols: conversations another app carries over the game socket (chat).

The game socket (`games.live.game_socket`) owns the game's frames; an app above games
(chat/apps.py, in `ready()`) registers what it adds, so games never imports that app
(docs/architecture.md, "Layers"). A sub-protocol gives: the client frames it answers, the
fan-out messages it relays, an SQL flag read in the socket's one `hello` statement (is
there anything to send?), its history frame after `hello` and on a `sync` that asks for
it, and whether a socket may see a fan-out message.
"""

from __future__ import annotations

from typing import Any, Protocol


class GameSocket(Protocol):
    """What a sub-protocol may use of the game socket."""

    game_id: int
    user: Any
    user_id: int | None
    seat: int | None
    status: str
    in_game: list[bool] | None
    moderator: bool

    async def send_json(self, content: dict[str, Any]) -> None: ...

    def error(self, code: str, detail: Any, ref: Any = None,
              params: dict[str, Any] | None = None) -> dict[str, Any]: ...

    def in_language(self, function: Any) -> Any: ...

    async def answer(self, ref: Any, call: Any, ack: Any, *, what: str) -> None: ...


class SubProtocol(Protocol):
    """One conversation over the game socket; names must not clash with the game's."""

    client_frames: frozenset[str]  # frame types from the client it answers
    hub_type: str  # the fan-out message type it relays (its `frame`, as is)
    hello_flag_sql: str  # SQL truth value over the game `g`: anything for `history`?
    history_frame: str  # the type of its history frame (`messages`: the list)
    sync_field: str  # the `sync` field asking for its history after an id
    sync_field_error: Any  # the `invalid` detail for a bad `sync_field` (lazy text)

    def history(self, game: Any, user: Any, after_id: int | None) -> list[dict[str, Any]]:
        """Blocking: its history for `user` (after `after_id`; None: the latest)."""

    async def handle(self, socket: GameSocket, kind: str, content: dict[str, Any],
                     ref: Any) -> None:
        """Answer one of `client_frames`."""

    def relays(self, socket: GameSocket, message: dict[str, Any]) -> bool:
        """Whether `socket` may see this fan-out message of `hub_type`."""


_REGISTERED: list[SubProtocol] = []


def register(protocol: SubProtocol) -> None:
    """Add `protocol` to every game socket; call it from an app's `ready()`."""
    if any(p.hub_type == protocol.hub_type for p in _REGISTERED):
        return  # ready() may run twice (tests); one registration
    _REGISTERED.append(protocol)


def registered() -> tuple[SubProtocol, ...]:
    return tuple(_REGISTERED)


def for_frame(kind: str) -> SubProtocol | None:
    return next((p for p in _REGISTERED if kind in p.client_frames), None)


def for_hub(kind: str) -> SubProtocol | None:
    return next((p for p in _REGISTERED if p.hub_type == kind), None)
