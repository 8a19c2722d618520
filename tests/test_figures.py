"""The article figures (lcanalysis/show/figures.py) as a publication needs them."""

from __future__ import annotations

import math
import re
from pathlib import Path

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


def test_a_figure_is_saved_as_vector_or_png_at_its_dpi(tmp_path):
    import matplotlib.image

    fig = figures.estimates_chart({"edge": Estimate(0.8, 0.16, 20000)}, title="Figure 1. Edge", xlabel="points")
    width, height = fig.get_size_inches()
    png = figures.save(fig, str(tmp_path / "f.png"))
    assert matplotlib.image.imread(png).shape[:2] == (round(height * figures.PNG_DPI), round(width * figures.PNG_DPI))
    assert matplotlib.image.imread(figures.save(fig, str(tmp_path / "f.png"), dpi=100)).shape[1] == round(width * 100)
    svg = figures.save(fig, str(tmp_path / "f.svg"))
    assert "<svg" in Path(svg).read_text(encoding="utf-8")
    with open(figures.save(fig, str(tmp_path / "f.pdf")), "rb") as fh:
        assert fh.read(4) == b"%PDF"


@pytest.mark.parametrize("name, dpi, message", [
    ("f.jpg", 200, r"must end in one of \.svg, \.pdf, \.png \(the format\), got '\.jpg'"),
    ("f", 200, r"must end in one of .*, got 'none'"),
    ("f.png", 0, r"dpi must be a whole number of dots per inch from 50 to 1200, got 0"),
    ("f.png", 72.5, r"dpi must be .*, got 72\.5"),
    ("missing/f.png", 200, r"the folder .*missing of .* does not exist"),
])
def test_saving_refuses_a_bad_name_or_dpi_before_writing(tmp_path, name, dpi, message):
    fig = figures.histogram([1.0, 2.0], title="t", xlabel="x")
    with pytest.raises(ValueError, match=message):
        figures.save(fig, str(tmp_path / name), dpi=dpi)
    assert not any(tmp_path.iterdir())


def test_a_heatmap_keeps_named_rows_in_the_tables_order_and_numbers_highest_first():
    """The opening article's Figure 1 showed its holdings sorted as text, from the top "8 9 10",
    "6 7 8 9", "5 6 7", "2 5 8 10", "2 3 4", "10": the weak and strong holdings interleaved."""
    import pandas as pd

    held = ["10", "2 3 4", "5 6 7", "8 9 10", "2 5 8 10"]
    frame = pd.DataFrame([{"held": h, "draws": d, "mean": 10 * i + d} for i, h in enumerate(held) for d in (0, 4)])
    fig = figures.heatmap(frame, index="held", columns="draws", values="mean", title="t", label="points")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == held  # the first row is drawn at the top
    image = ax.images[0].get_array()
    assert image[0].tolist() == [0, 4] and image[-1].tolist() == [40, 44]
    by_sum = pd.DataFrame([{"sum": s, "draws": 0, "mean": s} for s in (9, 27, 15)])
    fig = figures.heatmap(by_sum, index="sum", columns="draws", values="mean", title="t", label="points")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["27", "15", "9"]


def test_the_fit_charts_legend_shows_the_faint_points_solid():
    """With 46,000 colours the points are drawn at alpha 0.03, and so was their legend marker:
    the legend's "simulated colours" had no visible symbol."""
    import numpy as np

    from lcanalysis.studies.opening import linear_fit

    x = np.arange(20000) % 40
    y = 4 + 0.4 * x + (np.arange(20000) % 7)
    fig = figures.fit_chart(x, y, linear_fit(x, y), title="t", xlabel="held", ylabel="final", claim=(22, 0.6))
    ax = fig.axes[0]
    assert ax.collections[0].get_alpha() == pytest.approx(0.03)  # the points stay faint
    legend = ax.get_legend()
    assert legend.get_texts()[0].get_text() == "simulated colours (n=20,000)"
    assert all(h.get_alpha() in (None, 1.0) for h in legend.legend_handles)


def test_the_estimate_charts_say_each_sample_size():
    """A figure for an article names its sample: the estimate charts drew a live run of 100 deals
    and a published one of 20,000 with nothing to tell them apart but the bars' width, and the
    wager models' chart and the fit's scatter gave no count at all."""
    import numpy as np
    import pandas as pd

    from lcanalysis.studies.opening import linear_fit

    fig = figures.estimates_chart({"live run": Estimate(0.8, 0.2, 100), "published run": Estimate(0.8, 0.16, 20000)},
                                  title="t", xlabel="points")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["live run (n=100)", "published run (n=20,000)"]
    fig = figures.estimates_chart({"edge": Estimate(0.8, 0.16, 20000)}, title="t", xlabel="points", counts="deals")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["edge (20,000 deals)"]

    groups = {"2 cards left": {"gain": Estimate(7.7, 0.6, 400), "cost": Estimate(0, 0, 399)},
              "4 cards left": {"gain": Estimate(5.4, 1.0, 80), "cost": Estimate(math.nan, math.nan, 0)}}
    fig = figures.grouped_estimates_chart(groups, ["gain", "cost"], title="t", xlabel="points")
    assert sorted(t.get_text() for t in fig.axes[0].texts) == ["n=399", "n=400", "n=80"]  # no count on no point

    table = pd.DataFrame({"model": ["canonical", "counting turns"], "rows": [1949, 1949], "bias": [8.5, 1.0],
                          "bias s.e.": [0.3, 0.3]})
    fig = figures.model_comparison_chart(table)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["canonical (1,949 expeditions)",
                                                                      "counting turns (1,949 expeditions)"]
    fig = figures.model_comparison_chart(table.assign(rounds=[1558, 1558]))  # the rounds they came from, when counted
    assert fig.axes[0].get_yticklabels()[0].get_text() == "canonical (1,949 expeditions of 1,558 rounds)"

    x = np.arange(30.0)
    fig = figures.fit_chart(x, 2 * x, linear_fit(x, 2 * x + x % 3), title="t", xlabel="held", ylabel="final")
    assert fig.axes[0].get_legend().get_texts()[0].get_text() == "simulated colours (n=30)"


