"""The one interface every game family implements (OpenSpiel's Game/State, typed).

The platform (services, consumers, API, replays, ratings, clocks, bots, the page) talks
only to these protocols: it never imports a family's module, tests ``isinstance``
against a family's classes or names a game kind. A family lives in its own subpackage
(``barrier/``, ``blockade/``, ``blokus/``), declares itself once (``FAMILY``,
``family.py``) and is listed in ``registry.py``.

States are immutable values: ``apply`` and ``leave`` return new ones. Actions and
events are frozen dataclasses with ``to_json()``; their JSON is the API's form (docs/api.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from .common import LEAVE_REASONS, Leave, Legality, Result, parse_leave
from .errors import IllegalAction, InvalidAction, brief


@runtime_checkable
class ActionLike(Protocol):
    """An action or event value: hashable, comparable, with its JSON (docs/api.md)."""

    def to_json(self) -> dict[str, Any]: ...


class GameState(Protocol):
    """One position of any kind. ``turn`` is the seat to move, None once it is over."""

    @property
    def turn(self) -> int | None: ...

    @property
    def ply(self) -> int: ...

    @property
    def in_game(self) -> tuple[bool, ...]: ...

    @property
    def is_over(self) -> bool: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """How a seat (or, in Blokus, a colour) is shown: name, hex colour, one-letter mark."""

    name: str
    colour: str
    initial: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "initial": self.initial}


@dataclass(frozen=True, slots=True)
class KindInfo:
    """What the platform shows about a kind without knowing it: names, board, seats.

    ``family`` picks the page's board module (``static/js/boards/<family>.js``) and the
    server's SVG drawer; ``colours`` lists the seats' colours, or in Blokus every colour
    with ``colour_seats`` saying which seat plays it.
    """

    kind: str
    family: str
    title: str
    summary: str
    seats: int
    rows: int
    cols: int
    colours: tuple[SeatInfo, ...]
    colour_seats: tuple[int, ...] = field(default=())
    move_limit: int = 0
    measure_name: str = ""  # what ``Rules.measure`` counts ("steps to goal", "score")
    measure_higher_is_better: bool = False
    # The clock a timed game of this kind gets by default (ranked play): initial seconds
    # and the increment per move, sized to how many moves a seat makes in a typical game.
    clock: tuple[int, int] = (180, 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "family": self.family,
            "title": self.title,
            "summary": self.summary,
            "seats": self.seats,
            "rows": self.rows,
            "cols": self.cols,
            "colours": [c.to_json() for c in self.colours],
            "colour_seats": list(self.colour_seats or range(self.seats)),
            "move_limit": self.move_limit,
            "measure_name": self.measure_name,
            "measure_higher_is_better": self.measure_higher_is_better,
            "clock": {"initial": self.clock[0], "increment": self.clock[1]},
        }


class Rules(Protocol):
    """The rules of one game kind. Stateless: one shared instance per kind.

    Errors: ``InvalidAction`` for input that is not an action of this kind at all,
    ``IllegalAction`` for a well-formed action the position refuses, ``InvalidState``
    for a malformed state (all ``EngineError``, a ``ValueError``).
    """

    kind: str
    family: str
    seats: int
    max_plies: int
    info: KindInfo

    # states
    def initial(self) -> Any: ...
    def state_from_json(self, obj: object) -> Any: ...

    # parsing untrusted input
    def parse_action(self, obj: object) -> Any: ...
    def parse_event(self, obj: object) -> Any: ...

    # queries
    def legal_actions(self, state: Any) -> list[Any]: ...
    def is_legal(self, state: Any, action: object, seat: int | None = None) -> Legality: ...
    def must_pass(self, state: Any) -> bool: ...
    def result(self, state: Any) -> Result | None: ...

    # transitions
    def apply(self, state: Any, action: object) -> Any: ...
    def leave(self, state: Any, seat: int, why: str = "resign") -> Any: ...
    def apply_event(self, state: Any, event: Any) -> Any: ...
    def replay(self, events: list[Any], start: Any = None) -> Any: ...

    # text
    def format_action(self, event: Any) -> str: ...
    def parse_notation(self, text: str) -> Any: ...
    def format_game(self, events: list[Any]) -> str: ...
    def parse_game(self, text: str) -> list[Any]: ...
    def render(self, state: Any) -> str: ...

    # how a seat stands, for analysis charts, hints and bots: ``info.measure_name``
    # says what it counts (barrier games: steps to goal; Blokus: score); None when the
    # seat left or the number means nothing in this position
    def measure(self, state: Any, seat: int) -> int | None: ...


class EventLog:
    """What every family's rules do the same way over the protocol's primitives
    (``parse_action``, ``_check``, ``_play``, ``leave``, ``initial``, ``format_action``,
    ``parse_notation``): a family's Rules class inherits it and names its action classes
    (pass included) in ``action_types``."""

    action_types: ClassVar[tuple[type, ...]] = ()

    def parse_event(self, obj: object) -> Any:
        """Server-side event JSON: an action, or ``{"type": "resign", "seat": s}`` etc."""
        if isinstance(obj, dict) and obj.get("type") in LEAVE_REASONS:
            return parse_leave(obj, self.seats)  # type: ignore[attr-defined]
        return self.parse_action(obj)  # type: ignore[attr-defined]

    def _coerce(self, action: object) -> Any:
        """An action object as it is, or one parsed from JSON; a ``Leave`` is refused."""
        if isinstance(action, self.action_types):
            return action
        if isinstance(action, Leave):
            raise InvalidAction("leaving is not an action: use Rules.leave()")
        return self.parse_action(action)  # type: ignore[attr-defined]

    def _check(self, state: Any, action: Any, seat: int | None) -> tuple[Legality, Any]:
        """Whether ``action`` is legal now, and a plan: what ``_play`` needs to play it."""
        raise NotImplementedError

    def _play(self, state: Any, action: Any, plan: Any) -> Any:
        """The state after ``action``, which ``_check`` found legal with ``plan``."""
        raise NotImplementedError

    def is_legal(self, state: Any, action: object, seat: int | None = None) -> Legality:
        """Whether the seat to move (or ``seat``, if given) may play ``action`` now."""
        return self._check(state, self._coerce(action), seat)[0]

    def apply(self, state: Any, action: object, seat: int | None = None) -> Any:
        """The state after ``action``; raises ``IllegalAction`` (input never mutated)."""
        action = self._coerce(action)
        legality, plan = self._check(state, action, seat)
        if not legality:
            raise IllegalAction(legality.reason or "illegal")
        return self._play(state, action, plan)

    def apply_event(self, state: Any, event: Any) -> Any:
        """Apply an action, a pass or a ``Leave`` (or their JSON, see ``parse_event``)."""
        if isinstance(event, dict):
            event = self.parse_event(event)  # type: ignore[attr-defined]
        if isinstance(event, Leave):
            return self.leave(state, event.seat, event.why)  # type: ignore[attr-defined]
        return self.apply(state, event)  # type: ignore[attr-defined]

    def replay(self, events: list[Any], start: Any = None) -> Any:
        """The state after ``events`` (objects or JSON) from ``start`` or the initial one."""
        state = self.initial() if start is None else start  # type: ignore[attr-defined]
        for event in events:
            state = self.apply_event(state, event)
        return state

    def format_game(self, events: list[Any]) -> str:
        """A whole game (actions, passes, leaves) on one line."""
        return " ".join(self.format_action(e) for e in events)  # type: ignore[attr-defined]

    def parse_game(self, text: str) -> list[Any]:
        """Inverse of ``format_game``: the events, in order (not yet checked for legality)."""
        if not isinstance(text, str):
            raise InvalidAction(f"notation must be a string, not {brief(text)}")
        return [self.parse_notation(token) for token in text.split()]  # type: ignore[attr-defined]
