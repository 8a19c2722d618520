"""One palette for the expedition colours: the cards, the figures and the explorers' card buttons
draw yellow, blue, white, green, red and purple alike, and the six stay apart for colour-blind
eyes (before, three sets of colours, in which a deuteranope saw blue and purple 2.6 CIEDE2000 units
apart)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from lcanalysis.analysis import Analysis, MoveValue
from lcanalysis.game.cards import COLOR_LETTERS
from lcanalysis.show import render
from lcanalysis.show.palette import BY_LETTER, LOOKS

#: Machado, Oliveira and Fernandes (2009): full protanopia, deuteranopia and tritanopia, applied to
#: linear RGB
DICHROMACY = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


def _linear(hex_colour: str) -> np.ndarray:
    c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(linear: np.ndarray) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear sRGB colour."""
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ linear
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference (Sharma, Wu and Dalal, 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    l_mean, c_mean2 = (l1 + l2) / 2, (c1 + c2) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * c_mean2, 1 + 0.015 * c_mean2 * t
    rt = (-math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
          * 2 * math.sqrt(c_mean2**7 / (c_mean2**7 + 25**7)))
    dl, dc, dhh = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def _closest_pair(colours: list[str], matrix: list[list[float]]) -> float:
    labs = [_lab(np.clip(np.array(matrix) @ _linear(c), 0, 1)) for c in colours]
    return min(_ciede2000(x, y) for x, y in itertools.combinations(labs, 2))


def test_the_colour_difference_is_the_published_one():
    # pairs 1 and 17 of Sharma, Wu and Dalal's test data, and a colour from itself
    assert _ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert _ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert _ciede2000((60, 10, 10), (60, 10, 10)) == 0


@pytest.mark.parametrize("kind", ["fill", "line"])
@pytest.mark.parametrize("vision", list(DICHROMACY))
def test_the_six_colours_stay_apart_for_colour_blind_eyes(kind, vision):
    """As the cards show them (``fill``) and as a figure draws them on a white page (``line``), no
    two colours come closer than 12 CIEDE2000 units for a protanope, deuteranope or tritanope (the
    palette's docstring)."""
    colours = [getattr(look, kind) for look in LOOKS]
    assert _closest_pair(colours, DICHROMACY[vision]) >= 12


def test_the_cards_colours_before_came_close_for_a_deuteranope():
    """What the check above would have said of the cards' colours before this palette."""
    before = ["#f4c20d", "#2f6fce", "#f8f7f2", "#2e9a4c", "#d4382b", "#8447bb"]
    assert _closest_pair(before, DICHROMACY["deuteranopia"]) == pytest.approx(2.9, abs=0.05)


@pytest.mark.parametrize("letter", list(COLOR_LETTERS))
def test_a_card_and_its_button_are_drawn_in_the_palettes_colours(letter):
    pytest.importorskip("ipywidgets")
    from lcanalysis.show.widgets import _card_look

    look = BY_LETTER[letter]
    svg = render.card_svg(f"{letter}7")
    assert f'fill="{look.fill}" stroke="{look.edge}"' in svg and f'fill="{look.ink}">7<' in svg
    button = _card_look(letter)
    assert button["style"] == {"button_color": look.fill, "text_color": look.ink}
    assert look.edge in button["layout"].border


def test_a_figure_and_an_analysis_picture_colour_the_turns_as_the_cards():
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_rgb

    from lcanalysis.show import figures

    analysis = Analysis([MoveValue("+B7/D", 3.0), MoveValue("-P4/D", 1.0), MoveValue("-Ww/R", -2.0)],
                        kind="view value (averaged over splits)", exact=True)
    fig = figures.move_values_chart(analysis)
    bars = fig.axes[0].patches[:3]  # best first: B, P, W
    for bar, letter in zip(bars, "BPW", strict=True):
        assert bar.get_facecolor()[:3] == pytest.approx(to_rgb(BY_LETTER[letter].line))
    svg = render.analysis_svg(analysis)  # best green, a winning turn blue, a losing one red
    for colour in (BY_LETTER["G"].fill, BY_LETTER["B"].fill, BY_LETTER["R"].fill):
        assert f'fill="{colour}" opacity="0.85"' in svg