def test_a_heatmaps_axes_say_what_they_count():
    """The articles' heatmaps were labelled by their column names, "draws", "held" and "sum"; the
    notebooks now name the axes in words and the chart takes them."""
    import ast

    import nbformat
    import pandas as pd

    frame = pd.DataFrame([{"sum": s, "draws": d, "mean": s + d} for s in (9, 27) for d in (0, 10)])
    ax = figures.heatmap(frame, index="sum", columns="draws", values="mean", title="t", label="points",
                         xlabel="draws from the pile still to come", ylabel="sum of the three numbers held").axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("draws from the pile still to come", "sum of the three numbers held")
    assert figures.heatmap(frame, index="sum", columns="draws", values="mean", title="t",
                           label="points").axes[0].get_xlabel() == "draws"
    calls = 0
    for path in (Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"):
        for cell in nbformat.read(path, as_version=4).cells:
            for node in ast.walk(ast.parse(cell.source) if cell.cell_type == "code" else ast.Module([], [])):
                if isinstance(node, ast.Call) and ast.unparse(node.func) == "figures.heatmap":
                    calls += 1
                    assert {"xlabel", "ylabel"} <= {k.arg for k in node.keywords}, f"{path.name}: {ast.unparse(node)}"
    assert calls == 4


def test_the_turn_values_chart_draws_a_bound_as_a_bound_not_as_a_value():
    """A turn the endgame search only showed to be worse has a bound for its value: its bar is
    hatched and its label says "≤", and the legend says what that means; a value is drawn plain."""
    from lcanalysis.analysis import Analysis, MoveValue

    analysis = Analysis(moves=[
        MoveValue("+Y8/R", 17.3, 0.7, exact=False),
        MoveValue("+Y8/W", 17.3, 0.7, exact=False, extra={"bound": "upper"}),
        MoveValue("-W4/Y", 14.6, 0.8, exact=False),
    ], kind="view value (sampled worlds)", exact=False)
    fig = figures.move_values_chart(analysis)
    ax = fig.axes[0]
    label_at = {round(y): t.get_text() for y, t in zip(ax.get_yticks(), ax.get_yticklabels(), strict=True)}
    assert [label_at[y] for y in sorted(label_at, reverse=True)] == ["+Y8/R", "≤ +Y8/W", "-W4/Y"]  # best on top
    hatched = {label_at[round(bar.get_y() + bar.get_height() / 2)]: bool(bar.get_hatch()) for bar in ax.patches}
    assert hatched == {"≤ +Y8/W": True, "+Y8/R": False, "-W4/Y": False}
    assert "a bound" in ax.get_legend().get_texts()[0].get_text()
    plain = figures.move_values_chart(Analysis(moves=[MoveValue("+Y8/R", 17.3, 0.7, exact=False)],
                                               kind="advisor estimate", exact=False))
    assert plain.axes[0].get_legend() is None


def test_the_score_distribution_draws_each_probability_at_its_own_score():
    """Each number of wagers' probabilities stand exactly at their scores (with 0 draws and 7 8 9
    held: 4 with no wager, 8 with one, by hand), not shifted sideways to sit beside the others."""
    from lcanalysis.wagers.canonical import wager_distribution

    res = wager_distribution(hand=[7, 8, 9], hand_wagers=1, draws=0)
    fig = figures.score_distribution_chart(res)
    dots = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in fig.axes[0].get_lines()
            if line.get_marker() == "o"}
    assert dots == {"0 wager(s): mean +4.0": ([4], [1.0]), "1 wager(s): mean +8.0": ([8], [1.0])}
    res = wager_distribution(hand=[6, 8, 9], hand_wagers=2, draws=12)
    fig = figures.score_distribution_chart(res)
    drawn = [list(line.get_xdata()) for line in fig.axes[0].get_lines() if line.get_marker() == "o"]
    assert drawn == [sorted(o.distribution) for o in res.by_wagers]



