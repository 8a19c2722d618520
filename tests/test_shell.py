"""``lcanalysis shell`` (issue 12): one process answers line after line exactly as the one-shot
commands do, bad input included, and the session goes on; the prompt only at a terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from helpers import played_down

from lcanalysis.cli.shell import PROMPT, session

TIMEOUT = 300


def _normal(text: str) -> str:
    """The seconds a search took are the one thing that differs between two runs (and so whether
    a search on a busy machine passed the second after which it says it is still working)."""
    text = re.sub(r"(nodes \d+), [0-9.]+ s$", r"\1, <t> s", text, flags=re.M)
    text = re.sub(r"^  \.\.\. .* s so far\n", "", text, flags=re.M)
    return re.sub(r'"seconds": [0-9.e+-]+', '"seconds": <t>', text)


def _lcanalysis(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lcanalysis", *args], input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def test_the_shell_answers_every_line_as_the_one_shot_command_does():
    endgame = played_down(5, 2).to_string()  # 2 cards left in the draw pile
    commands = [
        "show example:midround --string",
        f"solve {endgame} --max-stalls 1",
        "solve no-such-position",  # a bad position: one line naming the command and the argument, status 2
        "wager example:midround --color G --draws 10",
        "solve example:endgame --max-stalls -1",  # a bad option: one line naming the command, status 2
        "advise example:midround --colour G",  # an unknown option
        "solve example:endgame --max-stalls 0 --json",
    ]
    one_shots = [_lcanalysis(*line.split()) for line in commands]
    assert [p.returncode for p in one_shots] == [0, 0, 2, 0, 2, 2, 0]
    script = "\n".join([*commands, "  # a comment, then a blank line", "", "quit", "show example:opening"]) + "\n"
    shell = _lcanalysis("shell", stdin=script)
    assert shell.returncode == 2  # the status of the last command that failed
    assert _normal(shell.stdout) == _normal("".join(p.stdout for p in one_shots))
    assert _normal(shell.stderr) == _normal("".join(p.stderr for p in one_shots))
    assert "lcanalysis solve: error: argument position: 'no-such-position' is neither" in shell.stderr
    assert "argument --max-stalls" in shell.stderr and "unrecognized arguments: --colour" in shell.stderr
    assert PROMPT not in shell.stdout  # no prompt when the input is not a terminal
    assert shell.stdout.rstrip().endswith("}")  # nothing after 'quit' ran: the JSON answer is the last


@pytest.mark.parametrize("env", [{"LC_ALL": "C.UTF-8"}, {"PYTHONIOENCODING": "utf-8"}])
def test_a_line_that_is_not_utf8_is_refused_by_its_number_and_the_session_goes_on(env):
    """Under a C.UTF-8 locale a byte that is not UTF-8 came back in the reply as an escape code
    ("no example 'mid\\udcffround'"); on a strict standard input (PYTHONIOENCODING=utf-8) it ended
    the session with Python's "'utf-8' codec can't decode byte 0xff". The line is now refused as
    not text, by its number, and the lines after it are answered (as the bot answers such a request)."""
    script = b"show example:mid\xffround\n# a comment\ndeal --seed 1 --string\n\xe9\nshow example:opening --string\n"
    shell = subprocess.run([sys.executable, "-m", "lcanalysis", "shell"], input=script, capture_output=True,
                           timeout=TIMEOUT, check=False, env={**os.environ, **env})
    deal, opening = _lcanalysis("deal", "--seed", "1", "--string"), _lcanalysis("show", "example:opening", "--string")
    assert shell.returncode == 2
    assert shell.stderr.decode() == ("error: line 1 is not UTF-8 text; it is skipped\n"
                                     "error: line 4 is not UTF-8 text; it is skipped\n")
    assert shell.stdout.decode() == deal.stdout + opening.stdout


def test_a_misspelt_or_newcomers_command_names_the_command_meant_as_the_command_line_does(capsys):
    """Found by a review: 'sovle ...' or 'hint ...' at the shell was told only "unknown command
    'sovle'; the shell answers ...", where 'lcanalysis sovle' says "did you mean 'solve'?"."""
    commands = [("show", ""), ("solve", ""), ("advise", ""), ("wager", "")]
    ran: list[list[str]] = []
    lines = ["sovle example:endgame --max-stalls 0", "hint example:midround", "help advice", "frobnicate"]
    assert session(lines, lambda words: ran.append(list(words)) or 0, commands) == 2
    err = capsys.readouterr().err.splitlines()
    assert ran == []  # nothing run on a guess
    assert err[0].startswith("error: unknown command 'sovle' (did you mean 'solve'?); the shell answers show, ")
    assert "'hint' (did you mean 'advise'?)" in err[1] and "'advice' (did you mean 'advise'?)" in err[2]
    assert "did you mean" not in err[3]
    with pytest.raises(SystemExit):  # the command line's words, the same
        from lcanalysis.cli import main
        main(["hint", "example:midround"])
    assert "unknown command 'hint' (did you mean 'advise'?)" in capsys.readouterr().err


def test_a_record_from_standard_input_is_refused_asking_for_the_record_not_a_position():
    """'review -' in the shell was told to give "the position as a file, a one-line 'LC1;...' string or
    example:NAME", none of which a review reads."""
    shell = _lcanalysis("shell", stdin="review - --json\nshow -\n")
    review, show = [line for line in shell.stderr.splitlines() if line.startswith("error:")]
    assert "give the record as a file" in review and "LC1" not in review and "example:" not in review
    assert "give the position as a file" in show


