"""The article figures (lcanalysis/show/figures.py) as a publication needs them."""

from __future__ import annotations

import pytest

from lcanalysis.show import figures
from lcanalysis.studies.estimate import Estimate

#: titles of the articles' figures, as long as they come
LONG = "Figure 1. What one stall is worth, exact endgame values (published run)"


def _inside(fig, text) -> bool:
    """Whether drawn ``text`` lies within the figure, as a file saved at the figure's size shows it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    box = text.get_window_extent(canvas.get_renderer())
    return box.x0 >= 0 and box.x1 <= fig.bbox.x1 and box.y0 >= 0 and box.y1 <= fig.bbox.y1


@pytest.mark.parametrize("make", [
    lambda: figures.estimates_chart({"live run": Estimate(0.8, 0.2, 100), "published run": Estimate(0.8, 0.16, 20000)},
                                    title=LONG, xlabel="points"),
    lambda: figures.grouped_estimates_chart({"2 cards left": {"gain": Estimate(7.7, 0.6, 400)},
                                             "3 cards left": {"gain": Estimate(0.0, 0.0, 400)}},
                                            ["gain"], title=LONG, xlabel="points"),
    lambda: figures.histogram([1.0, 2.0, 5.0, 8.0], title=LONG + LONG, xlabel="points"),
], ids=["estimates_chart", "grouped_estimates_chart", "histogram"])
def test_a_long_title_stays_within_the_saved_figure(make):
    """The charts add " (bars: 95% intervals)" to the title: the stalling and first-player articles'
    figures were cut off at the right edge when saved at the figure's size ("... (bars: 9")."""
    fig = make()
    title = fig.axes[0].title
    assert title.get_text().startswith("Figure 1.") and _inside(fig, title)
