"""Matplotlib figures for the notebooks and explorers, labelled for an article.

Each function returns a closed ``matplotlib.figure.Figure`` (it shows where it is the value of a
notebook cell or passed to ``display``, and never twice). Nothing here computes: the numbers
come from ``lcanalysis`` functions and are only drawn. ``save`` writes one to a file for an
article (SVG, PDF or PNG); ``publish`` writes a notebook's figure to its PDF and PNG files and
returns it, so the cell shows it too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from lcanalysis.analysis import error_digits
from lcanalysis.show.palette import BY_LETTER, NEUTRAL

#: the smallest text a figure writes, in points (a 7-inch figure is printed at its size; the sample
#: sizes above the grouped chart's points were 6)
MIN_FONT = 7

#: each expedition colour as a figure draws it on a white page (``show.palette``)
COLOURS = {letter: look.line for letter, look in BY_LETTER.items()}


def _fig(width: float = 7.0, height: float = 4.0, ncols: int = 1):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(1, ncols, figsize=(width, height), constrained_layout=True)
    plt.close(fig)
    for a in np.atleast_1d(ax):  # a long title ("... (bars: 95% intervals)") ran off a saved figure's edge
        a.title.set_wrap(True)
    return fig, ax


#: the formats a figure is saved in: vector (SVG, PDF) for print, PNG at ``PNG_DPI`` for the web
FORMATS = (".svg", ".pdf", ".png")
PNG_DPI = 200


def save(fig: Any, path: str, dpi: int = PNG_DPI) -> str:
    """Write ``fig`` to ``path`` for an article: ``.svg`` or ``.pdf`` as vector graphics, ``.png``
    at ``dpi`` (a 7-inch figure at 200 dpi is 1,400 pixels wide). Returns the path. The format
    is the file's extension; another extension or a missing folder is refused by name before
    anything is written (there was no way to save a figure but matplotlib's own)."""
    import os

    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise ValueError(f"save: {path!r} must end in one of {', '.join(FORMATS)} (the format), got {ext or 'none'!r}")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 50 <= dpi <= 1200:
        raise ValueError(f"save: dpi must be a whole number of dots per inch from 50 to 1200, got {dpi!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"save: the folder {folder} of {path!r} does not exist")
    fig.savefig(path, dpi=dpi, format=ext[1:], metadata={"Software": "lcanalysis"} if ext == ".png" else None)
    return path


#: the files ``publish`` writes a figure to: PDF (vector, for print; an SVG of a 23,000-point scatter
#: is 3.5 MB, its PDF 0.2 MB) and PNG at ``PNG_DPI`` (for the web)
PUBLISHED = (".pdf", ".png")


def publish(fig: Any, folder: str, name: str) -> Any:
    """Save ``fig`` as ``folder/name.pdf`` and ``folder/name.png`` (``PUBLISHED``, through ``save``)
    and return it, so that a notebook cell both shows its figure and keeps it as files::

        figures.publish(figures.histogram(...), FIGURES, "first_player_fig2_edge_per_deal")

    ``folder`` is made when its parent exists (a notebook's ``FIGURES = "figures"``, beside it);
    a missing parent, or a ``name`` that is empty, holds a folder separator or ends in an
    extension, is refused by name before anything is written."""
    import os

    if not isinstance(name, str) or not name.strip() or os.sep in name or "/" in name \
            or os.path.splitext(name)[1] or name.startswith("."):
        raise ValueError(f"publish: name must be a file name without folder or extension (the files are "
                         f"NAME{' and NAME'.join(PUBLISHED)}), got {name!r}")
    if not isinstance(folder, (str, os.PathLike)) or not str(folder).strip():
        raise ValueError(f"publish: folder must be the path of a folder for the figures, got {folder!r}")
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        if not os.path.isdir(os.path.dirname(folder)):
            raise ValueError(f"publish: the folder {os.path.dirname(folder)} (where {os.path.basename(folder)} "
                             f"would be made for the figures) does not exist")
        os.makedirs(folder, exist_ok=True)
    for ext in PUBLISHED:
        save(fig, os.path.join(folder, name + ext))
    return fig


def _move_colour(move: str) -> str:
    letter = move[1:2].upper() if move[:1] in "+-" else ""
    return COLOURS.get(letter, NEUTRAL)


def move_values_chart(analysis: Any, limit: int = 15, title: str | None = None):
    """Horizontal bars: each turn's expected value (final score difference) with a 95% error bar.
    A turn the endgame search only showed to be worse (``upper_bound``) is drawn hatched and pale,
    labelled "≤": its bar is a bound on its value, not the value. An estimate says its sample: each
    turn's worlds in its label (play-outs), or the sampled splits in the title (the endgame search)."""
    from matplotlib.patches import Patch

    moves = analysis.moves[:limit]
    fig, ax = _fig(7.0, 0.35 * max(len(moves), 3) + 1.4)
    y = np.arange(len(moves))[::-1]
    vals = [m.value for m in moves]
    errs = [_move_half_95(m, analysis) for m in moves]
    bars = ax.barh(y, vals, xerr=errs, color=[_move_colour(m.move) for m in moves], alpha=0.85,
                   error_kw={"ecolor": "black", "capsize": 3, "lw": 1})
    for bar, m in zip(bars, moves, strict=True):
        if m.upper_bound:
            bar.set_alpha(0.35)
            bar.set_hatch("//")
    ax.set_yticks(y, [_turn_label(m) for m in moves])
    if any(m.upper_bound for m in moves):
        ax.legend(handles=[Patch(facecolor="#dddddd", hatch="//",
                                 label="≤: a bound; the endgame search showed only that the turn is worse")],
                  loc="lower left", fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("expected final score difference (mover − opponent), points")
    splits = "" if analysis.exact or not analysis.splits or any("worlds" in m.extra for m in moves) \
        else f", {analysis.splits:,} sampled splits"
    ax.set_title(title or f"Best {len(moves)} turns — {analysis.kind}{splits}" +
                 ("" if analysis.exact else " (bars: 95% intervals)"), fontsize=10)
    return fig


def _move_half_95(m: Any, analysis: Any) -> float:
    """Half a turn's 95% bar: Student's t over the worlds its standard error is of, a play-out turn's own
    (successive halving drops a turn after as few as 12) or the sampled level's (the endgame search's 8 to
    96, ``analysis.splits``); 0 for an exact value. An average over every fill of buried pile cards has
    no one sample behind its error (each fill's splits sampled apart): ± 1.96 there."""
    if m.exact:
        return 0.0
    worlds = m.extra.get("worlds")
    if worlds is None and not re.search(r"averaged over \d+ fills", analysis.kind or ""):
        worlds = analysis.splits
    return 1.96 * m.stderr if not worlds else _half_95(m.stderr, int(worlds))


def _turn_label(m: Any) -> str:
    """A turn as the values chart names it: "≤" before a bound, and an estimate's sampled worlds
    after it (the advisor's turns have samples of their own: successive halving)."""
    name = f"≤ {m.move}" if m.upper_bound else m.move
    worlds = None if m.exact else m.extra.get("worlds")
    return name if worlds is None else f"{name} ({_sample_size(worlds)})"


def outcome_histogram(samples: Sequence[float] | np.ndarray, move: str, title: str | None = None):
    """Distribution of the final score difference after one turn over sampled worlds."""
    x = np.asarray(samples, dtype=float)
    fig, ax = _fig(7.0, 3.4)
    bins = np.arange(np.floor(x.min() / 10) * 10, np.ceil(x.max() / 10) * 10 + 10, 10) if x.size else 10
    ax.hist(x, bins=bins, color=_move_colour(move), alpha=0.8, edgecolor="white")
    if x.size:
        m = x.mean()
        se = x.std(ddof=1) / np.sqrt(x.size) if x.size > 1 else 0.0
        ax.axvline(m, color="black", lw=1.5, label=f"mean {m:+.1f} ± {se:.1f} s.e. ({_sample_size(x.size)})")
        ax.legend(loc="upper right")
    ax.set_xlabel("final score difference (mover − opponent), points")
    ax.set_ylabel("sampled worlds")
    ax.set_title(title or f"What follows {move}: outcomes over {x.size} sampled worlds", fontsize=10)
    return fig


def _wager_kind(wager_analysis: Any) -> str:
    """How a wager answer was computed, as a figure's title says it: exact, or an estimate (Monte
    Carlo, with its number of samples when known) whose means carry their standard errors."""
    if not wager_analysis.sampled:
        return "exact"
    n = wager_analysis.inputs.get("n") if isinstance(wager_analysis.inputs, Mapping) else None
    return f"estimate: Monte Carlo, {_sample_size(n, 'samples')}; ± s.e." if n else "estimate: Monte Carlo; ± s.e."


def _wager_settings(wager_analysis: Any) -> str:
    """What a wager answer's figure shows, as its title ends: the draws, the model with its settings (the
    turn model's turns, share and policy), exact or an estimate (" , 10 draws left (turns (11 turns,
    share 1/3, late) model, estimate: ...)")."""
    return (f", {wager_analysis.draws} draws left ({wager_analysis.model} model, "
            f"{_wager_kind(wager_analysis)})")


def _wager_colour(wager_analysis: Any, word: str = "of") -> str:
    """The colour a wager answer is about, as a title says it (" of the yellow expedition"), or ""."""
    from lcanalysis.game.cards import COLOR_LETTERS, color_name

    letter = wager_analysis.color.upper() if isinstance(wager_analysis.color, str) else ""
    if not letter or letter not in COLOR_LETTERS:
        return ""
    return f" {word} the {color_name(letter)} expedition"


def _wager_analysis(where: str, wager_analysis: Any) -> Any:
    """``wager_analysis`` when it is a wager answer (``WagerAnalysis``: ``by_wagers``, ``draws``, ``model``);
    else a ValueError naming the chart (a dict or None met an AttributeError on ``.by_wagers``)."""
    if all(hasattr(wager_analysis, k) for k in ("by_wagers", "draws", "model", "sampled")):
        return wager_analysis
    raise ValueError(f"{where}: give a wager answer (a WagerAnalysis: lc.wager(...), wager_distribution(...), "
                     f"turn_model(...)), got {type(wager_analysis).__name__}")


def _half_95(stderr: float, samples: int) -> float:
    """Half the width of a sampled number's 95% interval: Student's t with ``samples`` - 1 degrees of
    freedom times its standard error (``studies.estimate.t_interval``, as every estimate chart draws)."""
    from lcanalysis.studies.estimate import t_interval

    _low, high = t_interval(0.0, float(stderr), int(samples) - 1)
    return high if np.isfinite(high) else 0.0


def _legend_below(fig: Any, ax: Any, title: str | None = None, ncols: int = 2) -> Any:
    """The chart's legend under the plot, outside it, so that it never hides a point or a bar (inside,
    "best" put it over the stems of a score far to the left); ``ncols`` columns at most."""
    handles, labels = ax.get_legend_handles_labels()
    return fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), ncols), fontsize=8,
                      title=title, title_fontsize=8, frameon=False)