def test_the_wager_means_charts_numbers_stay_inside_the_plot():
    """The mean written beside the last point ran over the plot's right edge ("+33.0" across the frame
    for 6 8 9 held with two wagers and 12 draws; "+x ± s" of an estimate further)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from lcanalysis.wagers.canonical import ColorState, wager_distribution
    from lcanalysis.wagers.models import turn_model

    for answer in (wager_distribution(hand=[6, 8, 9], hand_wagers=2, draws=12),
                   wager_distribution(hand=[7, 8, 9, 10], hand_wagers=3, draws=0),
                   turn_model(ColorState.make(hand=[6, 8], hand_wagers=2, unseen_total=20), 6, n=400, seed=1)):
        fig = figures.wager_means_chart(answer)
        ax = fig.axes[0]
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        frame = ax.get_window_extent(canvas.get_renderer())
        assert len(ax.texts) == len(answer.by_wagers)
        for text in ax.texts:
            box = text.get_window_extent(canvas.get_renderer())
            assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, \
                text.get_text()


def test_the_wager_charts_name_the_colour_of_an_answer_about_one():
    """``lc.wager(position, "Y", 21)`` drawn said "Score distribution, 21 draws left": which colour,
    the figure did not say; an answer on plain numbers (no colour) says none."""
    import lcanalysis as lc
    from lcanalysis.wagers.canonical import wager_distribution

    yellow = lc.wager("LC1;c5;h8;nr;m0;v0;p0=Yw.Yw.Y2.B4.B9.Gw.Gw.G2;p1=?8;d=44", "y", 21)
    assert figures.score_distribution_chart(yellow).axes[0].get_title().startswith(
        "Score distribution of the yellow expedition, 21 draws left (canonical model, exact)")
    assert figures.wager_means_chart(yellow).axes[0].get_title() == \
        "Expected value of each number of wagers on the yellow expedition, 21 draws left (canonical model, exact)"
    plain = wager_distribution(hand=[7, 8, 9], draws=0)
    assert figures.wager_means_chart(plain).axes[0].get_title() == \
        "Expected value of each number of wagers, 0 draws left (canonical model, exact)"

def test_the_wager_means_chart_names_the_model_and_its_settings_as_the_distribution_does():
    """A turn model's means chart was titled "Expected value of each number of wagers (estimate: ...)": which
    model, how many turns, what share, a figure pasted into an article did not say, where the score
    distribution's title did. Both now end alike: the draws, the model with its settings, exact or not."""
    from lcanalysis.wagers.canonical import ColorState
    from lcanalysis.wagers.models import turn_model

    answer = turn_model(ColorState.make(hand=[2, 3, 4], hand_wagers=1, unseen_total=30), 11, share=1 / 3, n=400,
                        seed=1, progress=False)
    settings = ", 10 draws left (turns (11 turns, share 1/3, late) model, estimate: Monte Carlo, 400 samples; ± s.e.)"
    assert figures.wager_means_chart(answer).axes[0].get_title() == "Expected value of each number of wagers" + settings
    assert figures.score_distribution_chart(answer).axes[0].get_title() == "Score distribution" + settings


def test_the_wager_charts_say_exact_or_estimate_with_its_standard_error():
    """Given a Monte Carlo model's answer (the turn model), the wager charts said "(exact)" and showed
    bare means; now the title says it is an estimate and each mean carries its standard error."""
    from lcanalysis.wagers.canonical import ColorState, wager_distribution
    from lcanalysis.wagers.models import turn_model

    sampled = turn_model(ColorState.make(hand=[6, 8], hand_wagers=1, unseen_total=20), 6, n=400, seed=1)
    for chart in (figures.score_distribution_chart, figures.wager_means_chart):
        ax = chart(sampled).axes[0]
        assert "exact" not in ax.get_title() and "estimate: Monte Carlo" in ax.get_title()
        words = [t.get_text() for t in ax.texts] + [line.get_label() for line in ax.get_lines()]
        for o in sampled.by_wagers:
            assert o.stderr >= 0.05 and any(f"{o.mean:+.1f} ± {o.stderr:.1f}" in w for w in words), (o.wagers, words)
    # an error under 0.05 read "± 0.0" (2 3 4 and a wager, 13 turns left, 20,000 samples: 0.04 and 0.08):
    # the mean and its error in as many decimals as the error needs
    precise = turn_model(ColorState.make(hand=[2, 3, 4], hand_wagers=1, unseen_total=34), 13, share=1 / 3,
                         progress=False)
    assert precise.outcome(0).stderr < 0.05 <= precise.outcome(1).stderr < 0.095
    for chart in (figures.score_distribution_chart, figures.wager_means_chart):
        ax = chart(precise).axes[0]
        words = [t.get_text() for t in ax.texts] + [line.get_label() for line in ax.get_lines()]
        zero, one = precise.outcome(0), precise.outcome(1)
        assert any(f"{zero.mean:+.2f} ± {zero.stderr:.2f}" in w for w in words), words
        assert any(f"{one.mean:+.1f} ± {one.stderr:.1f}" in w for w in words), words
        assert not any(re.search(r"± 0\.0(?!\d)", w) for w in words), words
    exact = wager_distribution(hand=[7, 8, 9], hand_wagers=1, draws=0)
    for chart in (figures.score_distribution_chart, figures.wager_means_chart):
        ax = chart(exact).axes[0]
        assert "exact" in ax.get_title() and "±" not in "".join(t.get_text() for t in ax.texts)


@pytest.mark.parametrize(("make", "message"), [
    (lambda: figures.estimates_chart({"edge": 0.8}, title="t", xlabel="points"),
     "estimates_chart: 'edge' is 0.8, not an estimate: give an Estimate"),
    (lambda: figures.estimates_chart({"edge": (0.8, 0.16)}, title="t", xlabel="points"),
     "estimates_chart: 'edge' is (0.8, 0.16), not an estimate"),
    (lambda: figures.grouped_estimates_chart({"2 cards left": {"gain": Estimate(7.7, 0.6, 400)}}, ["cost"],
                                             title="t", xlabel="points"),
     "grouped_estimates_chart: group '2 cards left' has no estimate 'cost' (it has ['gain'])"),
    (lambda: figures.grouped_estimates_chart({"2 cards left": {"gain": 7.7}}, ["gain"], title="t", xlabel="points"),
     "grouped_estimates_chart: '2 cards left: gain' is 7.7, not an estimate"),
    (lambda: figures.histogram([1.0, float("nan"), 3.0], title="t", xlabel="points"),
     "histogram: 1 of the 3 values are not finite numbers (NaN or infinite)"),
    (lambda: figures.score_distribution_chart({"wagers": 1}),
     "score_distribution_chart: give a wager answer (a WagerAnalysis: lc.wager(...)"),
    (lambda: figures.wager_means_chart(None), "wager_means_chart: give a wager answer (a WagerAnalysis"),
], ids=["a number", "a pair", "a missing key", "a number in a group", "a NaN", "a dict for a wager answer",
        "None for a wager answer"])
