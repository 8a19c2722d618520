"""``lcanalysis shell``: one process answers command after command, the engine loaded once.

A one-shot command pays the start-up of Python and numba every time (about a second on a
2-core machine), where an endgame search itself often takes milliseconds. The shell, like GNU
Backgammon's prompt, loads the engine once and then answers each line at once. A line is a
command of ``lcanalysis`` without the program name (``solve POSITION --max-stalls 1``,
``advise POSITION --time 1``, ``show ...``, ``wager ...``, ``deal ...``, ``review ...``): its
answer is exactly what the one-shot command prints, on the same streams. Bad input prints the
same ``error: ...`` (a bad option: the one line naming the command) and the session goes on;
Ctrl-C stops the command that is running, not the shell. Each command starts with the exact
solver's shared tables cleared, so it does the work a fresh process would (its node count is
the one-shot's too); what stays loaded is the compiled code.

Standard input is read line by line, so the shell can be scripted (``echo 'solve POS' |
lcanalysis shell``, or a program writing lines and reading the answers); the prompt
``lcanalysis> `` appears only when standard input is a terminal (with line editing and history
where Python has readline). At a terminal every compiled part is loaded while the first line is
typed; scripted, each part loads when a command first needs it, and stays loaded. ``help``
lists the commands, ``help COMMAND`` shows a command's options, ``quit`` (or ``exit``, or the
end of input) ends the session. Blank lines and lines starting with ``#`` are skipped; a
leading ``lcanalysis`` is dropped; a line that is not UTF-8 text is refused (``error: line N is
not UTF-8 text``) and the session goes on. The exit status is 0 when every command succeeded,
else the status of the last command that failed.

Not in the shell: ``bot`` and ``shell`` (they read standard input, which is the shell's),
``warm-up`` (run it before: it would recompile under a running engine) and ``-`` for a position
on standard input.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import re
import shlex
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence

from lcanalysis.cli.common import describe, meant_command
from lcanalysis.options import bad_bytes_as_surrogates, is_utf8

PROMPT = "lcanalysis> "
QUIT = ("quit", "exit")
#: commands refused in the shell, and why
NOT_HERE = {
    "bot": "it reads standard input, which is the shell's own",
    "play": "it reads your turns from standard input, which is the shell's own",
    "shell": "this is the shell already",
    "warm-up": "run 'lcanalysis warm-up' before starting the shell",
    "server": "start or stop it from the command line ('lcanalysis server start')",
}
STDIN_ERROR = ("'-' (standard input) is the shell's own input here: give the position as a file, "
               "a one-line 'LC1;...' string or example:NAME")
#: the same for the one command that reads a game record, not a position
STDIN_RECORD_ERROR = ("'-' (standard input) is the shell's own input here: give the record as a file "
                      "(JSON or the 'LCR1' text form)")

#: the longest line with quotes or a backslash the shell splits: shlex grows each word a character at a
#: time, so its time is quadratic in a word's length (a quoted 1,000,000-character position: 27 s in
#: silence); 100,000 characters take about 0.3 s and hold a one-line string with a history of
#: 10,000 turns. A line without quotes or backslashes is split on its spaces, at any length.
MAX_QUOTED_LINE = 100_000

#: said the first time Ctrl-C is pressed at the prompt, which only clears the line
INTERRUPT_HINT = "(Ctrl-C clears the line; to stop, type quit or press Ctrl-D)"

RunCommand = Callable[[Sequence[str]], int]


def add_parser(sub: argparse._SubParsersAction, run_command: RunCommand) -> None:
    """``run_command``: ``cli.main.run_command``, which answers one line as the one-shot command."""
    p = sub.add_parser("shell", help="answer command after command in one process, the engine loaded once "
                                     "(reads standard input line by line: scriptable)",
                       description=describe(__doc__))
    p.set_defaults(func=functools.partial(run, run_command=run_command, commands=sub))


def run(args: argparse.Namespace, run_command: RunCommand, commands: argparse._SubParsersAction) -> int:
    import numba  # noqa: F401  (loaded: 'show' and 'deal' here run the compiled kernel, not plain Python)

    interactive = sys.stdin.isatty()
    loader = None
    if interactive:  # the engine loads while the first line is typed
        loader = threading.Thread(target=_load_engine, name="load-engine", daemon=True)
        loader.start()
        print("lcanalysis shell: the commands of the command line, without 'lcanalysis'; "
              "'help' lists them, 'quit' ends", flush=True)
    return session(input_lines(interactive), _fresh(run_command, loader), _command_list(commands))


def _load_engine() -> None:
    """Every compiled part loaded into this process (compiled already: main made sure)."""
    from lcanalysis.cli import warmup

    try:
        for _name, step in warmup.STEPS:
            step()
    except Exception:  # the command that needs the broken part will say what it is
        pass


def _fresh(run_command: RunCommand, loader: threading.Thread | None = None) -> RunCommand:
    def run_fresh(words: Sequence[str]) -> int:
        if loader is not None:
            loader.join()  # commands never run beside the loading
        return run_command(words)  # (which clears the solver's shared tables: a fresh process's answer)

    return run_fresh


def _command_list(commands: argparse._SubParsersAction) -> list[tuple[str, str]]:
    rows = [(a.dest, a.help or "") for a in getattr(commands, "_choices_actions", [])]
    return [(name, text) for name, text in rows if name not in NOT_HERE]


def input_lines(interactive: bool, prompt: str = PROMPT) -> Iterator[str]:
    """Standard input's lines: read as they come from a script, with ``prompt`` and line editing
    at a terminal (Ctrl-C there gives a fresh prompt, the first time saying how to end; Ctrl-D ends).
    A byte that is not UTF-8 arrives as a lone surrogate (``options.bad_bytes_as_surrogates``), for
    ``session`` to refuse its line."""
    bad_bytes_as_surrogates(sys.stdin)
    if not interactive:
        while line := sys.stdin.readline():
            yield line
        return
    with contextlib.suppress(ImportError):  # Python built without readline: no line editing
        import readline  # noqa: F401  (line editing and history for input())
    told = False
    while True:
        try:
            yield input(prompt)
        except EOFError:  # Ctrl-D
            print()
            return
        except KeyboardInterrupt:  # Ctrl-C at the prompt: a fresh line, as in Python's own prompt
            print("" if told else f"\n{INTERRUPT_HINT}")
            told = True


def session(lines: Iterable[str], run_command: RunCommand, commands: Sequence[tuple[str, str]] = ()) -> int:
    """Answer every line until ``quit`` or the end; returns 0 if every command succeeded, else
    the status of the last one that failed. A line that is not UTF-8 text is refused by its number,
    and the session goes on (as the bot refuses such a request)."""
    status = 0
    for number, line in enumerate(lines, 1):
        if not is_utf8(line):  # (its words would come back in escape codes, '\udcff', in the reply)
            print(f"error: line {number} is not UTF-8 text; it is skipped", file=sys.stderr, flush=True)
            status = 2
            continue
        code = answer(line, run_command, commands)
        if code is None:
            break
        if code:
            status = code
    return status


def answer(line: str, run_command: RunCommand, commands: Sequence[tuple[str, str]] = ()) -> int | None:
    """One line: its exit status (0 for a blank line), or None for ``quit``."""
    try:
        words = split_line(line)
    except ValueError as exc:  # an unclosed quotation mark, or a quoted line too long to split
        print(f"error: cannot read the line: {exc}", file=sys.stderr, flush=True)
        return 2
    if words[:1] == ["lcanalysis"]:
        words = words[1:]
    if not words or words[0].startswith("#"):
        return 0
    if words[0] in QUIT:
        return None
    try:
        if words[0] == "help":
            return _help(words[1:], run_command, commands)
        if words[0] in NOT_HERE:
            print(f"error: '{words[0]}' does not run in the shell: {NOT_HERE[words[0]]}", file=sys.stderr)
            return 2
        if _unknown(words[0], commands):
            return 2
        if "-" in words[1:]:
            print(f"error: {STDIN_RECORD_ERROR if words[0] == 'review' else STDIN_ERROR}", file=sys.stderr)
            return 2
        return _run(words, run_command)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def split_line(line: str) -> list[str]:
    """A line's words as a POSIX shell splits them (``shlex.split``): a line without quotes or a
    backslash on its spaces, tabs and line ends, which is what shlex does with it but in linear time;
    any other line by shlex, if it is at most ``MAX_QUOTED_LINE`` characters (else a ``ValueError``)."""
    if not any(c in line for c in "'\"\\"):
        return re.split(r"[ \t\r\n]+", line.strip(" \t\r\n")) if line.strip(" \t\r\n") else []
    if len(line) > MAX_QUOTED_LINE:
        raise ValueError(f"a line of {len(line):,} characters with quotes or a backslash is longer than the shell "
                         f"splits ({MAX_QUOTED_LINE:,}): give the position or record as a file, or without quotes")
    return shlex.split(line)


def _unknown(word: str, commands: Sequence[tuple[str, str]]) -> bool:
    """Say so when ``word`` is no command of the shell's (argparse would list every command, those
    refused here too); True when it said so."""
    names = [name for name, _ in commands]
    if not names or word in names:
        return False
    meant = meant_command(word, names)
    hint = f" (did you mean '{meant}'?)" if meant else ""
    print(f"error: unknown command '{word}'{hint}; the shell answers {', '.join(names)}, help and quit",
          file=sys.stderr)
    return True


def _run(words: Sequence[str], run_command: RunCommand) -> int:
    try:
        return run_command(words)
    except SystemExit as exc:  # argparse: a bad option (its error line printed) or --help
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # nobody reads the answers any more: the session ends
        raise
    except Exception:  # a bug: say where, and keep the session
        traceback.print_exc()
        return 1


def _help(words: Sequence[str], run_command: RunCommand, commands: Sequence[tuple[str, str]]) -> int:
    if words:
        if words[0] in NOT_HERE:
            print(f"'{words[0]}' does not run in the shell: {NOT_HERE[words[0]]}")
            return 0
        if _unknown(words[0], commands):
            return 2
        return _run([words[0], "--help"], run_command)
    print("commands, as on the command line without 'lcanalysis' (POSITION: a JSON file, example:NAME "
          "or a one-line 'LC1;...' string):")
    width = max([len(name) for name, _ in commands] + [14])
    for name, text in commands:
        print(f"  {name:<{width}}  {text}")
    print(f"  {'help [COMMAND]':<{width}}  this list, or the options of COMMAND")
    print(f"  {'quit':<{width}}  end the session (also 'exit', or Ctrl-D)")
    return 0