#: a column of a two-column page, in inches: the width an article's figure is often printed at
COLUMN_WIDTH = 3.4


def _chart_width(where: str, width: Any, default: float) -> float:
    """A chart's width in inches (``default`` when None), refused by name outside 2 to 12 inches."""
    if width is None:
        return default
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not 2.0 <= float(width) <= 12.0:
        raise ValueError(f"{where}: width must be the figure's width in inches, from 2 to 12 "
                         f"(a column: {COLUMN_WIDTH}), got {width!r}")
    return float(width)


def score_distribution_chart(wager_analysis: Any, title: str | None = None, width: float | None = None):
    """The score distribution of one expedition for each number of wagers placed now: a stem and a
    dot at each score, exactly there (bars side by side stood up to a point and more off their
    scores). The title says whether it is exact or a Monte Carlo estimate; an estimate's means carry
    their standard errors, and each sampled chance its 95% interval (a bar through its dot). The
    legend stands under the plot, where it hides nothing. ``width``: the figure's width in inches (7 by
    default; ``COLUMN_WIDTH`` for a column, its legend then in one column, every text still readable)."""
    outs = _wager_analysis("score_distribution_chart", wager_analysis).by_wagers
    w = _chart_width("score_distribution_chart", width, 7.0)
    fig, ax = _fig(w, 3.6 if w >= 5 else 4.2)
    for i, o in enumerate(outs):
        scores = sorted(o.distribution)
        probs = [float(o.distribution[s]) for s in scores]
        ax.vlines(scores, 0, probs, color=f"C{i}", lw=2, alpha=0.55)
        ax.plot(scores, probs, "o", color=f"C{i}", ms=4, label=f"{o.wagers} wager(s): mean {_wager_mean(o)}")
        if not o.exact and o.samples > 1:  # each chance a share of the samples: sqrt(p(1 - p) / (n - 1))
            errors = [_half_95(np.sqrt(p * (1 - p) / (o.samples - 1)), o.samples) for p in probs]
            ax.errorbar(scores, probs, yerr=errors, fmt="none", ecolor=f"C{i}", elinewidth=1, capsize=2)
    ax.set_ylim(bottom=0)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("final expedition score, points")
    ax.set_ylabel("probability")
    _legend_below(fig, ax, "bars: 95% intervals of the sampled chances" if wager_analysis.sampled else None,
                  ncols=2 if w >= 5 else 1)
    ax.set_title(title or f"Score distribution{_wager_colour(wager_analysis)}{_wager_settings(wager_analysis)}",
                 fontsize=10)
    return fig


