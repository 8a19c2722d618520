"""The review as a self-contained HTML report, with its value graph (SVG)."""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

from lcanalysis.reviewer.settings import JUDGED_BY, MARK_SIGMAS, MARKS, ONE_PLAYER_LUCK, RATING_BANDS
from lcanalysis.reviewer.words import (
    VERDICT_RULE,
    alternative_loss_text,
    far_off_marks_text,
    reconciled_text,
    unchecked_loss_text,
    where,
    where_unchecked,
)

if TYPE_CHECKING:
    from lcanalysis.reviewer.checks import ReviewChecks
    from lcanalysis.reviewer.report import Decision, PlayerSummary, Review

# --- pictures --------------------------------------------------------------------------------------

MARK_COLOURS = {"inaccuracy": "#e0b000", "mistake": "#e67e22", "blunder": "#c0392b"}


def value_graph(rv: Review, width: int, height: int) -> str:
    from lcanalysis.show.palette import BY_LETTER  # the pictures' colours, from above as the positions are

    own = rv.viewer or 0
    line_colours = (BY_LETTER["B"].line, BY_LETTER["G"].line)  # the reviewed (or first) player's view, the other's
    # one line per player and round: the best turn's value from that player's own view at each of
    # their decisions (the other player's negated, so both read as player ``own``'s points), ending
    # at the round's actual result; the gap between the lines is what each could not see
    lines: list[tuple[int, list[tuple[float, float, Decision | None]]]] = []
    pts: list[tuple[float, float, Decision | None]] = []
    offset = 0
    round_marks = []
    for r in range(1, rv.rounds + 1):
        ds = [d for d in rv.decisions if d.round == r]
        if not ds:
            continue
        round_marks.append(offset)
        last = max(d.index for d in ds) + 1
        final = None
        if r - 1 < len(rv.scores):
            sc = rv.scores[r - 1]
            final = (float(offset + last), float(sc[own] - sc[1 - own]), None)
        for p in (own, 1 - own):
            line: list[tuple[float, float, Decision | None]] = [
                (float(offset + d.index), (1 if p == own else -1) * d.value_best, d) for d in ds if d.player == p]
            if line:
                lines.append((0 if p == own else 1, line + ([final] if final else [])))
                pts.extend(line)
        if final:
            pts.append(final)
        offset += last + 2
    if not pts:
        return ""
    ml, mr, mt, mb = 48, 16, 24, 30
    xs = [q[0] for q in pts]
    ys = [q[1] for q in pts] + [0.0]
    lo, hi = min(ys), max(ys)
    pad = max(5.0, 0.08 * (hi - lo))
    lo, hi = lo - pad, hi + pad
    x0, x1 = min(xs), max(*xs, min(xs) + 1)

    def sx(x: float) -> float:
        return ml + (x - x0) / (x1 - x0) * (width - ml - mr)

    def sy(y: float) -> float:
        return mt + (hi - y) / (hi - lo) * (height - mt - mb)

    def label(x: float, text: str, colour: str) -> str:
        return (f'<text x="{x:.0f}" y="15" font-size="11" font-family="sans-serif" fill="{colour}">'
                f'{html.escape(text)}</text>')

    body = [f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
            label(ml, f"player {own}'s points, best turn, from player {own}'s view", line_colours[0]),
            f'<line x1="{ml}" x2="{width - mr}" y1="{sy(0):.1f}" y2="{sy(0):.1f}" stroke="#999" '
            'stroke-dasharray="4 3"/>']
    if any(k == 1 for k, _ in lines):
        body.append(label(ml + 300, f"from player {1 - own}'s view", line_colours[1]))
    body.append(label(width - mr - 200, "dots: marked turns, final result", "#2b2b2b"))
    step = _nice_step(hi - lo)
    v = math.ceil(lo / step) * step
    while v <= hi:
        body.append(f'<text x="{ml - 6}" y="{sy(v) + 4:.1f}" font-size="10" text-anchor="end" '
                    f'font-family="sans-serif" fill="#7a7263">{v:+g}</text>')
        body.append(f'<line x1="{ml - 3}" x2="{ml}" y1="{sy(v):.1f}" y2="{sy(v):.1f}" stroke="#555"/>')
        v += step
    body.append(f'<text x="{(width + ml) / 2:.0f}" y="{height - 6}" font-size="10" text-anchor="middle" '
                f'font-family="sans-serif" fill="#7a7263">turn</text>')
    for k, line in lines:
        path = " ".join(f"{'M' if i == 0 else 'L'}{sx(x):.1f},{sy(y):.1f}" for i, (x, y, _d) in enumerate(line))
        body.append(f'<path class="value-line player-{own if k == 0 else 1 - own}" d="{path}" fill="none" '
                    f'stroke="{line_colours[k]}" stroke-width="1.6"/>')
    for x, y, dd in pts:
        if dd is None:
            body.append(f'<circle class="result" cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4" fill="#2b2b2b">'
                        f'<title>final result {y:+.0f}</title></circle>')
        elif dd.mark:
            title = html.escape(f"turn {dd.index}, player {dd.player}: played {dd.played}, best {dd.best}, "
                                f"loss {dd.loss_text()} ({dd.mark})")
            body.append(f'<circle class="mark {dd.mark}" cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="5" '
                        f'fill="{MARK_COLOURS[dd.mark]}" stroke="#222"><title>{title}</title></circle>')
    for off in round_marks[1:]:
        body.append(f'<line x1="{sx(off - 1):.1f}" x2="{sx(off - 1):.1f}" y1="{mt}" y2="{height - mb}" stroke="#ccc"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="value-graph" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">' + "".join(body) + "</svg>")


