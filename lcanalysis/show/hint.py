"""The hint as a player reads it: a one-line verdict in words, then the best few turns grouped by
the card placed, each with its value and its loss against the best (with the standard error of
that difference), and a footer saying which question was answered and how exactly.

The shape is GNU Backgammon's hint: a short ranked list, each move's loss against the best,
error bars; the words are ours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lcanalysis.advisor import BOTH_HANDS_NOTE, in_words, playout_policy_in_words, playouts_far_off
from lcanalysis.analysis import (
    TIE,
    Analysis,
    MoveValue,
    bounds_in_words,
    error_digits,
    loss_in_words,
    place_in_words,
    ranked,
    stalls_each,
)
from lcanalysis.game.cards import color_name
from lcanalysis.game.view import View
from lcanalysis.show.render import seat_names, totals_text

#: losses (points) at which the verdict changes its words; below TASTE, two standard errors within
#: TASTE too, two turns are "a matter of taste"
TASTE, SLIGHT, CLEAR = 1.0, 3.0, 8.0
TOP_PLACEMENTS = 6
DRAWS_SHOWN = 3


def judgement(loss: float, stderr: float | None) -> str:
    """How much worse a turn is, in words. A loss under ``TASTE`` is a matter of taste only when it is
    measured to within that (two standard errors under ``TASTE``): "0.1 ± 3.4" (a small budget) is not
    known to be small, it is too close to call."""
    se = stderr or 0.0
    if loss < TASTE and 2 * se < TASTE:
        return "a matter of taste"
    if loss <= 2 * se:
        return "too close to call at this budget"
    if loss < SLIGHT:
        return "slightly worse"
    if loss < CLEAR:
        return "clearly worse"
    return "much worse: a blunder"


def _placement(move: str) -> str:
    return move.split("/")[0]


def groups(analysis: Analysis) -> list[tuple[str, list[MoveValue]]]:
    """The turns grouped by the card placed or discarded, groups and draws best first: by the loss
    against the best turn when every turn has one, else by value. Play-out turns carry samples of
    unequal size, and a loss is paired over the worlds both turns were played in, so it is the
    sharper comparison; ordering by it keeps the "vs best" column a player scans rising (a draw
    with a lower mean but a smaller paired loss is not shown below a worse one)."""
    moves = list(analysis.moves)
    if moves and all(m.loss is not None for m in moves):  # the best stays first; losses that tie, as it ranks ties
        moves = moves[:1] + ranked(moves[1:], lambda m: -float(m.loss or 0.0))
    out: dict[str, list[MoveValue]] = {}
    for m in moves:
        out.setdefault(_placement(m.move), []).append(m)
    return list(out.items())


def _same_outcome_rows(ms: list[MoveValue]) -> list[list[MoveValue]]:
    """Draw choices after one placement, those with the very same outcomes merged (drawing one
    useless pile card or another often changes nothing): the same value, loss and standard error to
    within ``TIE`` (the same sum in another order comes out 1e-15 away: "≤ +21.7" bounds split into
    three rows), and not two estimates that only round alike ("-41.8 ± 0.2" from -41.77 and -41.79)."""
    def same(a: float | None, b: float | None) -> bool:
        return a == b or (a is not None and b is not None and abs(a - b) <= TIE)

    rows: list[list[MoveValue]] = []
    for m in ms:
        last = rows[-1][0] if rows else None  # (an upper bound is never merged with an exact value)
        if last is not None and last.upper_bound == m.upper_bound and same(last.value, m.value) \
                and same(last.loss, m.loss) and same(last.stderr, m.stderr):
            rows[-1].append(m)
        else:
            rows.append([m])
    return rows


def _same_value_sources(others: list[MoveValue]) -> str:
    """The draws merged into a row after its first, named: " (or the red pile: the same value)", " (or
    the deck or the blue pile: ...)"; "" for none. ("or 1 other pile(s), the same" left the player
    to work out which piles, and called the deck a pile.)"""
    if not others:
        return ""
    sources = [m.move.split("/")[1] for m in others]
    colours = [color_name(src) for src in sources if src != "D"]
    names = ["the deck"] if "D" in sources else []
    if colours:  # "the red pile", "the yellow or red pile", "the blue, white or red pile"
        names.append("the " + (f"{', '.join(colours[:-1])} or " if len(colours) > 1 else "") + f"{colours[-1]} pile")
    return f" (or {' or '.join(names)}: the same value)"


def sampled(analysis: Analysis) -> bool:
    """Whether the values are sample means (play-outs, or endgame values over sampled worlds): each
    then carries its standard error, also when it is 0.0 (every world gave the same outcome)."""
    return not analysis.exact and (analysis.kind == "advisor estimate" or analysis.kind.startswith("view value"))


def _error(m: MoveValue, se: float | None, shown: bool) -> str:
    """" ± <se>" for any non-zero error (in as many decimals as it needs: "± 0.04", never "± 0.0"),
    and for a sampled value (``shown``) also a zero one; "" otherwise (an exact value, or a bound
    whose worlds agreed)."""
    if se:
        return f" ± {se:.{error_digits(se, 1)}f}"
    return " ± 0.0" if shown and not m.upper_bound else ""


def runner_up(others: list[MoveValue]) -> MoveValue | None:
    """The turn the verdict names beside the best, from ``others`` (ranked as ``groups`` shows them):
    the first, unless it is only bounded by the endgame search and a turn whose value is known (exact
    or estimated) has a loss within ``TASTE`` of what the bound shows (of 0 when the bound is lower):
    then the first such turn. On a busy machine the clock can leave the close turns bounded at about
    the best's value, a bound a few thousandths below it ranked above an exact tie, and the verdict
    named the bound ("no better") where a turn is just as good."""
    if not others:
        return None
    first = others[0]
    if not first.upper_bound or first.loss is None:
        return first
    reach = max(float(first.loss), 0.0) + TASTE
    return next((m for m in others if not m.upper_bound and m.loss is not None and m.loss < reach), first)


def verdict(analysis: Analysis, view: View) -> str:
    """One to three sentences: the turn to play (``Analysis.turn_to_name``), the turn listed first when it ties with
    that one, and how much worse the best other placement is."""
    best, play = analysis.best, analysis.turn_to_name()
    if best is None or play is None:
        return "No legal turn."
    first = in_words(view, play.move)
    lines = [first[0].upper() + first[1:] + "."]
    if play is not best:
        lines.append(f"It ties exactly with the turn listed first, to {in_words(view, best.move)} (the same exact "
                     "value; tied turns are listed in the canonical order).")
    said = {play.move, best.move}
    placed = {_placement(move) for move in said}  # (the turns named above: others are other placements)
    shown = groups(analysis)
    others = [m for p, ms in shown if p not in placed for m in ms]
    if len(shown) == 1:  # one placement (the draw step: the card is down): the next draws instead
        others = [m for m in shown[0][1] if m.move not in said]
    o = runner_up(others)
    if o is not None and o.loss is not None:
        err = _error(o, o.loss_stderr, sampled(analysis))
        alt = in_words(view, o.move)
        if o.upper_bound and o.loss < TASTE:  # a bound of about 0 says only: no better than the best
            lines.append(f"To {alt} instead is no better (searched only far enough to show that).")
        elif analysis.exact and abs(o.loss) <= TIE:  # not "0.0 points worse": a tie, exactly
            lines.append(f"To {alt} instead is just as good: the same exact value.")
        else:
            least = "at least " if o.upper_bound else ""
            words = judgement(o.loss, o.loss_stderr)
            # an exact loss says so, as the --turn line does: a figure without ± could be an estimate's
            exactly = ", exactly" if analysis.exact and not o.upper_bound else ""
            lines.append(f"To {alt} instead is {least}{o.loss:.{error_digits(o.loss_stderr, 1)}f}{err} points worse"
                         f"{exactly}: {least if words.endswith(('worse', 'blunder')) else ''}{words}.")
    far_off = playouts_far_off(analysis, view.deck_count)  # ± counts the sampling only
    if far_off:
        lines.append(far_off[0].upper() + far_off[1:] + ".")
    return " ".join(lines)


def your_turn(analysis: Analysis, view: View, move: str) -> str:
    """One sentence on a turn the player has in mind (``move``, canonical), however far down the list it
    is: its loss against the best in the verdict's words, exact, an estimate with its error, or a
    bound, and its place among the legal turns (as far as the endgame search's bounds tell it)."""
    m = next(m for m in analysis.moves if m.move == move)
    place = f"ranked {place_in_words(analysis.moves, move)} turns"
    # (not "Your turn, ...": at a table that reads as "it is your turn"; the turn is one not yet played)
    head = f"The turn you have in mind, to {in_words(view, move)} ({move}), is"
    if m.loss is None:  # (every answer of the advisor gives each turn its loss)
        return f"{head} valued {m.value:+.1f}: {place}."
    if m is analysis.best:
        return f"{head} the best turn."
    if m.upper_bound and m.loss < TASTE:
        return f"{head} no better than the best (searched only far enough to show that): {place}."
    if analysis.exact and not m.upper_bound and abs(m.loss) <= TIE:
        return f"{head} just as good as the best: the same exact value ({place})."
    exact = analysis.exact and not m.upper_bound
    said = loss_in_words(m.loss, m.loss_stderr, exact=exact, bound=m.upper_bound)
    amount = said.replace(" (exact)", "") + " points worse than the best" + (", exactly" if exact else "")
    words = judgement(m.loss, m.loss_stderr)
    least = "at least " if m.upper_bound and words.endswith(("worse", "blunder")) else ""
    return f"{head} {amount}: {least}{words} ({place})."


def question(analysis: Analysis, brief: bool = False) -> str:
    """Which question was answered, in plain words; ``brief``: in one short line, for a player at
    the table (exact or an estimate, of what, and what ± is), the whole explanation left to ``hint all``."""
    tail = ""
    if any(m.upper_bound for m in analysis.moves):
        tail = ("; ≤: at most (searched only far enough to show a turn is worse)" if brief else
                "; ≤ marks a turn searched only far enough to show it is worse: its value is at most, its loss "
                "at least, the figure shown")
    if analysis.exact:
        bounds = {k: v for k, v in analysis.bounds.items() if k != "converged"}
        under = f" under {bounds_in_words(bounds)}" if bounds else ""
        # a full position's endgame search is labelled a view value over its one split (the spec's kind): in
        # words, what it is; no parentheses within parentheses
        kind = "perfect-information value" if BOTH_HANDS_NOTE in analysis.notes else \
            analysis.kind.replace(" (", ", ").replace(")", "")
        what = "exact" + ("" if brief or not kind else f" ({kind})") + under
        if analysis.bounds.get("converged") is False:  # exact under its bound, which may still matter
            what += (" (not converged: more discard-pile draws may change it)" if brief else
                     "; not converged: with more discard-pile draws allowed the best turn or its value may "
                     "change (the notes say how)")
    elif analysis.kind.startswith("view value"):
        luck = "" if analysis.luck_measured_at is None else (
            f", their luck taken out as the exact values with {stalls_each(analysis.luck_measured_at)} measure it")
        what = (f"an estimate: exact endgame values averaged over {analysis.splits} sampled worlds{luck}; "
                "± is one standard error") if brief else (
                f"an estimate: exact endgame values averaged over {analysis.splits} sampled worlds of the unseen "
                f"cards{luck}; ± is one standard error, and a loss's error is that of the difference over the same "
                "worlds")
    elif brief:
        playouts = analysis.playouts if analysis.playouts is not None else analysis.nodes
        policy = playout_policy_in_words(analysis.playout_policy)  # (the answer names its play-outs' policy)
        what = f"an estimate by {playouts:,} play-outs of {policy}; ± is one standard error of the sampling only"
    else:
        # (the answer says how its play-outs dealt: its words are not searched)
        dealt = ", the opponent's hand dealt by the learned hand model" if analysis.hand_model else ""
        if analysis.deck_streams:
            dealt += ", each player drawing from a deck stream of their own"
        tail = ""  # (the long form never gave play-outs the bound's note: they bound no turn)
        playouts = analysis.playouts if analysis.playouts is not None else analysis.nodes
        worlds = max((int(m.extra.get("worlds", 0)) for m in analysis.moves), default=0)  # the worlds are shared
        over = f" over {worlds:,} sampled worlds" if worlds else " in sampled worlds"
        policy = playout_policy_in_words(analysis.playout_policy)
        what = f"an estimate by play-outs (both sides play the round out with {policy}, " \
               f"{playouts:,} play-outs{over} of the unseen cards{dealt}); ± is one standard error, and a loss's " \
               "error is that of the difference over the worlds both turns were played in; it counts "\
               "the sampling only, not the misjudgments of the play-out policy"
    if brief:
        return f"value: your expected final score difference (you minus the opponent), {what}{tail}"
    return f"value: the expected final score difference of this round, you minus the opponent; {what}{tail}"


def hint_text(analysis: Analysis, view: View, top: int | None = TOP_PLACEMENTS, draws: int | None = DRAWS_SHOWN,
              board: bool = False, more: str = "--all lists every turn", brief: bool = False,
              turn: str | Sequence[str] | None = None) -> str:
    """The hint as text. ``top`` placements (None: all), ``draws`` draw choices under each (None: all);
    ``more`` says how to see the placements left out; ``brief``: the footer in one short line (``question``);
    ``turn``: a turn the player has in mind (canonical), or several, each one's loss said under the verdict
    (``your_turn``)."""
    head = f"player {view.viewer} to move, {view.deck_count} card(s) in the draw pile"
    if view.match:
        totals = totals_text(view.match["totals"], seat_names(view.viewer))
        head += f", round {view.match.get('round', 1)} of the match, totals {totals}"
    lines = [view.to_text(), ""] if board else []
    lines += [head, "", verdict(analysis, view)]
    play = analysis.turn_to_name()  # the turn the verdict tells to play
    if play is not None and play.reason:  # in the evaluator's words: what it does, the time left
        lines.append(f"What it does: {play.reason}.")
    for one in [turn] if isinstance(turn, str) else turn or ():
        lines.append(your_turn(analysis, view, one))
    lines.append("")
    table: list[tuple[str, str, str, str]] = []  # (turn, value, vs best, in words); "" turn: a note row
    shown = groups(analysis)
    means = sampled(analysis)
    for placement, ms in shown[:top]:
        rows = _same_outcome_rows(ms)
        for i, same in enumerate(rows[:draws]):
            m = same[0]
            value = ("≤ " if m.upper_bound else "") + f"{m.value:+.{error_digits(m.stderr, 1)}f}" + \
                ("" if m.exact else _error(m, m.stderr, means))
            loss = m.loss_text(digits=1, best=m is analysis.best)  # a tie of the best: "0.0", not a second "best"
            if means and m.loss is not None and loss != "best" and not m.loss_stderr and not m.upper_bound:
                loss += " ± 0.0"  # the same difference in every world (a tie too): still a sample's
            sources = " ".join("/" + x.move.split("/")[1] for x in same)
            label = m.move if i == 0 and len(same) == 1 else (f"{placement}{sources}" if i == 0 else f"  {sources}")
            words = in_words(view, m.move) + _same_value_sources(same[1:])
            chance, chance_se = 100 * m.extra.get("match_win", 0.0), 100 * m.extra.get("match_win_stderr", 0.0)
            digits = error_digits(chance_se, 1)
            match = (f"  win match {chance:.{digits}f}% ± {chance_se:.{digits}f}"
                     if "match_win" in m.extra else "")  # play-outs' estimate: one standard error
            table.append((label, value, loss, words + match))
        hidden = sum(len(same) for same in rows[draws:]) if draws is not None else 0
        if hidden > 0:
            table.append(("", "", "", f"({hidden} other draw(s) after {placement})"))
    width = max([16] + [len(row[0]) for row in table])  # a turn with all its piles can be longer than 16
    lines.append(f"  {'turn':<{width}}  {'value':>14}  {'vs best':>13}  in words")
    lines += [f"  {label:<{width}}  {value:>14}  {loss:>13}  {words}" for label, value, loss, words in table]
    rest = len(shown) - len(shown[:top])
    if rest > 0:
        lines.append(f"  ... {rest} other placement(s); {more}")
    lines += ["", question(analysis, brief)]
    lines += [f"note: {n}" for n in analysis.notes if not n.startswith("value = ")]
    return "\n".join(lines)


def hint_json(analysis: Analysis, view: View) -> dict[str, Any]:
    """The ``advise --json`` object of docs/spec/interchange.md (every legal turn, best first, with
    loss, loss_stderr and its reason in words), plus the verdict and the question answered."""
    out = analysis.to_json()
    for row, m in zip(out["moves"], analysis.moves):
        if m.reason:  # what the turn does, in words (the hint's "What it does:" line for the best)
            row["reason"] = m.reason
        if "own_mean" in m.extra:  # valued through the best's worlds: the turn's own mean beside it
            row.update(own_mean=m.extra["own_mean"], own_stderr=m.extra["own_stderr"])
        if "match_win" in m.extra:  # a match score was given: the chance to win the match too
            row.update({k: m.extra[k] for k in ("match_win", "match_win_stderr", "match_loss", "match_loss_stderr")})
    out["verdict"] = verdict(analysis, view)
    out["question"] = question(analysis)
    return out