def wager_means_chart(wager_analysis: Any, title: str | None = None, width: float | None = None):
    """Expected score with a band of one standard deviation, for each number of wagers; the title
    names the draws and the model with its settings, as ``score_distribution_chart``'s does, and says
    whether the means are exact or Monte Carlo estimates, an estimate's label its standard error and
    its 95% interval drawn (a thick bar inside the spread's). The legend stands under the plot.
    ``width``: the figure's width in inches (5 by default; ``COLUMN_WIDTH`` for a column)."""
    outs = _wager_analysis("wager_means_chart", wager_analysis).by_wagers
    w = _chart_width("wager_means_chart", width, 5.0)
    fig, ax = _fig(w, 3.4 if w >= 5 else 4.0)
    j = [o.wagers for o in outs]
    m = [float(o.mean) for o in outs]
    sd = [o.sd for o in outs]
    ax.errorbar(j, m, yerr=sd, fmt="o-", capsize=4, color="#1f5fbf", label="mean ± 1 sd (spread, not error)")
    if wager_analysis.sampled:  # the estimate's own error: its 95% interval, drawn where it is
        half = [_half_95(o.stderr, o.samples) if not o.exact else 0.0 for o in outs]
        ax.errorbar(j, m, yerr=half, fmt="none", elinewidth=4, capsize=0, color="#d9822b", zorder=3,
                    label="95% interval of the mean (Monte Carlo estimate)")
    for x, y, o in zip(j, m, outs, strict=True):  # right of each point, left of the last: "+33.0" ran over the frame
        last = x == j[-1] and len(j) > 1
        ax.annotate(_wager_mean(o), (x, y), textcoords="offset points", xytext=(-6 if last else 6, 4), fontsize=8,
                    ha="right" if last else "left")
    ax.axhline(0, color="black", lw=0.8)
    ax.margins(y=0.15)  # room above the highest point for its number (with no spread it sat on the frame)
    ax.set_xticks(j)
    ax.set_xlabel("wagers placed now")
    ax.set_ylabel("expected expedition score, points")
    _legend_below(fig, ax, ncols=1)  # (two entries side by side ran off a 5-inch figure)
    ax.set_title(title or f"Expected value of each number of wagers{_wager_colour(wager_analysis, 'on')}"
                          f"{_wager_settings(wager_analysis)}", fontsize=10)
    return fig


