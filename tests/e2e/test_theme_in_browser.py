"""Themes and palettes in a real browser (issue #30, colours).

A browser that prefers dark gets the dark theme, and follows the system as it changes;
the header's Display menu switches the theme (light, dark, or the system's) and the
colour-blind palette, and both survive a reload. The palette repaints the seats on a
live board, the players list and the replay from games/engine/palettes.json, and every
seat also shows its letter: on pawns, barriers, goal zones and bands, Blockade Run's
goal rows and Blokus' squares. In both themes and both palettes, text meets WCAG AA
(4.5:1, large text 3:1) on what is behind it, and board pieces 3:1 against the board,
measured from the page's computed colours."""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from games.boards.colours import contrast, seat_styles, themes
from games.engine.palettes import PALETTES
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.test_blockade_in_browser import DESKTOP, PHONE, user
from tests.e2e.test_board_aim_in_browser import game_of

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RGB = tuple[float, float, float]


def rgba(css: str) -> tuple[float, float, float, float]:
    """A computed CSS colour ("rgb(1, 2, 3)", "rgba(1, 2, 3, 0.5)") as numbers."""
    parts = [float(v) for v in re.findall(r"[\d.]+", css)]
    assert len(parts) >= 3, css
    return parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0


def over(top: str, under: RGB, opacity: float = 1.0) -> RGB:
    """`top` painted with its alpha (times `opacity`) over `under`."""
    r, g, b, a = rgba(top)
    a *= opacity
    return r * a + under[0] * (1 - a), g * a + under[1] * (1 - a), b * a + under[2] * (1 - a)


def hexed(rgb: RGB) -> str:
    return "#" + "".join(f"{round(v):02x}" for v in rgb)


def ratio(a: RGB, b: RGB) -> float:
    return contrast(hexed(a), hexed(b))


def html_theme(page: Any) -> str:
    return page.evaluate("document.documentElement.dataset.theme")


def body_colours(page: Any) -> tuple[str, str]:
    """The page's background and text colours."""
    style = "getComputedStyle(document.body)"
    return tuple(page.evaluate(f"[{style}.backgroundColor, {style}.color]"))