def test_a_chart_given_what_it_cannot_draw_says_what_is_wrong(make, message):
    """A writer passing a plain number or a (mean, s.e.) pair met "AttributeError: 'float' object
    has no attribute 'mean'", a missing key a bare KeyError, a NaN "arange: cannot compute length"."""
    with pytest.raises(ValueError) as refused:
        make()
    assert message in str(refused.value)


def test_a_heatmaps_numbers_are_readable_on_its_darkest_cells():
    """The wager study's Figure 3 wrote its "1.00" and "0.00" in black on the darkest blue and
    red: unreadable. A number on a dark cell is now white, on a light one black."""
    import pandas as pd
    from matplotlib.colors import to_rgb

    frame = pd.DataFrame([{"sum": s, "draws": d, "p": p} for s, d, p in
                          ((9, 0, 0.0), (9, 10, 0.5), (27, 0, 1.0), (27, 10, 0.55))])
    ax = figures.heatmap(frame, index="sum", columns="draws", values="p", title="t", label="P", center=0.5,
                         fmt="{:.2f}").axes[0]
    colour = {t.get_text(): to_rgb(t.get_color()) for t in ax.texts}
    assert colour["1.00"] == colour["0.00"] == (1.0, 1.0, 1.0)  # the ends of the scale: dark blue, dark red
    assert colour["0.50"] == colour["0.55"] == (0.0, 0.0, 0.0)  # the middle: near white


def test_a_heatmap_writes_no_minus_zero():
    """The wager study's Figure 4 wrote "-0" in the cells whose value rounds to zero from below
    (-0.3 points): a number a reader cannot place. They read "0" now; the others keep their sign."""
    import pandas as pd

    frame = pd.DataFrame([{"sum": s, "draws": d, "v": v} for s, d, v in
                          ((9, 0, -0.3), (9, 10, -1.6), (27, 0, 0.2), (27, 10, 2.0))])
    ax = figures.heatmap(frame, index="sum", columns="draws", values="v", title="t", label="points").axes[0]
    assert sorted(t.get_text() for t in ax.texts) == sorted(["0", "-2", "0", "2"])
    ax = figures.heatmap(frame, index="sum", columns="draws", values="v", title="t", label="points",
                         fmt="{:+.1f}").axes[0]
    assert sorted(t.get_text() for t in ax.texts) == sorted(["-0.3", "-1.6", "+0.2", "+2.0"])
    frame.loc[0, "v"] = -0.04
    ax = figures.heatmap(frame, index="sum", columns="draws", values="v", title="t", label="points",
                         fmt="{:+.1f}").axes[0]
    assert "0.0" in [t.get_text() for t in ax.texts] and "-0.0" not in [t.get_text() for t in ax.texts]


def test_a_histograms_mean_says_its_plus_or_minus_is_a_standard_error_and_counts_with_commas():
    """The decision explorer's outcome histogram marked "mean +17.2 ± 2.0" and the first-player
    article's "mean +0.81 ± 0.16 (n=20000)": a reader could not tell the ± from a spread, and the
    count was written unlike every other figure's (20,000). Both now say "s.e." and n alike."""
    import numpy as np

    x = np.arange(20000) % 7 - 2.0
    se = x.std(ddof=1) / np.sqrt(x.size)
    fig = figures.histogram(x, title="t", xlabel="points")
    assert fig.axes[0].get_legend().get_texts()[0].get_text() == f"mean {x.mean():+.2f} ± {se:.2f} s.e. (n=20,000)"
    y = np.array([10.0, 20.0, 30.0, 40.0])
    fig = figures.outcome_histogram(y, "+B6/G")
    assert fig.axes[0].get_legend().get_texts()[0].get_text() == "mean +25.0 ± 6.5 s.e. (n=4)"


def test_the_turn_values_chart_says_each_estimates_sample_size():
    """The decision explorer's chart of the advisor's estimates gave no sample size, though the
    turns' samples differ a hundredfold (successive halving: 12 worlds for a turn dropped first,
    1,268 for the best): each estimated turn's label now says its worlds; an estimate over sampled
    splits says them in the title; exact values need none."""
    from lcanalysis.advisor import advise
    from lcanalysis.analysis import Analysis, MoveValue
    from lcanalysis.game.examples import example_text

    hint = advise(example_text("midround"), time_budget=0.2, seed=0)
    ax = figures.move_values_chart(hint, limit=40).axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"{m.move} (n={m.extra['worlds']:,})" for m in hint.moves[:40]]
    assert len({m.extra["worlds"] for m in hint.moves}) > 1
    sampled = Analysis(moves=[MoveValue("+Y8/R", 17.3, 0.7, exact=False), MoveValue("-W4/Y", 14.6, 0.8, exact=False)],
                       kind="view value (averaged over splits)", exact=False, splits=400)
    ax = figures.move_values_chart(sampled).axes[0]
    assert "400 sampled splits" in ax.get_title() and [t.get_text() for t in ax.get_yticklabels()] == ["+Y8/R", "-W4/Y"]
    exact = Analysis(moves=[MoveValue("+Y8/R", 17.0, 0.0, exact=True)], kind="view value (averaged over splits)",
                     exact=True, splits=12)
    ax = figures.move_values_chart(exact).axes[0]
    assert "sampled splits" not in ax.get_title() and [t.get_text() for t in ax.get_yticklabels()] == ["+Y8/R"]