def _wager_mean(outcome: Any) -> str:
    """A wager outcome's mean as the charts write it: with its standard error when sampled, both in
    as many decimals as the error needs ("+1.62 ± 0.04", where one decimal gave "+1.6 ± 0.0")."""
    if outcome.exact:
        return f"{float(outcome.mean):+.1f}"
    digits = error_digits(float(outcome.stderr), 1)  # (the hint's rule: never "± 0.0" for an error not 0)
    return f"{float(outcome.mean):+.{digits}f} ± {outcome.stderr:.{digits}f}"


def _is_dark(rgba: Sequence[float]) -> bool:
    """Whether a colour is dark enough that black text on it is hard to read (its luma below one half)."""
    r, g, b = rgba[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b < 0.5


def _no_minus_zero(text: str) -> str:
    """A number as written, without the minus of a value that rounds to zero ("-0", "-0.0")."""
    return text[1:] if text.startswith("-") and not any(ch in "123456789" for ch in text) else text


def heatmap(frame: Any, index: str, columns: str, values: str, title: str, label: str,
            cmap: str = "RdBu", center: float | None = 0.0, fmt: str = "{:.0f}", annotate: bool = True,
            xlabel: str | None = None, ylabel: str | None = None):
    """A labelled heatmap of ``values`` over ``index`` (rows) by ``columns`` from a long table:
    numeric rows from the highest at the top, named rows (such as holdings) in the table's order.
    ``xlabel``, ``ylabel``: the axes' words (default: the column names, such as "draws")."""
    import pandas as pd

    table = frame.pivot(index=index, columns=columns, values=values)
    if pd.api.types.is_numeric_dtype(frame[index]):
        table = table.sort_index(ascending=False)
    else:  # pivot sorts names as text: the holdings "10", "2 3 4", "5 6 7" came out "8 9 10", "6 7 8 9", "5 6 7", ...
        table = table.reindex(pd.unique(frame[index]))
    fig, ax = _fig(7.5, 0.3 * len(table) + 1.8)
    data = table.to_numpy(dtype=float)
    kw: dict[str, Any] = {}
    if center is not None:
        span = np.nanmax(np.abs(data - center)) or 1.0
        kw = {"vmin": center - span, "vmax": center + span}
    im = ax.imshow(data, aspect="auto", cmap=cmap, **kw)
    ax.set_xticks(range(len(table.columns)), [str(c) for c in table.columns])
    ax.set_yticks(range(len(table.index)), [str(i) for i in table.index])
    ax.set_xlabel(xlabel or columns.replace("_", " "))
    ax.set_ylabel(ylabel or index.replace("_", " "))
    if annotate and data.size <= 400:
        for (r, c), v in np.ndenumerate(data):
            if np.isfinite(v):
                ax.text(c, r, _no_minus_zero(fmt.format(v)), ha="center", va="center", fontsize=MIN_FONT,
                        color="white" if _is_dark(im.cmap(im.norm(v))) else "black")
    cb = fig.colorbar(im, ax=ax)
    cb.set_label(label)
    ax.set_title(title, fontsize=10)
    return fig


def _sample_size(n: Any, counts: str | None = None) -> str:
    """A sample size as a figure says it: "n=2,000", or "2,000 deals" when ``counts`` names them."""
    return f"n={int(n):,}" if counts is None else f"{int(n):,} {counts}"


def _checked_estimate(where: str, name: str, value: Any) -> Any:
    """``value`` when it is an estimate (a mean, its standard error and sample size, as
    ``lcanalysis.studies.estimate.Estimate``); else a ValueError naming the chart and the row (a
    plain number or a (mean, s.e.) pair met an AttributeError on ``.mean``)."""
    if all(hasattr(value, k) for k in ("mean", "stderr", "n")):
        return value
    raise ValueError(f"{where}: {name!r} is {value!r}, not an estimate: give an Estimate (a mean with its standard "
                     f"error and sample size: lcanalysis.studies.estimate.Estimate.of(values), or "
                     f"Estimate(mean, stderr, n))")


def _interval_bars(estimates: Sequence[Any]) -> np.ndarray:
    """The errorbar lengths below and above each mean for its 95% interval, ``Estimate.ci95``, as
    ``estimates_frame`` prints it: a share's own (Wilson's), else Student's t over its ``n`` samples."""
    from lcanalysis.studies.estimate import t_interval

    low, high = [], []
    for e in estimates:
        lo, hi = e.ci95 if hasattr(e, "ci95") else t_interval(e.mean, e.stderr, e.n - 1)
        low.append(e.mean - lo)
        high.append(hi - e.mean)
    return np.array([low, high], dtype=float)


def estimates_chart(estimates: Mapping[str, Any], title: str, xlabel: str, reference: float | None = None,
                    counts: str | None = None):
    """Point estimates with 95% intervals (``Estimate.ci95``: a share's own, Wilson's; a mean's,
    Student's t), one row each (``Estimate`` values), each row's label with its sample size ("live run
    (n=150)"; ``counts`` names what is counted: "(150 deals)")."""
    estimates = {name: _checked_estimate("estimates_chart", name, e) for name, e in estimates.items()}
    names = list(estimates)
    fig, ax = _fig(7.0, 0.45 * len(names) + 1.4)
    y = np.arange(len(names))[::-1]
    ax.errorbar([estimates[n].mean for n in names], y, xerr=_interval_bars([estimates[n] for n in names]),
                fmt="o", capsize=4, color="#1f5fbf")
    if reference is not None:
        ax.axvline(reference, color="black", lw=0.8, ls="--")
    ax.set_yticks(y, [f"{n} ({_sample_size(estimates[n].n, counts)})" for n in names])
    ax.set_xlabel(xlabel)
    ax.set_title(title + " (bars: 95% intervals)", fontsize=10)
    return fig


def fit_chart(x: Sequence[float], y: Sequence[float], fit: Mapping[str, Any], title: str, xlabel: str, ylabel: str,
              claim: tuple[float, float] | None = None):
    """Scatter of (x, y) with the least-squares line and, optionally, a claimed line ``a + b x``."""
    xa = np.asarray(x, float)
    ya = np.asarray(y, float)
    fig, ax = _fig(7.0, 4.0)
    rng = np.random.default_rng(0)
    alpha = float(min(0.3, max(0.03, 300.0 / max(xa.size, 1))))
    ax.scatter(xa + rng.uniform(-0.3, 0.3, xa.size), ya, s=5, alpha=alpha, color="#555555",
               label=f"simulated colours ({_sample_size(xa.size)})")
    xs = np.linspace(xa.min() if xa.size else 0, xa.max() if xa.size else 1, 50)
    a, b = fit["intercept"], fit["slope"]
    ax.plot(xs, a.mean + b.mean * xs, color="#c0392b", lw=2,
            label=f"fit: {a.mean:.1f} ± {a.stderr:.1f} + ({b.mean:.2f} ± {b.stderr:.2f}) × sum")
    if claim is not None:
        ax.plot(xs, claim[0] + claim[1] * xs, color="black", ls="--", label=f"claim: {claim[0]:g} + {claim[1]:g} × sum")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    legend = ax.legend(fontsize=8)
    for handle in getattr(legend, "legend_handles", []):  # 46,000 points are drawn at alpha 0.03: solid in the legend
        handle.set_alpha(1.0)
    ax.set_title(title, fontsize=10)
    return fig


def model_comparison_chart(table: Any, title: str = "Wager models: predicted minus realized score"):
    """Bias of each model's prediction with a 95% interval, from ``experiments.wager_models_vs_play``
    (Student's t over its ``rounds``)."""
    fig, ax = _fig(7.0, 0.4 * len(table) + 1.4)
    y = np.arange(len(table))[::-1]
    # Student's t over the independent samples the bias's standard error is over: the simulated rounds
    # (``rounds``: a round's expeditions are one sample), or, in a table made before it counted them, the
    # expeditions (``rows``); a table with neither (made by hand) draws ± 1.96 s.e.
    se = np.asarray(table["bias s.e."], float)
    samples = "rounds" if "rounds" in table else "rows" if "rows" in table else None
    half = ([_half_95(e, int(n)) for e, n in zip(se, table[samples], strict=True)] if samples else 1.96 * se)
    ax.errorbar(table["bias"], y, xerr=half, fmt="o", capsize=4, color="#2e8b3a")
    ax.axvline(0, color="black", lw=0.8, ls="--")
    if "rows" in table:  # the expeditions and, when counted, the rounds they came from
        of = [f" of {int(r):,} rounds" for r in table["rounds"]] if "rounds" in table else [""] * len(table)
        ax.set_yticks(y, [f"{m} ({_sample_size(n, 'expeditions')}{o})"
                          for m, n, o in zip(table["model"], table["rows"], of, strict=True)])
    else:
        ax.set_yticks(y, list(table["model"]))
    ax.set_xlabel("mean predicted − mean realized expedition score, points")
    ax.set_title(title + " (bars: 95% intervals)", fontsize=10)
    return fig


def histogram(values: Sequence[float] | np.ndarray, title: str, xlabel: str, ylabel: str = "count",
              bin_width: float = 10.0):
    """A labelled histogram with the mean and its standard error marked."""
    x = np.asarray(values, dtype=float)
    if not np.isfinite(x).all():
        raise ValueError(f"histogram: {int((~np.isfinite(x)).sum())} of the {x.size} values are not finite numbers "
                         "(NaN or infinite): leave them out first, and say so beside the figure")
    fig, ax = _fig(7.0, 3.4)
    lo, hi = (np.floor(x.min() / bin_width) * bin_width, np.ceil(x.max() / bin_width) * bin_width + bin_width) \
        if x.size else (0, bin_width)
    ax.hist(x, bins=np.arange(lo, hi + bin_width / 2, bin_width), color="#1f5fbf", alpha=0.75, edgecolor="white")
    if x.size > 1:
        m, se = x.mean(), x.std(ddof=1) / np.sqrt(x.size)
        ax.axvline(m, color="black", lw=1.5, label=f"mean {m:+.2f} ± {se:.2f} s.e. ({_sample_size(x.size)})")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    return fig


def grouped_estimates_chart(groups: Mapping[str, Mapping[str, Any]], keys: Sequence[str], title: str, xlabel: str,
                            reference: float | None = 0.0, counts: str | None = None):
    """For each group (e.g. "2 cards left") the estimates named in ``keys``, one marker per key,
    with 95% intervals and its sample size written above it (the limits widened so that each stays within
    the frame): ``groups[group][key]`` is an ``Estimate``; ``counts`` names what is counted, as
    ``estimates_chart``'s does ("400 positions", not "n=400")."""
    for g in groups:
        for key in keys:
            if key not in groups[g]:
                raise ValueError(f"grouped_estimates_chart: group {g!r} has no estimate {key!r} (it has "
                                 f"{sorted(groups[g])})")
            _checked_estimate("grouped_estimates_chart", f"{g}: {key}", groups[g][key])
    names = list(groups)
    fig, ax = _fig(7.0, 0.5 * len(names) * max(len(keys), 1) + 1.6)
    markers = "osD^v"
    step = 0.8 / max(len(keys), 1)
    labels = []
    for j, key in enumerate(keys):
        y = np.arange(len(names))[::-1] + (len(keys) - 1) / 2 * step - j * step
        means = [groups[g][key].mean for g in names]
        errs = _interval_bars([groups[g][key] for g in names])
        ax.errorbar(means, y, xerr=errs, fmt=markers[j % len(markers)], capsize=4, label=key)
        for g, mean, at in zip(names, means, y, strict=True):
            if np.isfinite(mean):
                labels.append(ax.annotate(_sample_size(groups[g][key].n, counts), (mean, at),
                                          textcoords="offset points", xytext=(0, 4), ha="center", va="bottom",
                                          fontsize=MIN_FONT, color="#444444"))
    if reference is not None:
        ax.axvline(reference, color="black", lw=0.8, ls="--")
    ax.set_yticks(np.arange(len(names))[::-1], names)
    ax.set_xlabel(xlabel)
    ax.set_title(title + " (bars: 95% intervals)", fontsize=10)
    _room_for_labels(ax, labels)
    ax.legend(fontsize=8, loc="best")  # (placed once the limits are final)
    return fig


def _room_for_labels(ax: Any, labels: Sequence[Any], pad: float = 3.0) -> None:
    """Widen ``ax``'s limits until every label written beside a point lies within the plot's frame, ``pad``
    points from it: a marker at the right end had its sample size hang over the frame (the layout then
    squeezed the plot to keep it on the page), at the left end over the row names. The labels keep their
    size in points while the limits are in data, so the limits grow a few times until nothing sticks out."""
    if not labels:
        return
    fig = ax.figure
    for _ in range(8):
        fig.draw_without_rendering()  # the layout's final frame, and the labels where it puts them
        frame = ax.get_window_extent()
        room = pad * fig.dpi / 72
        boxes = [t.get_window_extent() for t in labels]  # (a closed figure's canvas has no renderer of its own)
        out = {"left": max(frame.x0 + room - b.x0 for b in boxes), "right": max(b.x1 - frame.x1 + room for b in boxes),
               "bottom": max(frame.y0 + room - b.y0 for b in boxes), "top": max(b.y1 - frame.y1 + room for b in boxes)}
        if max(out.values()) <= 0.5:  # within half a pixel
            return
        (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
        dx, dy = (x1 - x0) / frame.width, (y1 - y0) / frame.height
        ax.set_xlim(x0 - max(out["left"], 0) * dx, x1 + max(out["right"], 0) * dx)
        ax.set_ylim(y0 - max(out["bottom"], 0) * dy, y1 + max(out["top"], 0) * dy)


def calibration_chart(values: Sequence[float], realized: Sequence[float], fit: Mapping[str, Any], bins: Any,
                      groups: Sequence[str] | None = None,
                      title: str = "Predicted against realized final score difference",
                      xlabel: str = "the advisor's value of the turn played, points",
                      ylabel: str = "realized final score difference (mover − opponent), points"):
    """A calibration plot: each position's predicted value (x) against the realized result (y),
    coloured by ``groups`` (e.g. the phase of the round) when given; the line y = x (a calibrated
    predictor), the fitted least-squares line (``fit``: ``slope``, ``intercept`` and their
    ``_low``/``_high`` 95% bounds, as ``studies.calibration.calibration_fit`` gives them), and the
    binned means (``bins``: a table with ``value``, ``realized`` and ``realized s.e.``, and ``rounds``, the
    samples of each mean, as ``binned_means`` gives it) with 95% error bars."""
    xa = np.asarray(values, float)
    ya = np.asarray(realized, float)
    fig, ax = _fig(7.0, 5.2)
    alpha = float(min(0.5, max(0.08, 150.0 / max(xa.size, 1))))
    if groups is None:
        ax.scatter(xa, ya, s=7, alpha=alpha, color="#555555", label=f"positions (n={xa.size})")
    else:
        labels = np.asarray(groups)
        palette = [*(COLOURS[letter] for letter in "GBYRP"), NEUTRAL]
        for j, name in enumerate(dict.fromkeys(labels.tolist())):
            sel = labels == name
            ax.scatter(xa[sel], ya[sel], s=7, alpha=alpha, color=palette[j % len(palette)],
                       label=f"{name} (n={int(sel.sum())})")
    finite = np.concatenate([xa[np.isfinite(xa)], ya[np.isfinite(ya)]])
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 1.0)
    xs = np.linspace(lo, hi, 50)
    ax.plot(xs, xs, color="black", ls="--", lw=1, label="y = x (calibrated)")
    a, b = fit["intercept"], fit["slope"]
    ax.plot(xs, a + b * xs, color="#c0392b", lw=2,
            label=f"fit: {a:+.1f} [{fit['intercept_low']:+.1f}, {fit['intercept_high']:+.1f}] + "
                  f"{b:.2f} [{fit['slope_low']:.2f}, {fit['slope_high']:.2f}] × value")
    # each bin's mean is over its rounds (``binned_means``: a round's positions one sample), tens a bin:
    # Student's t with rounds - 1 degrees of freedom; bins without their rounds (made by hand): ± 1.96 s.e.
    se = np.asarray(bins["realized s.e."], float)
    half = ([_half_95(e, int(k)) for e, k in zip(se, bins["rounds"], strict=True)] if "rounds" in bins
            else 1.96 * se)
    ax.errorbar(bins["value"], bins["realized"], yerr=half, fmt="s",
                color="black", ms=5, capsize=3, label="mean result in bins of the value (95% intervals)")
    ax.axhline(0, color="#999999", lw=0.5)
    ax.axvline(0, color="#999999", lw=0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    legend = ax.legend(fontsize=MIN_FONT, loc="upper left")
    for handle in getattr(legend, "legend_handles", []):  # the faint points, drawn solid in the legend
        handle.set_alpha(1.0)
    ax.set_title(title, fontsize=10)
    return fig


def consistency_chart(loss: Sequence[float], loss_stderr: Sequence[float], consistent: Sequence[bool],
                      summary: Mapping[str, Any], reference: float,
                      title: str = "The hint's top turn, valued by a longer think"):
    """Each position's loss of the hint's top turn in the reference (y) against the reference's
    standard error of that loss (x); the line y = 2x bounds "within the reference's error", and
    the points are coloured consistent or not. ``summary`` is ``studies.consistency.consistency_summary``'s."""
    x = np.asarray(loss_stderr, float)
    y = np.asarray(loss, float)
    ok = np.asarray(consistent, bool)
    fig, ax = _fig(7.0, 4.6)
    ax.scatter(x[ok], y[ok], s=14, color="#2e8b3a", alpha=0.7,
               label=f"consistent: the reference's best, or within 2 s.e. (n={int(ok.sum())})")
    ax.scatter(x[~ok], y[~ok], s=14, color="#c0392b", alpha=0.8, label=f"not (n={int((~ok).sum())})")
    top = float(max(x.max(initial=0.0), 0.5))
    xs = np.linspace(0, top * 1.05, 20)
    ax.plot(xs, 2 * xs, color="black", ls="--", lw=1, label="loss = 2 standard errors")
    ax.set_xlabel(f"standard error of the loss in the {reference:g}x reference, points")
    ax.set_ylabel(f"loss of the hint's top turn in the {reference:g}x reference, points")
    ax.set_title(f"{title}\n{summary['consistent']}/{summary['positions']} consistent = {summary['share']:.2f} "
                 f"[{summary['share_low']:.2f}, {summary['share_high']:.2f}]; mean loss {summary['mean_loss']:.2f} "
                 f"[{summary['loss_low']:.2f}, {summary['loss_high']:.2f}] points", fontsize=10)
    ax.legend(fontsize=MIN_FONT, loc="upper left")
    return fig
