"""Seat colours everyone can tell apart (issue #30): every palette the site offers keeps
any two seats of a kind at least MIN_DE00 apart (CIEDE2000) under protanopia,
deuteranopia and tritanopia, and its letters and text shades meet WCAG AA.

The palettes are read from their one source, games/engine/palettes.json; the seats of
each kind from the engine. Colour-vision deficiency is simulated with the matrices of
Machado, Oliveira & Fernandes, "A Physiologically-based Model for Simulation of Color
Vision Deficiency", IEEE TVCG 15(6), 2009, at severity 1.0, applied to linear sRGB;
colour difference is CIEDE2000 (CIE 142-2001), written here after Sharma, Wu & Dalal,
"The CIEDE2000 Color-Difference Formula: Implementation Notes, Supplementary Test Data,
and Mathematical Observations", Color Res. Appl. 30(1), 2005, whose test pairs check it.
(The site's palette before this test, red #ef4444, blue #3b82f6, green #22c55e, yellow
#f59e0b, measured 7.0: protanopia's green against yellow.)
"""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path

import pytest

from games import engine
from games.boards.colours import TEXT_GROUNDS, TINT, contrast, ink_on, mix, text_colour, themes
from games.boards.palettes import palette_css

SOURCE = Path(__file__).resolve().parents[2] / "games" / "engine" / "palettes.json"
PALETTES: dict[str, dict[str, str]] = json.loads(SOURCE.read_text(encoding="utf-8"))
MIN_DE00 = 20.0

Vec = tuple[float, float, float]

# Machado et al. 2009, severity 1.0 (rows: output R, G, B; on linear RGB).
MACHADO: dict[str, tuple[Vec, Vec, Vec]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO)


def linear(hex_colour: str) -> Vec:
    """sRGB #rrggbb to linear RGB (IEC 61966-2-1)."""
    h = hex_colour.lstrip("#")
    out = []
    for i in (0, 2, 4):
        s = int(h[i:i + 2], 16) / 255
        out.append(s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4)
    return out[0], out[1], out[2]


def simulate(rgb: Vec, vision: str) -> Vec:
    """Linear RGB as a dichromat of `vision` sees it (clipped to the gamut)."""
    if vision == "normal":
        return rgb
    m = MACHADO[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3))
    return r, g, b


def lab(rgb: Vec) -> Vec:
    """Linear sRGB to CIELAB (D65 white)."""
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: Vec, lab2: Vec) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1), Sharma et al. 2005, eqs. 1-22."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dhp = 0.0 if c1p * c2p == 0 else h2p - h1p
    if dhp > 180:
        dhp -= 360
    elif dhp < -180:
        dhp += 360
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    def cos(degrees: float) -> float:
        return math.cos(math.radians(degrees))

    t = (1 - 0.17 * cos(h_bar - 30) + 0.24 * cos(2 * h_bar) + 0.32 * cos(3 * h_bar + 6)
         - 0.20 * cos(4 * h_bar - 63))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = (-math.sin(math.radians(60 * math.exp(-(((h_bar - 275) / 25) ** 2))))
           * 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7)))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2
                     + r_t * (d_c / s_c) * (d_h / s_h))


def seen(hex_colour: str, vision: str) -> Vec:
    return lab(simulate(linear(hex_colour), vision))


def kinds_slots() -> dict[str, list[str]]:
    """Each kind's colours as palette slots: the engine's colour is the standard's."""
    slot_of = {hex_colour.lower(): slot for slot, hex_colour in PALETTES["standard"].items()}
    return {kind: [slot_of[c.colour.lower()] for c in engine.get(kind).info.colours]
            for kind in engine.KINDS}


def smallest_difference(palette: str, vision: str) -> tuple[float, str, str, str]:
    """The closest two seats of any kind in `palette` as `vision` sees them."""
    colours = PALETTES[palette]
    worst = (math.inf, "", "", "")
    for kind, slots in kinds_slots().items():
        for a, b in combinations(slots, 2):
            d = ciede2000(seen(colours[a], vision), seen(colours[b], vision))
            worst = min(worst, (d, kind, a, b))
    return worst


# -- the measuring instruments -----------------------------------------------------------------