def test_the_wager_charts_say_when_their_numbers_are_estimates():
    """The wager means chart was titled "(exact)" whatever it was given: a Monte Carlo model's
    means (``wagers.models``) came out called exact, with no standard error anywhere. A sampled
    analysis is now titled an estimate with its sample, and each mean carries its standard error;
    the exact one is drawn as before."""
    from lcanalysis.wagers.canonical import ColorState, wager_distribution
    from lcanalysis.wagers.models import canonical_mc

    exact = wager_distribution(hand=[6, 8, 9], hand_wagers=2, draws=12)
    ax = figures.wager_means_chart(exact).axes[0]
    assert ax.get_title() == "Expected value of each number of wagers, 12 draws left (canonical model, exact)"
    assert [t.get_text() for t in ax.texts] == [f"{float(o.mean):+.1f}" for o in exact.by_wagers]
    sampled = canonical_mc(ColorState.make(hand=[6, 8, 9], hand_wagers=2), 12, n=2000, seed=1)
    assert sampled.sampled
    ax = figures.wager_means_chart(sampled).axes[0]
    assert ax.get_title() == ("Expected value of each number of wagers, 12 draws left (canonical (Monte Carlo) model, "
                              "estimate: Monte Carlo, 2,000 samples; ± s.e.)")
    assert [t.get_text() for t in ax.texts] == [f"{o.mean:+.1f} ± {o.stderr:.1f}" for o in sampled.by_wagers]
    legend = [t.get_text() for t in figures.score_distribution_chart(sampled).legends[0].get_texts()]
    assert legend == [f"{o.wagers} wager(s): mean {o.mean:+.1f} ± {o.stderr:.1f}" for o in sampled.by_wagers]


def test_publish_writes_a_figure_as_pdf_and_png_in_its_folder_and_returns_it(tmp_path):
    """What the notebooks do with every figure: it is shown (the value of the cell) and kept as files."""
    import matplotlib.image

    fig = figures.histogram([1.0, 2.0, 5.0], title="Figure 2. t", xlabel="points")
    folder = tmp_path / "figures"  # made: its parent exists
    assert figures.publish(fig, str(folder), "article_fig2") is fig
    assert sorted(p.name for p in folder.iterdir()) == ["article_fig2.pdf", "article_fig2.png"]
    assert (folder / "article_fig2.pdf").read_bytes()[:4] == b"%PDF"
    width, height = fig.get_size_inches()
    assert matplotlib.image.imread(folder / "article_fig2.png").shape[:2] == (round(height * figures.PNG_DPI),
                                                                               round(width * figures.PNG_DPI))
    figures.publish(fig, str(folder), "article_fig2")  # again: the files are written over, nothing else
    assert len(list(folder.iterdir())) == 2


@pytest.mark.parametrize("folder, name, message", [
    ("figures", "", r"name must be a file name without folder or extension .*, got ''"),
    ("figures", "fig.png", r"name must be .*, got 'fig\.png'"),
    ("figures", "sub/fig", r"name must be .*, got 'sub/fig'"),
    ("figures", None, r"name must be .*, got None"),
    ("missing/figures", "fig", r"the folder .*missing \(where figures would be made for the figures\) does not exist"),
    ("", "fig", r"folder must be the path of a folder for the figures, got ''"),
])
def test_publish_refuses_a_bad_name_or_folder_before_writing(tmp_path, folder, name, message):
    fig = figures.histogram([1.0, 2.0], title="t", xlabel="x")
    with pytest.raises(ValueError, match=message):
        figures.publish(fig, str(tmp_path / folder) if folder else folder, name)
    assert not any(tmp_path.rglob("*.p*"))
    assert not (tmp_path / "missing").exists()


def _every_chart():
    """One figure of each chart function, on small made-up inputs."""
    import numpy as np
    import pandas as pd

    from lcanalysis.wagers.canonical import wager_distribution

    e = Estimate(0.8, 0.16, 20000)
    fit = {"slope": 0.95, "intercept": 0.3, "slope_low": 0.93, "slope_high": 0.98, "intercept_low": -0.4,
           "intercept_high": 1.0}
    bins = pd.DataFrame({"value": [-10.0, 0.0, 10.0], "realized": [-9.0, 1.0, 9.5], "realized s.e.": [1.0, 1.0, 1.0]})
    summary = {"consistent": 2, "positions": 3, "share": 0.67, "share_low": 0.2, "share_high": 0.9,
               "mean_loss": 0.5, "loss_low": 0.1, "loss_high": 0.9}
    grid = pd.DataFrame([{"sum": s, "draws": d, "v": s - 20 + d} for s in (15, 20) for d in (0, 10)])
    wagers = wager_distribution(hand=[6, 8, 9], hand_wagers=1, draws=5)
    models = pd.DataFrame({"model": ["canonical", "turns"], "rows": [100, 100], "bias": [8.5, 4.3],
                           "bias s.e.": [0.3, 0.3]})
    fit_estimates = {"intercept": Estimate(4.1, 0.1, 100), "slope": Estimate(0.4, 0.01, 100)}
    import lcanalysis as lc

    solved = lc.solve(lc.read_position("example:endgame").view(), max_stalls=0)
    return {
        "move_values_chart": figures.move_values_chart(solved),
        "estimates_chart": figures.estimates_chart({"edge": e, "other": e}, title="t", xlabel="points"),
        "grouped_estimates_chart": figures.grouped_estimates_chart({"2 cards left": {"a": e, "b": e}}, ["a", "b"],
                                                                   title="t", xlabel="points"),
        "histogram": figures.histogram([1.0, 2.0, 5.0], title="t", xlabel="points"),
        "heatmap": figures.heatmap(grid, index="sum", columns="draws", values="v", title="t", label="points"),
        "fit_chart": figures.fit_chart([1, 2, 3], [1.0, 2.0, 2.5], fit_estimates, title="t", xlabel="x", ylabel="y",
                                       claim=(22, 0.6)),
        "calibration_chart": figures.calibration_chart(np.arange(6.0), np.arange(6.0) + 1, fit, bins,
                                                       groups=["early"] * 3 + ["late"] * 3),
        "consistency_chart": figures.consistency_chart([0.0, 0.2, 2.0], [0.1, 0.2, 0.3], [True, True, False],
                                                       summary, 30),
        "model_comparison_chart": figures.model_comparison_chart(models),
        "score_distribution_chart": figures.score_distribution_chart(wagers),
        "wager_means_chart": figures.wager_means_chart(wagers),
        "outcome_histogram": figures.outcome_histogram([-5.0, 0.0, 12.0], "+R7/D"),
    }


