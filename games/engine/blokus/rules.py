"""The rules of the Blokus kinds (blokus, blokus2, blokus_duo), docs/rules.md#blokus.

Why it is fast: a position is one bitboard per colour; every placement is precomputed
as a mask (geometry.py), so checking one is two ``&`` and listing them only visits the
placements covering the colour's attachment squares. Nothing here imports Django.
"""

from __future__ import annotations

from ..common import LEGAL, PASS, Legality, Pass, Result, check_leave
from ..errors import brief
from ..protocol import EventLog, KindInfo, SeatInfo
from ..words import gettext_noop
from . import notation, outcome, render
from .actions import Action, Event, Place, parse_place_action
from .geometry import Geometry
from .pieces import FULL_HAND, INDEX, SIZES
from .state import State
from .state_json import state_from_json


class BlokusRules(EventLog):
    """Rules object of one Blokus kind; stateless, so one shared instance is fine."""

    family = "blokus"
    action_types = (Place, Pass)

    def __init__(
        self,
        kind: str,
        title: str,
        summary: str,
        geo: Geometry,
        colours: tuple[SeatInfo, ...],
        colour_seats: tuple[int, ...],
        start_word: str,
    ) -> None:
        self.kind = kind
        self.geo = geo
        self.colours = colours
        self.colour_seats = colour_seats
        self.start_word = start_word  # "corner" or "start square", for messages
        self.ncolours = len(colour_seats)
        self.seats = max(colour_seats) + 1
        self.max_plies = 100 * self.seats
        self.info = KindInfo(
            kind=kind,
            family=self.family,
            title=title,
            summary=summary,
            seats=self.seats,
            rows=geo.size,
            cols=geo.size,
            colours=colours,
            colour_seats=colour_seats,
            move_limit=self.max_plies,
            measure_name=gettext_noop("score"),
            measure_higher_is_better=True,
            # 21 pieces a colour; a seat of blokus2 places up to 42
            clock=(300, 3) if self.ncolours == self.seats else (480, 3),
        )

    def __repr__(self) -> str:
        return f"<Rules {self.kind}: {self.seats} seats, {self.ncolours} colours>"

    # -- states -------------------------------------------------------------------------

    def initial(self) -> State:
        """The starting position: colour 0 (seat 0) to move, every hand full."""
        n = self.ncolours
        return State(
            self.kind,
            0,
            0,
            (0,) * n,
            (FULL_HAND,) * n,
            (False,) * n,
            (None,) * n,
            (True,) * self.seats,
            0,
            (),
            self.geo,
        )

    def state_from_json(self, obj: object) -> State:
        """Build a validated state from JSON; raises ``InvalidState`` with the reason."""
        return state_from_json(self, obj)

    def able(
        self, colour: int, hand: tuple[int, ...], out: tuple[bool, ...], in_game: tuple[bool, ...]
    ) -> bool:
        """Whether ``colour`` still takes turns: not out, pieces left, its seat playing."""
        return bool(hand[colour]) and not out[colour] and in_game[self.colour_seats[colour]]

    def next_colour(
        self, after: int, hand: tuple[int, ...], out: tuple[bool, ...], in_game: tuple[bool, ...]
    ) -> int | None:
        """The first colour after ``after`` (cyclically, itself last) that still plays."""
        n = self.ncolours
        for k in range(1, n + 1):
            c = (after + k) % n
            if self.able(c, hand, out, in_game):
                return c
        return None

    # -- parsing ------------------------------------------------------------------------

    def parse_action(self, obj: object) -> Action:
        """Untrusted JSON to an action of this kind; raises ``InvalidAction``."""
        return parse_place_action(obj, self.geo.size)

    # -- queries ------------------------------------------------------------------------

    def _pids(self, state: State) -> list[int]:
        """Placement ids legal for the colour to move (cached on the state)."""
        cached: list[int] | None = state.cache.get("pids")
        if cached is None:
            c = state.colour
            if c is None:
                cached = []
            else:
                cached = self.geo.generate(
                    state.hand[c], state.occ[c], state.occupied, self.geo.start_bits[c]
                )
            state.cache["pids"] = cached
        return cached

    def legal_actions(self, state: State) -> list[Action]:
        """Every placement of the colour to move once, by piece then squares; or [PASS]."""
        if state.colour is None:
            return []
        pids = self._pids(state)
        if not pids:
            return [PASS]
        places = self.geo.tables.places
        return [places[pid] for pid in pids]

    def must_pass(self, state: State) -> bool:
        """True iff the game runs and the colour to move has no placement."""
        c = state.colour
        if c is None:
            return False
        pids = state.cache.get("pids")
        if pids is not None:
            return not pids
        return not self.geo.any_placement(
            state.hand[c], state.occ[c], state.occupied, self.geo.start_bits[c]
        )

    def _pid_of(self, place: Place) -> int | None:
        """The placement id of ``place``, None if it is no placement on this board."""
        lookup = self.geo.tables.lookup
        try:
            pid = lookup.get(place)
            if pid is None and list(place.cells) != sorted(place.cells):
                pid = lookup.get(Place(place.piece, tuple(sorted(place.cells))))
        except TypeError:  # a hand-built Place with lists or junk for cells
            return None
        return pid

    def _check(self, state: State, action: Action, seat: int | None) -> tuple[Legality, int]:
        c = state.colour
        if c is None:
            return Legality(False, "game is over"), -1
        if seat is not None and seat != state.turn:
            return Legality(False, "not your turn"), -1
        if isinstance(action, Pass):
            if not self.must_pass(state):
                return Legality(False, "pass is legal only when no piece can be placed"), -1
            return LEGAL, -1
        name = action.piece
        p = INDEX.get(name) if isinstance(name, str) else None
        if p is None:
            return Legality(False, f"unknown piece {brief(name)}"), -1
        if not (state.hand[c] >> p) & 1:
            return Legality(False, f"you have already placed {name}"), -1
        pid = self._pid_of(action)
        if pid is None:
            return Legality(False, self._shape_refusal(action)), -1
        geo = self.geo
        m = geo.tables.masks[pid]
        taken = m & state.occupied
        if taken:
            r, col = geo.squares(taken)[0]
            return Legality(False, f"{name} overlaps a piece on [{r},{col}]"), -1
        own = state.occ[c]
        if not own:
            if not m & geo.start_bits[c]:
                r, col = geo.starts[c]
                why = f"your first piece must cover your {self.start_word} [{r},{col}]"
                return Legality(False, why), -1
            return LEGAL, pid
        if m & geo.edges(own):
            return Legality(False, f"{name} shares an edge with your own piece"), -1
        if not m & geo.diagonals(own):
            colour = self.colours[c].name
            return Legality(False, f"{name} must touch a corner of your own {colour} piece"), -1
        return LEGAL, pid

    def _shape_refusal(self, action: Place) -> str:
        name = action.piece
        size = self.geo.size
        try:
            cells = {(r, c) for r, c in action.cells}
            if any(not (0 <= r < size and 0 <= c < size) for r, c in cells):
                return f"{name} does not fit on the board"
        except (TypeError, ValueError):
            return f"not the shape of {name}"
        want = SIZES[INDEX[name]]
        if len(cells) != want:
            return f"not the shape of {name}: it covers {want} squares, not {len(cells)}"
        return f"not the shape of {name}"

    # -- transitions --------------------------------------------------------------------

    def _play(self, state: State, action: Action, pid: int) -> State:
        c = state.colour
        assert c is not None
        if isinstance(action, Pass):
            out = list(state.out)
            out[c] = True
            return self._after(state, out=tuple(out))
        tables = self.geo.tables
        occ = list(state.occ)
        occ[c] |= tables.masks[pid]
        hand = list(state.hand)
        hand[c] &= ~(1 << tables.piece_of[pid])
        last = list(state.last_piece)
        last[c] = action.piece
        return self._after(state, occ=tuple(occ), hand=tuple(hand), last_piece=tuple(last))

    def leave(self, state: State, seat: int, why: str = "resign") -> State:
        """``seat`` resigns, times out or is removed; its pieces stay on the board."""
        seat = check_leave(state, self.seats, seat, why)
        in_game = list(state.in_game)
        in_game[seat] = False
        return self._after(
            state,
            in_game=tuple(in_game),
            left_order=(*state.left_order, seat),
            advance=seat == state.turn,
        )

    def _after(
        self,
        state: State,
        *,
        occ: tuple[int, ...] | None = None,
        hand: tuple[int, ...] | None = None,
        out: tuple[bool, ...] | None = None,
        last_piece: tuple[str | None, ...] | None = None,
        in_game: tuple[bool, ...] | None = None,
        left_order: tuple[int, ...] | None = None,
        advance: bool = True,
    ) -> State:
        """The next state, with the given fields changed: whose colour is up (skipping,
        without events, every colour that is out, finished or whose seat left), or that
        the game is over. ``advance`` is False when a seat leaves out of turn."""
        occ = state.occ if occ is None else occ
        hand = state.hand if hand is None else hand
        out = state.out if out is None else out
        last_piece = state.last_piece if last_piece is None else last_piece
        in_game = state.in_game if in_game is None else in_game
        left_order = state.left_order if left_order is None else left_order
        ply = state.ply + 1
        colour = state.colour
        assert colour is not None
        if advance:
            colour = self.next_colour(colour, hand, out, in_game)
        turn = None if colour is None else self.colour_seats[colour]
        if colour is None or sum(in_game) <= 1 or ply >= self.max_plies:
            colour = turn = None
        return State(
            self.kind,
            turn,
            colour,
            occ,
            hand,
            out,
            last_piece,
            in_game,
            ply,
            left_order,
            self.geo,
        )

    # -- outcome ------------------------------------------------------------------------

    def colour_score(self, state: State, colour: int) -> int:
        """-1 per square in hand; +15 with every piece placed, +5 more if I1 came last."""
        return outcome.colour_score(state.hand[colour], state.last_piece[colour])

    def scores(self, state: State) -> tuple[int, ...]:
        """Each seat's score: the sum of its colours' (leavers included)."""
        return outcome.seat_scores(self, state)

    def result(self, state: State) -> Result | None:
        """None while the game runs; else winner, ranking, reason and scores."""
        return outcome.result(self, state)

    def measure(self, state: State, seat: int) -> int | None:
        """``seat``'s current score (None once it left the game)."""
        if not 0 <= seat < self.seats or not state.in_game[seat]:
            return None
        return self.scores(state)[seat]

    # -- text -----------------------------------------------------------------------------

    def format_action(self, event: Event) -> str:
        """Compact notation of an action, pass or leave event (see notation.py)."""
        return notation.format_event(self, event)

    def parse_notation(self, text: str) -> Event:
        """Inverse of ``format_action``; raises ``InvalidAction``."""
        return notation.parse_event(self, text)

    def render(self, state: State) -> str:
        """ASCII picture of the board, one letter per colour."""
        return render.render(self, state)