def _match_total(p: PlayerSummary) -> str:
    """A player's match chance given up, in the players' table: "39.2 ± 2.8 pp over 5", or "not measured"."""
    if p.match_loss is None:
        return "not measured"
    return f"{100 * p.match_loss:.1f} ± {100 * (p.match_loss_stderr or 0.0):.1f} pp over {p.match_decisions}"


def _match_cell(d: Decision) -> str:
    """A decision's match loss in the table of every decision, against the best turn for the match named in
    its title; blank where the endgame solver or search judged (points only)."""
    if d.match_loss is None:
        return ""
    text = f"{100 * d.match_loss:.2f} ± {100 * (d.match_loss_stderr or 0.0):.2f}"  # (a fraction kept, pp shown)
    return f"<span title='{html.escape(d.match_said())}'>{text}</span>"


def _nice_step(span: float) -> float:
    raw = max(span, 1e-9) / 5
    mag = 10 ** math.floor(math.log10(raw))
    return min(s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw)


_CSS = """
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; color: #2b2b2b; margin: 24px; max-width: 980px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { padding: 3px 8px; border-bottom: 1px solid #e4ddcc; text-align: right; }
th { background: #efe8d8; }
td.l, th.l { text-align: left; }
tr.inaccuracy td { background: #fff6d6; } tr.mistake td { background: #fde6d2; } tr.blunder td { background: #f9d6d2; }
tr.forced td { color: #9a9284; }
.critical { display: flex; gap: 18px; align-items: flex-start; margin: 14px 0 24px; }
code { font-size: 13px; }
small { color: #7a7263; }
"""