def test_no_figure_writes_text_smaller_than_the_smallest_readable_size():
    """Readable in print at the figure's size: every text of every chart (titles, labels, ticks,
    legends, the numbers in a heatmap's cells, the sample sizes above a grouped chart's points, which
    were 6 points) is at least ``figures.MIN_FONT`` points."""
    from matplotlib.text import Text

    charts = _every_chart()
    assert set(charts) >= {name for name in dir(figures) if name.endswith(("_chart", "_histogram", "heatmap"))}
    for name, fig in charts.items():
        fig.canvas.draw()
        small = [(t.get_text(), t.get_fontsize()) for t in fig.findobj(Text)
                 if t.get_visible() and t.get_text().strip() and t.get_fontsize() < figures.MIN_FONT]
        assert not small, f"{name}: {small}"


def test_the_estimate_charts_draw_a_shares_own_interval_as_the_tables_give_it():
    """A share's 95% interval is Wilson's (``Estimate.proportion``; ``estimates_frame`` prints it), but
    the charts drew mean ± 1.96 standard errors: 1 hit in 20 had a bar from -0.045, below 0, where the
    table beside it said 0.009 to 0.236. The bars are now the interval the table gives."""
    share = Estimate.proportion([True] + [False] * 19)
    z, n, p = 1.959963984540054, 20, 0.05  # Wilson's interval, worked out here
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    wilson = (centre - half, centre + half)
    assert wilson[0] == pytest.approx(0.0089, abs=1e-4) and wilson[1] == pytest.approx(0.2361, abs=1e-4)

    def bars(fig):  # each errorbar's (low, high), as drawn
        return [tuple(sorted((seg[0][0], seg[1][0]))) for c in fig.axes[0].containers
                for seg in c.lines[2][0].get_segments()]

    fig = figures.estimates_chart({"hit": share, "points": Estimate(0.8, 0.2, 100)}, title="t", xlabel="share")
    assert bars(fig)[0] == pytest.approx(wilson)
    t99 = 1.9842  # a mean's: Student's t over its 100 samples (99 degrees of freedom; a printed table's value)
    assert bars(fig)[1] == pytest.approx((0.8 - t99 * 0.2, 0.8 + t99 * 0.2), rel=1e-4)
    fig = figures.grouped_estimates_chart({"2 cards left": {"hit": share}}, ["hit"], title="t", xlabel="share")
    assert bars(fig)[0] == pytest.approx(wilson)


def test_the_grouped_chart_names_what_its_sample_sizes_count():
    """``estimates_chart`` takes ``counts`` ("(400 deals)"), the grouped chart did not: a writer's Monte
    Carlo estimates and a study's positions both read "n=20,000" above their markers. Now "20,000 samples"."""
    groups = {"11 turns left": {"4 5 6": Estimate(-3.41, 0.06, 20000), "8 9 10": Estimate(2.68, 0.02, 20000)},
              "14 turns left": {"4 5 6": Estimate(2.59, 0.08, 20000), "8 9 10": Estimate(10.04, 0.04, 20000)}}
    fig = figures.grouped_estimates_chart(groups, ["4 5 6", "8 9 10"], title="t", xlabel="points", counts="samples")
    assert [t.get_text() for t in fig.axes[0].texts] == ["20,000 samples"] * 4
    fig = figures.grouped_estimates_chart(groups, ["4 5 6"], title="t", xlabel="points")
    assert [t.get_text() for t in fig.axes[0].texts] == ["n=20,000"] * 2  # without counts, as before


