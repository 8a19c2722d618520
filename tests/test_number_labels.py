"""Every number a user sees says whether it is exact or an estimate (with its standard error): the
labels the audit of every command found missing."""

from __future__ import annotations

import re

from lcanalysis.advisor import example_view, reason
from lcanalysis.analysis import Analysis, MoveValue

BOUND_REASON = "at most: proved below the best in some worlds, not solved exactly there"


def _endgame_answer(bound_stderr: float) -> Analysis:
    """An endgame answer as the advisor gives it near the end: the best turn exact, one turn searched only far
    enough to show it is worse (an upper bound, ``extra["bound"] == "upper"``, exact or sampled)."""
    best = MoveValue("-Yw/D", 8.0, 0.0, True, "discards Yw", loss=0.0, loss_stderr=0.0)
    bound = MoveValue("+B9/D", 3.0, bound_stderr, False, BOUND_REASON, extra={"bound": "upper"},
                      loss=5.0, loss_stderr=bound_stderr)
    return Analysis([best, bound], kind="view value (averaged over splits)", exact=True,
                    bounds={"max_stalls": 2}, nodes=100, seconds=0.1)


def test_a_bound_is_printed_as_a_bound_not_as_an_estimate_of_no_error():
    """``print(lc.advise(...))`` showed an upper bound as "+3.00 ± 0.00": an estimate with no error, which it
    is not. Its value now reads "≤ +3.00", as the hint's table has it, with "± s" only when sampled."""
    rows = _endgame_answer(0.0).to_text().splitlines()
    row = next(r for r in rows if "+B9/D" in r)
    assert re.search(r"\+B9/D +≤ \+3\.00 \(≤ -5\.00 vs best\)", row), row
    assert "±" not in row
    sampled = next(r for r in _endgame_answer(0.4).to_text().splitlines() if "+B9/D" in r)
    assert re.search(r"≤ \+3\.00 ± 0\.40 \(≤ -5\.00 ± 0\.40 vs best\)", sampled), sampled
    best = next(r for r in rows if "-Yw/D" in r)
    assert re.search(r"-Yw/D +\+8\.00 \(best\)", best), best  # the exact turn as before: the headline says exact


def test_a_bound_in_a_notebook_table_says_it_is_a_bound():
    html = _endgame_answer(0.0)._repr_html_()
    assert "<td>≤ +3.00</td>" in html and "upper bound" in html and "± 0.00" not in html
    assert "upper bound ± 0.40" in _endgame_answer(0.4)._repr_html_()


def test_a_reason_says_its_expedition_values_are_estimates():
    """"blue expected +1 -> +0" read as an exact expectation beside exact endgame values; it is the
    evaluator's fast estimate, with no standard error, and now says "estimated"."""
    view = example_view()
    full = view.complete(view.unseen()[:view.opponent_unknown], view.unseen()[view.opponent_unknown:])
    texts = [reason(view, move) for move in full.legal_moves()]
    assert all(re.search(r"(yellow|blue|white|green|red) estimated [+-]\d+", t) for t in texts), texts
    assert not any("expected" in t for t in texts)


def test_each_deepening_level_says_whether_its_value_is_exact():
    """``solve --time``'s lines "stalls=0: done, best -B10/D +22.000, 755 nodes": a value that did not say
    what it was. A full position's level is exact, and now says so."""
    from lcanalysis.search import solve_deepening

    heard: list[str] = []
    solve_deepening("example:endgame", seconds=60, on="stalls", max_level=0, with_bracket=False, progress=heard.append)
    done = [line for line in heard if ": done, best" in line]
    assert done and all(re.fullmatch(r"stalls=0: done, best \S+ [+-]\d+\.\d{3} \(exact\), \d+ nodes, [\d.]+ s", x)
                        for x in done), heard