def as_css(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return f"rgb({int(h[0:2], 16)}, {int(h[2:4], 16)}, {int(h[4:6], 16)})"


def choose(page: Any, control: str) -> None:
    """Open the header's Display menu and click one of its controls."""
    if not page.evaluate("document.getElementById('display-menu').open"):
        page.click("#display-menu summary")
    page.click(control)


def settle(page: Any) -> None:
    """Wait until no transition runs: a cell's fill eases to the new palette's colour
    (.12 s), and a reading taken half-way measures a colour nobody looks at."""
    page.wait_for_function(
        "document.getAnimations().every(a => a.playState !== 'running')")


# -- the theme -------------------------------------------------------------------------------


def test_a_dark_browser_gets_the_dark_theme_and_the_switch_survives_a_reload(server: Any) -> None:
    light, dark = themes()["light"], themes()["dark"]

    def scenario(new_page: Any) -> None:
        page = new_page(color_scheme="dark", **DESKTOP)
        page.goto("/")
        # The theme is set by a script in <head> that runs before the body is drawn (no
        # defer, no async, not a module): the first paint is already dark.
        assert page.evaluate("""(() => {
          const s = document.querySelector('head script[src*="js/theme.js"]');
          return !!s && !s.defer && !s.async && s.type !== 'module'; })()""")
        assert html_theme(page) == "dark"
        assert body_colours(page) == (as_css(dark["bg"]), as_css(dark["fg"]))
        assert page.is_checked("#theme-system")
        shot(page, "theme-lobby-dark")

        choose(page, "#theme-light")
        assert html_theme(page) == "light"
        assert body_colours(page) == (as_css(light["bg"]), as_css(light["fg"]))
        page.reload()
        assert html_theme(page) == "light" and page.is_checked("#theme-light")
        assert body_colours(page)[0] == as_css(light["bg"])
        # Back to the system's: dark again, and remembered as such.
        choose(page, "#theme-system")
        assert html_theme(page) == "dark"
        page.goto("/leaderboard/")
        assert html_theme(page) == "dark" and page.is_checked("#theme-system")
        # ...and it follows the system as the system changes, without a reload.
        page.emulate_media(color_scheme="light")
        page.wait_for_function("document.documentElement.dataset.theme === 'light'")
        page.emulate_media(color_scheme="dark")
        page.wait_for_function("document.documentElement.dataset.theme === 'dark'")

        # A light browser: light until the reader picks dark, on every page after.
        other = new_page(color_scheme="light", **PHONE)
        other.goto("/accounts/login/")
        assert html_theme(other) == "light"
        choose(other, "#theme-dark")
        assert html_theme(other) == "dark"
        other.goto("/")
        assert html_theme(other) == "dark"
        assert body_colours(other)[0] == as_css(dark["bg"])
        shot(other, "theme-phone-dark")
        assert page.errors == [] and other.errors == []

    run_in_browser(server, scenario)


# -- the palette and the second cue ------------------------------------------------------------

SEAT_FILLS = """() => [...document.querySelectorAll('#board g.pawn')].map((g) => [
  Number(g.dataset.seat), getComputedStyle(g.querySelector('circle')).fill])"""
CHIP_FILLS = """() => [...document.querySelectorAll('#players .chip')].map(
  (c) => getComputedStyle(c).backgroundColor)"""
WALL_STROKE = "l => getComputedStyle(l).stroke"
TEXTS_OF = "ns => ns.map((n) => n.textContent)"
LETTERS = """(sel) => [...document.querySelectorAll(sel)].map((n) => [
  n.closest('[data-seat]')?.dataset.seat ?? '', (n.querySelector('text') || n).textContent])"""


def letters(page: Any, selector: str) -> list[tuple[str, str]]:
    """(seat, letter) of every node of `selector` on the page's board, sorted."""
    return sorted((seat, text) for seat, text in page.evaluate(LETTERS, selector))


def expected_fills(kind: str, palette: str) -> dict[int, str]:
    return {s["seat"]: as_css(PALETTES[palette][s["slot"]]) for s in seat_styles(kind)}


def test_the_colour_blind_palette_repaints_the_seats_and_every_seat_shows_its_letter(
    server: Any,
) -> None:
    game_id = game_of("bloqueio", ("alice", "bob", "carol", "dave"))
    players = [User.objects.get(username=n) for n in ("alice", "bob", "carol", "dave")]
    # Two barriers, by Red and Blue: each shows its owner's letter.
    services.submit_action(game_id=game_id, user=players[0],
                           action={"type": "barrier", "at": [4, 4], "orientation": "H"}, ply=0)
    services.submit_action(game_id=game_id, user=players[1],
                           action={"type": "barrier", "at": [6, 2], "orientation": "V"}, ply=1)
    quoridor = game_of("quoridor4", ("erin", "frank", "grace", "heidi"))
    run = game_of("blockade_run", ("ivan", "judy"))
    styles = {s["seat"]: s for s in seat_styles("bloqueio")}

    def scenario(new_page: Any) -> None:
        page = new_page(**DESKTOP)
        log_in(page, "alice")
        live_game(page, f"/games/{game_id}/")
        page.wait_for_selector("#board g.wall")
        standard = expected_fills("bloqueio", "standard")
        blind = expected_fills("bloqueio", "colour-blind")
        assert dict(page.evaluate(SEAT_FILLS)) == standard
        assert page.evaluate(CHIP_FILLS) == [standard[s] for s in range(4)]
        wall_before = page.eval_on_selector("#board g.wall line", WALL_STROKE)

        choose(page, "#palette-colour-blind")
        assert page.evaluate("document.documentElement.dataset.palette") == "colour-blind"
        assert dict(page.evaluate(SEAT_FILLS)) == blind
        assert page.evaluate(CHIP_FILLS) == [blind[s] for s in range(4)]
        assert page.eval_on_selector("#board g.wall line", WALL_STROKE) != wall_before
        shot(page, "palette-colour-blind-bloqueio")

        # The second cue: pawns, barriers and goal zones carry their seat's letter.
        initial = {str(seat): s["initial"] for seat, s in styles.items()}
        assert letters(page, "#board g.pawn") == sorted(initial.items())
        walls = letters(page, "#board g.wall .wall-mark")
        assert walls == [("0", initial["0"]), ("1", initial["1"])]
        zones = page.eval_on_selector_all("#board text.zone-mark", TEXTS_OF)
        assert sorted(set(zones)) == sorted(s["initial"] for s in styles.values())
        assert len(zones) == 4 * 9  # every cell of every goal zone

        # Remembered: the replay and a reload show the colour-blind palette too.
        page.goto(f"/games/{game_id}/replay/")
        page.wait_for_selector("#board g.pawn")
        assert dict(page.evaluate(SEAT_FILLS)) == blind
        live_game(page, f"/games/{game_id}/")
        page.wait_for_selector("#board g.pawn")
        assert dict(page.evaluate(SEAT_FILLS)) == blind
        assert page.is_checked("#palette-colour-blind")

        # Quoridor's goal bands outside the board carry their seat's letter, on a phone too.
        phone = new_page(**PHONE)
        live_game(phone, f"/games/{quoridor}/")
        phone.wait_for_selector("#board g.pawn")
        q = {s["seat"]: s["initial"] for s in seat_styles("quoridor4")}
        assert letters(phone, "#board g.goal-mark") == sorted((str(s), q[s]) for s in range(4))
        shot(phone, "palette-standard-quoridor4-phone")
        # Blockade Run's goal rows: each cell of a goal row carries its seat's letter.
        live_game(phone, f"/games/{run}/")
        phone.wait_for_selector("#board g.pawn")
        rows = phone.eval_on_selector_all("#board text.zone-mark", TEXTS_OF)
        initials = [s["initial"] for s in seat_styles("blockade_run")]
        assert sorted(rows) == sorted(initials * engine.get("blockade_run").info.cols)
        assert page.errors == [] and phone.errors == []

    run_in_browser(server, scenario)


# -- contrast ---------------------------------------------------------------------------------

# Every visible element of these selectors that shows text of its own, with its colour,
# the colour behind it (its own or its nearest ancestors' backgrounds, composited) and
# whether it is large text (WCAG: 24 px, or 18.66 px bold).
TEXTS = """(selectors) => {
  const parse = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const ground = (el) => {
    const layers = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      const alpha = c.length > 3 ? c[3] : 1;
      if (c.length >= 3 && alpha > 0) { layers.push(c); if (alpha >= 1) break; }
    }
    let out = [255, 255, 255];
    for (const c of layers.reverse()) {
      const a = c.length > 3 ? c[3] : 1;
      out = [0, 1, 2].map((i) => c[i] * a + out[i] * (1 - a));
    }
    return `rgb(${out.join(", ")})`;
  };
  const out = [];
  for (const sel of selectors) {
    for (const el of document.querySelectorAll(sel)) {
      if (!el.getClientRects().length || el.closest('.hero, [hidden], [disabled]')) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const st = getComputedStyle(el);
      if (st.visibility === 'hidden' || Number(st.opacity) === 0) continue;
      const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
      out.push({ sel, text: el.textContent.trim().slice(0, 30), fg: st.color, bg: ground(el),
                 large: size >= 24 || (bold && size >= 18.66) });
    }
  }
  return out;
}"""

PAGE_TEXT = ["body", "main p", "main a", ".site-header a", "#display-menu summary", "h1", "h2",
             ".btn", ".muted", ".pill", ".player .name", ".player .clock", ".status-line",
             ".moves li button span", ".chip", "label", ".bk-scores span", ".bk-piece-name"]

# The board: its background and, per piece, what it is painted with (computed colours).
BOARD = """() => {
  const svgEl = document.querySelector('#board svg.board');
  const cs = (n) => getComputedStyle(n);
  const bg = cs(svgEl.querySelector('rect')).fill;
  const cellAt = (r, c) => svgEl.querySelector(`rect.cell[data-row="${r}"][data-col="${c}"]`);
  const paint = (n) => n && {
    fill: cs(n).fill, opacity: Number(cs(n).fillOpacity), stroke: cs(n).stroke };
  const parts = (g, what, piece) => ({
    what, piece: paint(g.querySelector(piece)), letter: paint(g.querySelector('text')) });
  const items = [];
  for (const g of svgEl.querySelectorAll('g.pawn')) {
    const under = paint(cellAt(g.dataset.row, g.dataset.col));
    items.push({ ...parts(g, 'pawn', 'circle'), under });
  }
  const each = (sel, what) => {
    for (const n of svgEl.querySelectorAll(sel)) items.push({ what, piece: paint(n) });
  };
  each('rect.goal', 'band');
  for (const g of svgEl.querySelectorAll('g.wall')) {
    items.push({ what: 'wall', piece: paint(g.querySelector('line')) });
  }
  for (const g of svgEl.querySelectorAll('.wall-mark, .goal-mark')) {
    items.push(parts(g, 'mark', 'circle'));
  }
  for (const t of svgEl.querySelectorAll('text.zone-mark')) {
    items.push({ what: 'zone', letter: paint(t), under: paint(t.previousElementSibling) });
  }
  for (const g of svgEl.querySelectorAll('g.square')) {
    items.push(parts(g, 'square', 'rect'));
  }
  each('path.outline', 'outline');
  for (const t of [...svgEl.querySelectorAll('text.label')].slice(0, 3)) {
    items.push({ what: 'label', letter: paint(t) });
  }
  const empty = svgEl.querySelector('rect.cell');
  return { bg, cell: paint(empty), items };
}"""


def check_texts(page: Any, where: str) -> int:
    found = page.evaluate(TEXTS, PAGE_TEXT)
    assert len(found) > 10, where
    for t in found:
        fg, bg = over(t["fg"], rgba(t["bg"])[:3]), rgba(t["bg"])[:3]
        need = 3.0 if t["large"] else 4.5
        assert ratio(fg, bg) >= need, (where, t, round(ratio(fg, bg), 2))
    return len(found)


def check_board(page: Any, where: str) -> set[str]:
    board = page.evaluate(BOARD)
    bg = rgba(board["bg"])[:3]
    cell = over(board["cell"]["fill"], bg, board["cell"]["opacity"])
    seen = set()
    for item in board["items"]:
        seen.add(item["what"])
        below = item.get("under")
        under = over(below["fill"], bg, below["opacity"]) if below else None
        piece = item.get("piece")
        if item["what"] in ("pawn", "wall", "outline", "band"):
            ground = under or (cell if item["what"] == "outline" else bg)
            edge = ratio(over(piece["stroke"], ground), ground)
            filled = piece["fill"] != "none"
            fill = ratio(over(piece["fill"], ground, piece["opacity"]), ground) if filled else 0
            # A piece stands out from the board by its fill or its outline (WCAG 1.4.11).
            assert max(edge, fill) >= 3.0, (where, item, edge, fill)
        if item.get("letter"):  # on its piece, else on the cell or board under it
            below = under or bg
            behind = over(piece["fill"], below, piece["opacity"]) if piece else below
            letter = over(item["letter"]["fill"], behind, item["letter"]["opacity"])
            assert ratio(letter, behind) >= 4.5, (where, item, ratio(letter, behind))
    return seen


def test_text_and_board_pieces_meet_aa_in_both_themes_and_palettes(server: Any) -> None:
    names = ("alice", "bob", "carol", "dave")
    players = [user(n) for n in names]
    ranked = services.start_ranked_game(kind="bloqueio", user_ids=[p.pk for p in players])
    services.submit_action(game_id=ranked.pk, user=players[0],
                           action={"type": "barrier", "at": [4, 4], "orientation": "H"}, ply=0)
    services.submit_action(game_id=ranked.pk, user=players[1],
                           action={"type": "move", "to": [5, 8]}, ply=1)
    run = game_of("blockade_run", ("erin", "frank"))
    quoridor = game_of("quoridor", ("ivan", "judy"))
    blokus = game_of("blokus_duo", ("grace", "heidi"))
    first = {"type": "place", "piece": "I2", "cells": [[4, 4], [4, 5]]}
    services.submit_action(game_id=blokus, user=User.objects.get(username="grace"), action=first,
                           ply=0)

    def scenario(new_page: Any) -> None:
        player = new_page(**DESKTOP)  # Carol, in the ranked game: her lobby is that game
        log_in(player, "carol")
        visitor = new_page(**DESKTOP)
        pages = [(visitor, "lobby", "/", None), (visitor, "login", "/accounts/login/", None),
                 (player, "ranked bloqueio", f"/games/{ranked.pk}/", "#board g.wall"),
                 (player, "blockade run", f"/games/{run}/", "#board g.pawn"),
                 (player, "blokus duo", f"/games/{blokus}/", "#board g.square"),
                 (visitor, "quoridor", f"/games/{quoridor}/", "#board rect.goal"),
                 (visitor, "replay", f"/games/{ranked.pk}/replay/", "#board g.wall")]
        seen: set[str] = set()
        for theme in ("light", "dark"):
            for palette in ("standard", "colour-blind"):
                for page, name, url, ready in pages:
                    page.goto(url)
                    if ready:
                        page.wait_for_selector(ready)
                    choose(page, f"#theme-{theme}")
                    if page.is_checked("#palette-colour-blind") != (palette == "colour-blind"):
                        page.click("#palette-colour-blind")
                    page.click("#display-menu summary")  # closed: it is not part of the page
                    settle(page)
                    where = f"{name}, {theme}, {palette}"
                    assert html_theme(page) == theme
                    check_texts(page, where)
                    if ready:
                        seen |= check_board(page, where)
                    if name == "ranked bloqueio":
                        shot(page, f"contrast-{theme}-{palette}")
        # Every kind of piece was measured.
        assert seen >= {"pawn", "wall", "band", "mark", "zone", "square", "outline", "label"}
        assert player.errors == [] and visitor.errors == []

    run_in_browser(server, scenario)


def test_palettes_on_the_page_are_the_source_file(server: Any) -> None:
    """The variables the page defines are palettes.json's values, every slot of every
    palette (nothing copied by hand into the CSS)."""

    def scenario(new_page: Any) -> None:
        page = new_page(**DESKTOP)
        page.goto("/")
        for palette, colours in PALETTES.items():
            if palette != "standard":
                page.evaluate("(p) => { document.documentElement.dataset.palette = p; }", palette)
            else:
                page.evaluate("() => { delete document.documentElement.dataset.palette; }")
            got = page.evaluate("""(slots) => slots.map((s) =>
                getComputedStyle(document.documentElement).getPropertyValue(`--seat-${s}`).trim())""",
                list(colours))
            assert got == list(colours.values()), palette

    run_in_browser(server, scenario)