@pytest.mark.parametrize("counts", [None, "sampled positions"])
def test_the_grouped_charts_sample_sizes_stay_inside_the_plot_and_the_saved_figure(counts):
    """A marker at the right end of the axis, its interval too short to make room ("1,000,000 sampled
    positions" over an exact +400), had its sample size hang over the frame, and one at the left end over
    the row names: the layout squeezed the plot to keep them on the page. Each label now lies within the
    frame, so within the figure too, as a file saved at the figure's size (any dpi: all scales) shows it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    groups = {"2 cards left": {"gain": Estimate(0.5, 0.4, 400), "cost": Estimate(400.0, 0.0, 1_000_000)},
              "3 cards left": {"gain": Estimate(-60.0, 0.05, 400), "cost": Estimate(3.0, 1.0, 20000)}}
    fig = figures.grouped_estimates_chart(groups, ["gain", "cost"], title="t", xlabel="points", counts=counts)
    ax = fig.axes[0]
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    assert len(ax.texts) == 4
    for text in ax.texts:
        box = text.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= fig.bbox.x1 and box.y0 >= 0 and box.y1 <= fig.bbox.y1, text.get_text()
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, \
            text.get_text()
    # the limits only grew: every marker and interval is still drawn where its numbers say
    lo, hi = ax.get_xlim()
    assert lo < -60.0 - 1.96 * 0.05 and hi > 400.0


def _wager_answers():
    from lcanalysis.wagers.canonical import ColorState, wager_distribution
    from lcanalysis.wagers.models import turn_model

    return {"exact": wager_distribution(hand=[6, 8, 9], hand_wagers=2, draws=12),
            "sampled": turn_model(ColorState.make(hand=[4, 6, 9], hand_wagers=3), 10, share=1 / 3, unseen="round",
                                  n=400, seed=1, progress=False)}


@pytest.mark.parametrize("kind", ["exact", "sampled"])
@pytest.mark.parametrize("chart", ["score_distribution_chart", "wager_means_chart"])
def test_the_wager_charts_legends_stand_outside_the_plot_and_hide_no_data(chart, kind):
    """The legend sat inside the plot where matplotlib found room: over the stems of the three-wager
    scores at -44 and -40 for 4 6 9 held with 10 turns left (a third of them), bars it hid. It now
    stands under the plot, within the saved figure, touching no part of the plot's frame."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = getattr(figures, chart)(_wager_answers()[kind])
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    frame = fig.axes[0].get_window_extent(renderer)
    assert fig.axes[0].get_legend() is None and len(fig.legends) == 1
    box = fig.legends[0].get_window_extent(renderer)
    assert box.y1 < frame.y0 and not box.overlaps(frame)
    whole = fig.bbox
    assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0, (box, whole)


def test_the_wager_charts_draw_each_estimates_95_percent_interval():
    """A Monte Carlo answer's chances and means were drawn as bare points, as if exact. Each sampled
    chance now carries a bar of ± t(n - 1) · sqrt(p(1 - p) / (n - 1)) and each mean ± t(n - 1) · s.e.,
    Student's t at 95% (1.9659 for 400 samples), recomputed here from the answer's own numbers; an
    exact answer draws none."""
    from matplotlib.collections import LineCollection
    from scipy import stats

    answers = _wager_answers()
    sampled = answers["sampled"]
    n = sampled.by_wagers[0].samples
    t = stats.t.ppf(0.975, n - 1)

    def bars(ax):  # each errorbar's vertical segments as (x, centre, half-width), per call; not the stems (from 0)
        out = []
        for c in ax.collections:
            segments = c.get_segments() if isinstance(c, LineCollection) else []
            if segments and not all(min(seg[0][1], seg[1][1]) == 0 for seg in segments):
                out.append([(seg[0][0], (seg[0][1] + seg[1][1]) / 2, abs(seg[1][1] - seg[0][1]) / 2)
                            for seg in c.get_segments()])
        return out

    ax = figures.score_distribution_chart(sampled).axes[0]
    intervals = bars(ax)
    assert len(intervals) == len(sampled.by_wagers)
    for o, drawn in zip(sampled.by_wagers, intervals, strict=True):
        want = sorted((s, float(p), t * math.sqrt(float(p) * (1 - float(p)) / (n - 1)))
                      for s, p in o.distribution.items())
        assert [v for row in sorted(drawn) for v in row] == pytest.approx([v for row in want for v in row], rel=1e-9)
    assert "95% intervals" in figures.score_distribution_chart(sampled).legends[0].get_title().get_text()
    fig = figures.wager_means_chart(sampled)
    thick = [c for c in fig.axes[0].collections if isinstance(c, LineCollection) and max(c.get_linewidths()) >= 4]
    assert len(thick) == 1
    drawn = sorted((seg[0][0], (seg[0][1] + seg[1][1]) / 2, abs(seg[1][1] - seg[0][1]) / 2)
                   for seg in thick[0].get_segments())
    assert [v for row in drawn for v in row] == pytest.approx(
        [v for o in sampled.by_wagers for v in (o.wagers, o.mean, t * o.stderr)], rel=1e-9)
    assert "95% interval of the mean" in " ".join(t.get_text() for t in fig.legends[0].get_texts())
    exact = answers["exact"]
    assert bars(figures.score_distribution_chart(exact).axes[0]) == []
    assert not [c for c in figures.wager_means_chart(exact).axes[0].collections
                if isinstance(c, LineCollection) and max(c.get_linewidths()) >= 4]
    assert figures.score_distribution_chart(exact).legends[0].get_title().get_text() == ""


@pytest.mark.parametrize("kind", ["exact", "sampled"])
@pytest.mark.parametrize("chart", ["score_distribution_chart", "wager_means_chart"])
def test_the_wager_charts_drawn_at_a_columns_width_stay_readable_and_within_the_figure(chart, kind):
    """A 7-inch chart printed in a 3.4-inch column shrinks its 8-point text to 4 points. Drawn at
    ``width=figures.COLUMN_WIDTH`` it is that wide, every text at least ``MIN_FONT`` points and inside
    the figure (the title wrapped, the legend in one column under the plot), the means' numbers inside
    the plot's frame; a width no figure has is refused by name."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    answer = _wager_answers()[kind]
    fig = getattr(figures, chart)(answer, width=figures.COLUMN_WIDTH)
    assert fig.get_size_inches()[0] == pytest.approx(3.4)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    frame = fig.axes[0].get_window_extent(renderer)
    small = [t.get_text() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.get_fontsize() < figures.MIN_FONT]
    assert not small
    drawn, (w, h) = fig.get_tightbbox(renderer), fig.get_size_inches()  # everything drawn, in inches
    assert drawn.x0 >= -0.01 and drawn.x1 <= w + 0.01 and drawn.y0 >= -0.01 and drawn.y1 <= h + 0.01, (drawn, w, h)
    for t in fig.axes[0].texts:
        box = t.get_window_extent(renderer)
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1, t.get_text()
    legend = fig.legends[0].get_window_extent(renderer)
    assert legend.y1 < frame.y0
    with pytest.raises(ValueError, match=rf"{chart}: width must be the figure's width in inches, from 2 to 12"):
        getattr(figures, chart)(answer, width=40)


def _half_widths(ax, horizontal: bool) -> list[float]:
    """Each error bar's half width as drawn, in the order drawn (the segments of every bar container)."""
    from matplotlib.container import ErrorbarContainer

    out = []
    for c in ax.containers:
        if not isinstance(c, ErrorbarContainer) or not c.lines[2]:  # (a bar chart's bars hold their errorbar too)
            continue
        for seg in c.lines[2][0].get_segments():
            (x0, y0), (x1, y1) = seg
            out.append(abs(x1 - x0) / 2 if horizontal else abs(y1 - y0) / 2)
    return out


