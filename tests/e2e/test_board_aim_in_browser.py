"""What a player aims at is what is played (issue #28, items 2, 3 and 7).

A barrier board maps a pointer to a groove by one function for the hover preview and the
click, on every rotation of the board (each seat's view of a four-seat Bloqueio game):
at a groove's exact middle and at a crossing, the barrier previewed is the barrier sent.
Nothing above the board changes height when the notices come and go. A double-click on a
legal cell plays the move once and shows no refusal. Blokus Duo's words about the ghost
never disagree with its mark.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from games.models import Game
from tests.e2e.conftest import live_game, log_in, run_in_browser
from tests.e2e.test_blockade_in_browser import DESKTOP, center, open_game, user, wait_ply

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Frames the page would send are kept in window.sentFrames; send answers "offline", so
# the page never remembers one as in flight and every aim can be tried in one position.
CAPTURE = """() => {
  window.sentFrames = [];
  window.bloqueioSocket.send = (f) => { window.sentFrames.push(f); return false; };
}"""

# Client coordinates of a point of the board as displayed, in cells from its top left
# (lines at whole numbers): the same arithmetic whatever the rotation.
SCREEN = """([y, x]) => {
  const svg = document.querySelector('#board svg.board');
  const L = JSON.parse(document.getElementById('game-data').textContent).spec.layout;
  const p = svg.createSVGPoint();
  p.x = L.margin + x * L.cell; p.y = L.margin + y * L.cell;
  const q = p.matrixTransform(svg.getScreenCTM());
  return [q.x, q.y];
}"""


def game_of(kind: str, names: tuple[str, ...]) -> int:
    """A started game of `kind`, one seat per name, in order."""
    players = [user(name) for name in names]
    game = services.create_game(user=players[0], kind=kind)
    for other in players[1:]:
        services.join_game(game_id=game.pk, user=other)
    return game.pk


def four_seat_game() -> tuple[int, list[Any]]:
    names = ("alice", "bob", "carol", "dave")
    game_id = game_of("bloqueio", names)
    return game_id, [User.objects.get(username=name) for name in names]


def says(page: Any, node_id: str, text: str) -> None:
    page.wait_for_function("([i, t]) => document.getElementById(i).textContent.includes(t)",
                           arg=[node_id, text])


def board_top(page: Any) -> float:
    return page.locator("#board svg.board").bounding_box()["y"]


def aim(page: Any, point: tuple[float, float]) -> tuple[Any, Any]:
    """Hover a display point, read the preview, click there: (previewed, sent)."""
    x, y = page.evaluate(SCREEN, list(point))
    before = page.evaluate("window.sentFrames.length")
    page.mouse.move(x, y)
    line = page.locator("#board .preview line")
    previewed = None
    if line.count():
        previewed = (line.get_attribute("data-at"), line.get_attribute("data-orientation"))
    page.mouse.click(x, y)
    page.wait_for_function("n => window.sentFrames.length > n", arg=before)
    action = page.evaluate("window.sentFrames[window.sentFrames.length - 1].action")
    sent = None
    if action["type"] == "barrier":
        sent = (f'{action["at"][0]},{action["at"][1]}', action["orientation"])
    return previewed, sent


def test_preview_is_what_is_placed_at_groove_middles_and_crossings_on_every_rotation(
    server: Any,
) -> None:
    game_id, players = four_seat_game()
    # display points (rows, cols of lines and cells) well inside the 11x11 board: a
    # groove's exact middle on a row line, on a column line, and line crossings
    points = [(4, 4.5), (6, 5.5), (3.5, 5), (6.5, 7), (5, 5), (4, 7), (7, 3)]

    rotations = set()
    for seat, player in enumerate(players):

        def scenario(new_page: Any, seat: int = seat, player: Any = player) -> None:
            page = new_page(**DESKTOP)
            log_in(page, player.username)
            live_game(page, f"/games/{game_id}/")
            page.wait_for_selector(f'#board svg[data-ply="{seat}"][data-status="active"]')
            page.wait_for_selector("#board .legal-dot")
            rotations.add(page.get_attribute("#board svg.board", "data-rotation"))
            page.evaluate(CAPTURE)
            top = board_top(page)
            for point in points:
                previewed, sent = aim(page, point)
                assert sent is not None, f"seat {seat}: {point} played a move, not a barrier"
                assert previewed == sent, f"seat {seat} at {point}: {previewed} != {sent}"
                # the notices ("Click to place…", "You are offline…") never move the board
                assert board_top(page) == top
            assert page.errors == []

        run_in_browser(server, scenario)
        # the seat moves its pawn for real, so the next seat is to move
        game = Game.objects.get(pk=game_id)
        rules = engine.get(game.kind)
        move = next(a.to_json() for a in rules.legal_actions(rules.state_from_json(game.state))
                    if a.to_json()["type"] == "move")
        services.submit_action(game_id=game_id, user=player, action=move, ply=seat)
    assert rotations == {"0", "1", "2", "3"}


def test_a_double_click_on_a_legal_cell_plays_once_and_refuses_nothing(server: Any) -> None:
    game_id, _ = four_seat_game()

    def scenario(new_page: Any) -> None:
        page = new_page(**DESKTOP)
        log_in(page, "alice")
        live_game(page, f"/games/{game_id}/")
        page.wait_for_selector("#board .legal-dot")
        page.evaluate("""() => {
          window.sentFrames = [];
          const real = window.bloqueioSocket.send.bind(window.bloqueioSocket);
          window.bloqueioSocket.send = (f) => { window.sentFrames.push(f); return real(f); };
        }""")
        cell = page.eval_on_selector("#board rect.cell.legal",
                                     "e => [+e.dataset.row, +e.dataset.col]")
        x, y = center(page, *cell)
        # both clicks of a fast double-click reach the board before the server answers
        page.evaluate("""([x, y]) => {
          const svg = document.querySelector('#board svg.board');
          for (let i = 0; i < 2; i++) {
            svg.dispatchEvent(new MouseEvent('click', { clientX: x, clientY: y, bubbles: true }));
          }
        }""", [x, y])
        wait_ply(page, 1)
        # after one more round trip, a refusal of a second frame would have arrived
        page.evaluate("() => window.bloqueioSocket.sync()")
        page.wait_for_function("() => !window.bloqueioSocket.syncing")
        actions = page.evaluate("window.sentFrames.filter(f => f.type === 'action').length")
        assert actions == 1
        said = page.inner_text("#status-msg")
        assert "refused" not in said
        # a late second click, once the move is on the board: ignored quietly too
        page.mouse.click(x, y)
        assert page.inner_text("#status-msg") == said
        assert page.evaluate("window.sentFrames.filter(f => f.type === 'action').length") == 1
        assert page.errors == []

    run_in_browser(server, scenario)


def test_blokus_words_about_the_ghost_follow_its_mark(server: Any) -> None:
    """Blokus Duo said "does not fit here" beside a ghost marked ✓ on the start point:
    the words were about where the ghost had been before the mouse moved it."""
    from tests.e2e.test_blokus_in_browser import grip, key, legal, two_player_game

    game_id = two_player_game("blokus_duo")

    def scenario(new_page: Any) -> None:
        page = open_game(new_page, game_id, "alice", **DESKTOP)
        says(page, "status-line", "Your turn")
        first = legal(page, game_id)[0]
        page.click(f'.bk-piece[data-piece="{first["piece"]}"]')
        page.wait_for_selector('#board .ghost[data-ok="true"]', state="attached")
        for name in ["ArrowUp"] * 7 + ["ArrowRight"] * 7:  # far from the start point
            page.keyboard.press(name)
        says(page, "status-msg", "does not fit")
        page.mouse.move(*center(page, *grip(first["cells"])))
        page.wait_for_selector(f'#board .ghost[data-cells="{key(first["cells"])}"][data-ok="true"]',
                               state="attached")
        said = page.inner_text("#status-msg")
        assert "does not fit" not in said and "fits" in said
        assert page.errors == []

    run_in_browser(server, scenario)