# Sharma, Wu & Dalal (2005), Table 1: 34 pairs of CIELAB colours and their CIEDE2000.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, -1.1848, -84.8006), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, -0.9009, -85.5211), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0010), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0012), 7.2195),
    ((50.0, -0.001, 2.49), (50.0, 0.0009, -2.49), 4.8045),
    ((50.0, -0.001, 2.49), (50.0, 0.0010, -2.49), 4.8045),
    ((50.0, -0.001, 2.49), (50.0, 0.0011, -2.49), 4.7461),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 3.2972, 0.0), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 1.8634, 0.5757), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_gives_sharmas_published_differences(lab1: Vec, lab2: Vec,
                                                       expected: float) -> None:
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_lab_of_white_and_the_srgb_primaries() -> None:
    assert lab(linear("#ffffff")) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert lab(linear("#ff0000")) == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert lab(linear("#0000ff")) == pytest.approx((32.30, 79.19, -107.86), abs=0.05)


def test_the_simulation_keeps_greys_and_merges_what_dichromats_confuse() -> None:
    for vision in MACHADO:  # a grey has no hue to lose
        assert simulate(linear("#808080"), vision) == pytest.approx(linear("#808080"), abs=1e-3)

    def apart(a: str, b: str, vision: str) -> float:
        return ciede2000(seen(a, vision), seen(b, vision))

    # The old palette's confusions: green and yellow without L cones, blue and green
    # without S cones, each pair far apart for normal vision.
    for a, b, vision, merged, normal in (("#22c55e", "#f59e0b", "protanopia", 10, 40),
                                         ("#3b82f6", "#22c55e", "tritanopia", 20, 50),
                                         ("#ff0000", "#008000", "deuteranopia", 20, 60)):
        assert apart(a, b, vision) < merged < normal < apart(a, b, "normal"), (a, b, vision)


# -- the palettes ------------------------------------------------------------------------------


def test_every_palette_names_the_same_slots_as_the_standard_one() -> None:
    assert set(PALETTES) >= {"standard", "colour-blind"}
    for palette, colours in PALETTES.items():
        assert list(colours) == list(PALETTES["standard"]), palette


def test_the_engines_seat_colours_are_the_standard_palette() -> None:
    slots = kinds_slots()  # raises KeyError on a colour that is not a standard slot
    assert set(slots) == set(engine.KINDS)
    assert {s for kind in slots.values() for s in kind} == set(PALETTES["standard"])


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("palette", list(PALETTES))
def test_seats_of_every_kind_stay_apart_for_every_colour_vision(palette: str,
                                                                vision: str) -> None:
    d, kind, a, b = smallest_difference(palette, vision)
    assert d >= MIN_DE00, f"{palette}, {vision}: {kind}'s {a} and {b} are {d:.1f} apart"


def test_the_colour_blind_palette_keeps_seats_further_apart_than_the_standard() -> None:
    for vision in MACHADO:
        assert (smallest_difference("colour-blind", vision)[0]
                >= smallest_difference("standard", vision)[0]), vision


@pytest.mark.parametrize("palette", list(PALETTES))
def test_letters_on_every_seat_colour_meet_aa(palette: str) -> None:
    for slot, fill in PALETTES[palette].items():
        assert contrast(ink_on(fill), fill) >= 4.5, (palette, slot)


@pytest.mark.parametrize("theme", sorted(themes()))
@pytest.mark.parametrize("palette", list(PALETTES))
def test_seat_text_meets_aa_on_every_background_of_the_theme(palette: str, theme: str) -> None:
    values = themes()[theme]
    for slot, fill in PALETTES[palette].items():
        text = text_colour(fill, theme)
        grounds = [values[g] for g in TEXT_GROUNDS]
        grounds += [mix(values[g], fill, TINT) for g in ("board-bg", "board-cell")]
        for ground in grounds:
            assert contrast(text, ground) >= 4.5, (palette, theme, slot, ground)


def test_the_page_css_defines_every_slot_of_every_palette_from_the_file() -> None:
    css = palette_css()
    for palette, colours in PALETTES.items():
        selector = ":root" if palette == "standard" else f':root[data-palette="{palette}"]'
        block = next(line for line in css.splitlines() if line.startswith(selector + "{"))
        for slot, fill in colours.items():
            assert f"--seat-{slot}:{fill};" in block, (palette, slot)
            assert f"--seat-{slot}-ink:{ink_on(fill)};" in block, (palette, slot)