def test_the_turn_values_chart_draws_student_s_t_over_each_turn_s_worlds():
    """The turns' bars were ± 1.96 s.e. whatever the worlds behind them: a turn successive halving dropped
    after 12 play-outs, or an endgame level of 8 to 96 sampled worlds, has Student's t with worlds - 1
    degrees of freedom (2.20 at 12 worlds); an average over every fill of buried cards, each fill's splits
    sampled apart, has no one sample size and keeps ± 1.96; an exact value has no bar."""
    from scipy import stats

    from lcanalysis.analysis import Analysis, MoveValue

    played_out = Analysis(moves=[MoveValue("+Y8/R", 17.3, 0.5, exact=False, extra={"worlds": 1268}),
                                 MoveValue("-W4/Y", 14.6, 0.8, exact=False, extra={"worlds": 12})],
                          kind="advisor estimate", exact=False)
    halves = _half_widths(figures.move_values_chart(played_out).axes[0], horizontal=True)
    assert halves == pytest.approx([stats.t.ppf(0.975, 1267) * 0.5, stats.t.ppf(0.975, 11) * 0.8])
    assert stats.t.ppf(0.975, 11) == pytest.approx(2.201, abs=1e-3)  # (a printed table's value)
    level = Analysis(moves=[MoveValue("+Y8/R", 17.3, 0.7, exact=False), MoveValue("-W4/Y", 14.6, 0.0, exact=True)],
                     kind="view value (sampled worlds)", exact=False, splits=20)
    halves = _half_widths(figures.move_values_chart(level).axes[0], horizontal=True)
    assert halves == pytest.approx([stats.t.ppf(0.975, 19) * 0.7, 0.0])
    fills = Analysis(moves=[MoveValue("+Y8/R", 17.3, 0.7, exact=False)],
                     kind="view value (sampled worlds), averaged over 3 fills of the buried pile cards", exact=False,
                     splits=3)
    assert _half_widths(figures.move_values_chart(fills).axes[0], horizontal=True) == pytest.approx([1.96 * 0.7])


def test_the_bias_and_calibration_bars_are_student_s_t_over_their_samples():
    """The wager models' bias (a mean over ``rows`` expeditions) and the calibration bins (each a mean over
    its ``rounds``) drew ± 1.96 s.e.: a bin of 6 rounds has ± 2.57. Tables without the counts (made by
    hand) keep ± 1.96."""
    import numpy as np
    import pandas as pd
    from scipy import stats

    models = pd.DataFrame({"model": ["canonical", "turns"], "rows": [30, 1949], "bias": [8.5, 4.3],
                           "bias s.e.": [0.3, 0.2]})
    halves = _half_widths(figures.model_comparison_chart(models).axes[0], horizontal=True)
    assert halves == pytest.approx([stats.t.ppf(0.975, 29) * 0.3, stats.t.ppf(0.975, 1948) * 0.2])
    # counted by round (the study's table), the samples are the rounds: a round's expeditions are one
    rounds = models.assign(rounds=[12, 1558])
    halves = _half_widths(figures.model_comparison_chart(rounds).axes[0], horizontal=True)
    assert halves == pytest.approx([stats.t.ppf(0.975, 11) * 0.3, stats.t.ppf(0.975, 1557) * 0.2])
    bare = models.drop(columns="rows")
    assert _half_widths(figures.model_comparison_chart(bare).axes[0], horizontal=True) == pytest.approx([0.588, 0.392])
    fit = {"slope": 0.95, "intercept": 0.3, "slope_low": 0.93, "slope_high": 0.98, "intercept_low": -0.4,
           "intercept_high": 1.0}
    bins = pd.DataFrame({"value": [-10.0, 0.0, 10.0], "realized": [-9.0, 1.0, 9.5], "realized s.e.": [1.0, 0.5, 2.0],
                         "positions": [40, 40, 40], "rounds": [6, 30, 200]})
    fig = figures.calibration_chart(np.arange(6.0), np.arange(6.0) + 1, fit, bins)
    halves = _half_widths(fig.axes[0], horizontal=False)
    assert halves == pytest.approx([stats.t.ppf(0.975, 5) * 1.0, stats.t.ppf(0.975, 29) * 0.5,
                                    stats.t.ppf(0.975, 199) * 2.0])
    assert halves[0] == pytest.approx(2.571, abs=1e-3)
    fig = figures.calibration_chart(np.arange(6.0), np.arange(6.0) + 1, fit, bins.drop(columns="rounds"))
    assert _half_widths(fig.axes[0], horizontal=False) == pytest.approx([1.96, 0.98, 3.92])
