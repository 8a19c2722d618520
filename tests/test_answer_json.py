"""Answers in JSON carry no float noise: 15 significant digits, one writer for the command line and the bot."""

import io
import json
import math
from fractions import Fraction

import numpy as np

import lcanalysis.agents.protocol as protocol
from lcanalysis.answer_json import answer_text, answer_value
from lcanalysis.cli.main import main


def test_a_sum_with_float_noise_prints_its_short_form():
    noisy = sum([7.4, 7.4, 7.4])  # an exact expectation summed in floating point
    assert repr(noisy) == "22.200000000000003"
    assert answer_text({"value": noisy}) == '{"value": 22.2}'
    assert answer_text([np.float64(12.000000000000002)]) == "[12.0]"  # numpy numbers too


def test_tiny_and_precise_numbers_keep_their_digits():
    # 15 significant digits, not 15 decimals: a tiny probability survives whole
    assert answer_value(1.234e-15) == 1.234e-15
    assert answer_value(-5e-300) == -5e-300
    pi15 = answer_value(math.pi)
    assert pi15 == 3.14159265358979 and abs(pi15 - math.pi) < 1e-14


def test_numbers_that_are_not_finite_are_still_null():
    out = json.loads(answer_text({"lo": math.nan, "hi": (math.inf, -np.inf), "n": 3, "ok": True}))
    assert out == {"lo": None, "hi": [None, None], "n": 3, "ok": True}


def test_an_exact_solve_prints_its_value_without_noise(capsys):
    """-B10/D at example:endgame, one stall each, is the mean of a whole number over the orders of the
    five deck cards: 61/5 exactly, which the float sum made 12.200000000000001."""
    assert main(["solve", "example:endgame", "--max-stalls", "1", "--json"]) == 0
    text = capsys.readouterr().out
    row = next(m for m in json.loads(text)["moves"] if m["move"] == "-B10/D")
    assert Fraction(row["value"]).limit_denominator(120) == Fraction(61, 5)
    assert '"move": "-B10/D", "value": 12.2,' in text
    assert "00000000" not in text and "99999999" not in text  # no other float carries noise either


def test_the_bot_writes_its_replies_the_same_way(monkeypatch):
    monkeypatch.setattr(protocol, "answer", lambda *args: ({"move": "/D", "spent": 0.1 + 0.2}, True))
    out = io.StringIO()
    assert protocol.serve("greedy", io.StringIO('{"type": "turn"}\n'), out) == 0
    assert out.getvalue() == '{"move": "/D", "spent": 0.3}\n'
