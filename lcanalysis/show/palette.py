"""The one palette of the expedition colours: the cards and boards (``render``), the figures
(``figures``), the explorers' card buttons (``widgets``) and the review's HTML draw yellow, blue,
white, green, red and purple with these.

Why these: the blue, green and red are Okabe and Ito's colour-blind-safe set (#0072b2, #009e73,
#d55e00), with the cards' golden yellow and a wine purple (#882e72). Under simulated protanopia,
deuteranopia and tritanopia (Machado et al., 2009) no two of the six come closer than 12 CIEDE2000
units, as the cards show them or as a figure draws them (``tests/test_palette.py``); the three sets
this one replaced (the cards', the figures', the buttons') put blue and purple 2.6 to 5.5 apart
for a deuteranope, and the figures' green and red 4.7. The white ink keeps at least 3.4:1 contrast
on the fills, above WCAG's 3:1 for large text, which the cards' numbers are (20 px bold); the
small corner index of green (3.4) and red (3.9) falls short of the 4.5 for small text, as the
cards' green did before (3.6).
"""

from __future__ import annotations

from typing import NamedTuple

from lcanalysis.game.cards import COLOR_LETTERS


class Look(NamedTuple):
    """How one expedition colour is drawn."""

    fill: str  #: a card's face, a button, a bar of a figure
    edge: str  #: a card's (and a button's) outline
    ink: str  #: text and marks on the fill
    line: str  #: on a white page (a figure's bars, a graph's line): the fill, or grey for the white expedition


#: by colour index, in ``COLOR_LETTERS`` order (Y B W G R P)
LOOKS: tuple[Look, ...] = (
    Look("#f4c20d", "#9a7400", "#3a2d00", "#f4c20d"),  # yellow
    Look("#0072b2", "#00466e", "#ffffff", "#0072b2"),  # blue
    Look("#f8f7f2", "#3c3c3c", "#222222", "#b0b0b0"),  # white: a dark outline; light grey on a white page
    Look("#009e73", "#005f45", "#ffffff", "#009e73"),  # bluish green
    Look("#d55e00", "#803800", "#ffffff", "#d55e00"),  # vermillion
    Look("#882e72", "#521b44", "#ffffff", "#882e72"),  # wine purple
)
#: by colour letter ("Y" ... "P")
BY_LETTER: dict[str, Look] = dict(zip(COLOR_LETTERS, LOOKS, strict=True))
#: what a figure draws that has no expedition colour (a turn that only draws)
NEUTRAL = "#555555"