def review_html(rv: Review, fragment: bool = False) -> str:
    from lcanalysis.show.render import view_svg

    e = html.escape
    parts = [f"<h1>Game review</h1><p>{e(rv.record_kind)}: {e(rv.rounds_text())}, {len(rv.decisions)} decisions; "
             f"{rv.time_budget:g} s a decision, seed {rv.seed}; reviewed in {e(rv.time_text())}.</p>",
             f"<p><small>{e(JUDGED_BY)}.</small></p>"]
    if rv.capped:
        parts.append(f"<p>{e(rv.capped_text())}.</p>")
    if rv.match_note:
        parts.append(f"<p>{e(rv.match_note)}.</p>")
    if rv.match_rounds is not None:
        parts.append(f"<p>{e(rv.match_result_text())}.</p>")
    rows = []
    in_match = rv.in_match  # a column more where the decisions give their match loss
    for p in rv.players:
        rate = p.error_rate_text()
        luck = "unknown" if p.luck is None else f"{p.luck:+.1f} ± {p.luck_stderr:.1f}"
        adj = p.luck_adjusted_text()
        marks = ", ".join(f"{p.marks.get(n, 0)} {n}" for n, _ in reversed(MARKS))
        rows.append(f"<tr><td>{e(p.label)}</td><td>{p.decisions} ({p.unforced})</td><td>{rate}</td>"
                    f"<td>{e(p.total_loss_text())}</td><td class='l'>{e(p.rating_text())}</td>"
                    f"<td class='l'>{marks}</td><td>{luck}</td><td>{p.result:+d}</td><td>{adj}</td>"
                    + (f"<td>{e(_match_total(p))}</td>" if in_match else "") + "</tr>")
    parts.append("<h2>Players</h2><table><tr><th>player</th><th>decisions (unforced)</th><th>error rate</th>"
                 "<th>total loss</th><th class='l'>rating</th><th class='l'>marks</th><th>luck</th><th>result</th>"
                 "<th>luck-adjusted</th>" + ("<th>match chance given up</th>" if in_match else "") + "</tr>"
                 + "".join(rows) + "</table>")
    if in_match:
        parts.append("<p><small>Match chance given up: percentage points of the chance to win the match, the sum over "
                     "the decisions judged by play-outs, their standard errors in quadrature (an estimate: what it "
                     "rests on, the match note above); a sum over decisions, not a chance, so it can pass "
                     "100.</small></p>")
    if rv.viewer is not None:
        parts.append(f"<p><small>Luck against {e(rv.luck_against)}: {e(ONE_PLAYER_LUCK)}.</small></p>")
    for rec in rv.reconciliation:
        parts.append(f"<p><b>Round {rec['round']}</b>, player 0's points: {e(reconciled_text(rec))} "
                     f"<small>({e(rec['note'])})</small></p>")
    whole = rv.match_reconciled_text()
    if whole:  # "the match reconciled (...): actual ..." as the text says it, the match in bold
        parts.append(f"<p><b>The match</b>{e(whole.removeprefix('the match'))}</p>")
    parts.append("<h2>Value over the round</h2>" + rv.value_graph_svg())
    crit = rv.critical()
    if crit:
        parts.append("<h2>Critical positions</h2>")
    for d in crit:
        view = rv.views.get((d.round, d.index))
        pic = str(view_svg(view, size=420)) if view is not None else ""
        alt = "".join(f"<tr><td class='l'><code>{e(a['move'])}</code></td><td>{a['value']:+.1f}</td>"
                      f"<td>{e(alternative_loss_text(a))}</td></tr>" for a in d.alternatives)
        parts.append(f"<div class='critical'><div>{pic}</div><div><h3>{e(where(d))}: {e(d.mark or '')}</h3>"
                     f"<p>played <code>{e(d.played)}</code>, best <code>{e(d.best)}</code>: loss "
                     f"{d.loss_text()} points</p>" + (f"<p>{e(d.match_said())}</p>" if d.match_said() else "")
                     + "<table><tr><th class='l'>turn</th><th>value</th>"
                     f"<th>loss</th></tr>{alt}</table><p><small>{e(d.method)}</small></p></div></div>")
    rows = []
    for d in rv.decisions:
        luck = "" if d.luck is None else f"{d.drawn}: {d.luck:+.1f} ± {d.luck_stderr:.1f}"
        cls = d.mark or ("forced" if d.forced else "")
        rows.append(f"<tr class='{cls}'><td>{d.round}</td><td>{d.index}</td><td>{d.player}</td><td>{d.deck}</td>"
                    f"<td class='l'><code>{e(d.played)}</code></td><td class='l'><code>{e(d.best)}</code></td>"
                    f"<td>{d.loss_text(2)}</td><td class='l'>{e(cls)}</td>"
                    + (f"<td>{_match_cell(d)}</td>" if in_match else "")
                    + f"<td>{luck}</td><td>{'exact' if d.exact else d.worlds}</td><td>{d.seconds:.2f}</td></tr>")
    parts.append("<h2>Every decision</h2><table><tr><th>round</th><th>turn</th><th>player</th><th>deck</th>"
                 "<th class='l'>played</th><th class='l'>best</th><th>loss</th><th class='l'>mark</th>"
                 + ("<th>match loss (pp)</th>" if in_match else "")
                 + "<th>luck of the draw</th><th>worlds</th><th>seconds</th></tr>" + "".join(rows) + "</table>")
    if in_match:
        parts.append("<p><small>Match loss (pp): the percentage points of the chance to win the match the turn gave "
                     "up against the best turn for the match among those played out (its sentence on hovering), an "
                     "estimate; blank where the "
                     "endgame solver or search judged, in points only.</small></p>")
    far_off = far_off_marks_text([d for d in rv.decisions if d.mark])  # (the text's line under its marks)
    if far_off:
        parts.append(f"<p><small>{e(far_off)}.</small></p>")
    parts.append("<p><small>Marks: " + ", ".join(f"{n} from {least:g} points" for n, least in reversed(MARKS))
                 + f", only when the loss exceeds {MARK_SIGMAS:g} standard errors; losses paired over shared worlds, "
                 "fresh ones, not those the advisor picked its best turn in, so a loss may come out below 0 "
                 "when the played turn is as good (the estimate is unbiased); "
                 "luck = value after the draw minus the mean over the possible draws, from the drawer's view. "
                 "Rating bands by error rate (points lost per unforced decision): "
                 + ", ".join(f"{n} below {b:g}" for n, b in RATING_BANDS if math.isfinite(b))
                 + f", {RATING_BANDS[-1][0]} above.</small></p>")
    if rv.checks is not None:
        parts.append(checks_html(rv.checks))
    body = "\n".join(parts)
    if fragment:
        return f"<div class='lcanalysis-review'><style>{_CSS}</style>{body}</div>"
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>lcanalysis game review</title>"
            f"<style>{_CSS}</style></head><body>{body}</body></html>\n")