def test_help_and_what_does_not_run_in_the_shell():
    shell = _lcanalysis("shell", stdin="help\nhelp solve\nshow -\nbot random\nwarm-up\nsolve 'unclosed\n"
                                       "frobnicate\nhelp nosuch\nlcanalysis show example:endgame --string\n")
    assert shell.returncode == 2  # the status of the last command that failed, though the last succeeded
    out, err = shell.stdout, shell.stderr
    for name in ("show", "solve", "advise", "wager", "help [COMMAND]", "quit"):
        assert f"\n  {name} " in out
    assert "\n  bot " not in out and "\n  shell " not in out
    assert "usage: lcanalysis solve" in out and "--max-stalls" in out  # help solve = solve --help
    assert "error: '-' (standard input) is the shell's own input" in err
    assert "error: 'bot' does not run in the shell" in err and "error: 'warm-up' does not run" in err
    assert "error: cannot read the line: No closing quotation" in err
    # an unknown command names what the shell answers, not argparse's list with 'bot' and 'shell' in it
    unknown = next(line for line in err.splitlines() if "frobnicate" in line)
    assert unknown.startswith("error: unknown command 'frobnicate'; the shell answers show, ")
    assert "bot" not in unknown and "shell" not in unknown.split(";")[1].replace("the shell answers", "")
    assert unknown.replace("frobnicate", "nosuch") in err  # help for a command that is not one says the same
    assert out.rstrip().splitlines()[-1] == _lcanalysis("show", "example:endgame", "--string").stdout.strip()


def test_the_session_goes_on_after_exits_and_interrupts_and_stops_at_quit(capsys):
    calls = []

    def fake(words):
        calls.append(list(words))
        kind = words[0]
        if kind == "exits":
            raise SystemExit(2)  # what argparse does on a bad option
        if kind == "interrupted":
            raise KeyboardInterrupt
        if kind == "broken":
            raise RuntimeError("a bug")
        return 0

    lines = ["exits --x", "interrupted", "broken", "fine 'two words'", "exit", "never"]
    assert session(lines, fake) == 1  # the status of the last command that failed (the bug's)
    assert calls == [["exits", "--x"], ["interrupted"], ["broken"], ["fine", "two words"]]
    err = capsys.readouterr().err
    assert "interrupted" in err and "RuntimeError: a bug" in err
    calls.clear()
    assert session(["exits", "fine"], fake) == 2 and session(["interrupted"], fake) == 130
    assert session(["fine", "", "# note"], fake) == 0 and calls[-1] == ["fine"]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_at_a_terminal_the_shell_prompts():
    primary, secondary = os.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "lcanalysis", "shell"], stdin=secondary,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        os.close(secondary)
        os.write(primary, b"show example:endgame --string\nquit\n")
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        os.close(primary)
    assert proc.returncode == 0, err
    assert out.startswith("lcanalysis shell:") and out.count(PROMPT) == 2  # before each line read
    assert _lcanalysis("show", "example:endgame", "--string").stdout in out


def test_ctrl_c_at_the_prompt_says_once_how_to_stop(capsys, monkeypatch):
    """Ctrl-C at the prompt of the shell (and of 'lcanalysis play') gave a fresh prompt without a word,
    so a player pressing it to leave saw nothing happen; the first one now says how to stop."""
    import builtins

    from lcanalysis.cli.shell import input_lines

    keys = iter([KeyboardInterrupt, "hint", KeyboardInterrupt, EOFError])

    def typed(prompt):
        key = next(keys)
        if isinstance(key, type):
            raise key
        return key

    monkeypatch.setattr(builtins, "input", typed)
    assert list(input_lines(True, PROMPT)) == ["hint"]
    out = capsys.readouterr().out
    assert out.count("to stop, type quit or press Ctrl-D") == 1  # once, not at every Ctrl-C


def test_a_line_is_split_as_shlex_splits_it_and_a_long_one_without_waiting_for_ever(capsys, monkeypatch):
    """Found by feeding the shell a long line: shlex grows each word a character at a time, so a
    1,000,000-character position (which the readers take) took 27 s of silence to split, and a longer
    line minutes, before any answer. A line without quotes or a backslash is split on its spaces
    (what shlex does with it) and never reaches shlex; a quoted one over MAX_QUOTED_LINE is refused."""
    import random
    import shlex

    from lcanalysis.cli import shell

    rng = random.Random(0)
    alphabet = " \t\r\n\x0b\u00a0ab;=.#'\"\\"
    lines = ["", "   ", "show example:midround", " \tsolve  LC1;c5;h8 --max-stalls 1\r\n", 'show "LC1;c5"',
             *("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(3000))]
    for line in lines:
        try:
            expected: object = shlex.split(line)
        except ValueError:
            expected = ValueError
        try:
            got: object = shell.split_line(line)
        except ValueError:
            got = ValueError
        assert got == expected, repr(line)

    def not_shlex(line: str) -> list[str]:
        raise AssertionError("a line without quotes went through shlex")

    monkeypatch.setattr(shlex, "split", not_shlex)
    ran: list[list[str]] = []
    long_word = "x" * 1_500_000
    assert session([f"show {long_word}\n", "quit\n"], lambda words: ran.append(list(words)) or 0) == 0
    assert ran == [["show", long_word]]
    assert session([f'show "{long_word}"\n'], lambda words: ran.append(list(words)) or 0) == 2
    assert "a line of 1,500,008 characters with quotes or a backslash is longer than the shell splits" in (
        capsys.readouterr().err) and len(ran) == 1