def checks_html(checks: ReviewChecks) -> str:
    """The marks checked by rollouts (``Review.checks``): each check's verdict beside the review's loss,
    the marks not checked and why, and the players' totals with the checked losses."""
    e = html.escape
    rows = [f"<tr class='{e(c.verdict.split()[0])}'><td class='l'>{e(where(c))}</td><td class='l'><code>"
            f"{e(c.played)}</code></td><td class='l'><code>{e(c.best)}</code></td><td>{e(c.review_loss_text())}</td>"
            f"<td class='l'>{e(c.grade)}</td><td>{e(c.loss_text())}</td><td>{c.trials}</td>"
            f"<td class='l'><b>{e(c.verdict_text())}</b></td></tr>" for c in checks.checks]
    rows += [f"<tr><td class='l'>{e(where_unchecked(u))}</td><td class='l'><code>{e(u['played'])}</code></td>"
             f"<td class='l'><code>{e(u['best'])}</code></td><td>{e(unchecked_loss_text(u))}</td>"
             f"<td class='l'>{e(u['grade'])}</td><td></td><td></td>"
             f"<td class='l'>not checked: {e(u['reason'])}</td></tr>" for u in checks.unchecked]
    players = []
    for p in checks.players:
        n = checks.checked_losses.get(p.player, 0)
        marks = ", ".join(f"{p.marks.get(name, 0)} {name}" for name, _ in reversed(MARKS))
        players.append(f"<tr><td>{e(p.label)}</td><td>{p.error_rate_text()}</td><td>{e(p.total_loss_text())}</td>"
                       f"<td class='l'>{e(p.rating_text())}</td><td class='l'>{marks}</td><td>{n} of {p.unforced}"
                       f"</td></tr>")
    # (its own style: a review without checks keeps its page as it was)
    return ("<style>tr.overturned td { background: #e3f1e0; } tr.confirmed td { background: #f9d6d2; }</style>"
            "<h2>Marks checked by rollouts</h2>"
            f"<p>{e(checks.heading())}.</p><table><tr><th class='l'>decision</th><th class='l'>played</th>"
            "<th class='l'>best</th><th>review loss</th><th class='l'>review mark</th><th>rollout loss</th>"
            "<th>trials</th><th class='l'>verdict</th></tr>" + "".join(rows) + "</table>"
            f"<p><small>Verdicts: {e(VERDICT_RULE)}.</small></p>"
            "<h3>With the checked losses</h3><p>The rollouts' loss where a check was made, the review's elsewhere."
            "</p><table><tr><th>player</th><th>error rate</th><th>total loss</th><th class='l'>rating</th>"
            "<th class='l'>marks</th><th>losses from rollouts</th></tr>" + "".join(players) + "</table>")
