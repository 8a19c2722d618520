"""What every command shares: reading the POSITION argument, printing JSON, option types and the
budgets of the commands that search (a node budget and a memory ceiling). Bad command-line input is
``options.UsageError`` (printed as ``error: ...``, exit status 2), shared with the study scripts."""

from __future__ import annotations

import argparse
import difflib
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from lcanalysis.answer_json import answer_text
from lcanalysis.options import (
    EXTERNAL_CANNOT_ROLL_OUT,
    OptionError,
    UsageError,
    bad_bytes_as_surrogates,
    check_output_file,
    digits_note,
    is_utf8,
    number_or_none,
    number_text,
    refused,
)

if TYPE_CHECKING:
    from lcanalysis.game.position import Position
    from lcanalysis.game.view import View


def load(source: str) -> Position | View:
    """POSITION argument: a JSON file, ``-`` for standard input, ``example:NAME``, or the one-line string.
    One that cannot be read is refused as the parser refuses an argument (``argument_refused``:
    ``argument position: position string: unknown field 'd27' ...``)."""
    from lcanalysis.game.notation import read_position, read_position_text  # the game loads on use: '--help' stays fast

    with argument_refused("position"):
        if source == "-":  # the position's own text: a path there is refused, not followed
            return read_position_text(read_stdin("a JSON position or an 'LC1;...' string"))
        return read_position(source)


@contextmanager
def argument_refused(argument: str, label: str = "") -> Iterator[None]:
    """Input a command's positional ``argument`` (``position``, ``record``) names that cannot be read,
    refused as the parser refuses an argument: the reader's ``ValueError`` (a ``PositionError`` naming
    the problem; standard input empty or not text) as an ``OptionError``, ``argument position: ...``,
    in its own words, less a leading ``label`` the argument's name already says (``record: ``)."""
    try:
        yield
    except ValueError as exc:
        raise OptionError(f"argument {argument}: {str(exc).removeprefix(label)}") from None


def legal_turn(source: Position | View, text: str, option: str = "--turn") -> str:
    """A turn given on the command line (``option``, as the user typed it), read against the position's rules
    and checked legal for the player to move: its canonical spelling, or an ``OptionError`` naming the option as
    the parser's refusals do and what is wrong (``argument --turn: +R7/D is not legal here: ...``; before any
    thinking time is spent, and before the engine is compiled: the rules kernel that read the position is all
    it needs)."""
    from lcanalysis.game.moves import Move

    try:
        move = Move.parse(text, source.colors)
        why = source.why_illegal(move)
    except ValueError as exc:  # (the reader's message quotes the turn: "move 'ZZ' has no '/<source>'")
        raise OptionError(f"argument {option}: {exc}") from None
    if why:
        raise OptionError(f"argument {option}: {text} is not legal here: {why}")
    return str(move)


def legal_turns(source: Position | View, texts: Sequence[str] | None, option: str = "--turn") -> list[str]:
    """Every turn an option names, in the order given, each read by ``legal_turn``; a turn named twice (as
    typed or in another spelling, ``+B6/D`` and ``+b6/d``) is an ``OptionError`` naming it: a user who typed a
    turn twice likely meant another. The one rule of ``advise --turn`` and ``rollout --turn``."""
    turns: list[str] = []
    for text in texts or ():
        turn = legal_turn(source, text, option)
        if turn in turns:
            raise OptionError(f"argument {option}: {turn} is given twice")
        turns.append(turn)
    return turns


def read_stdin(expected: str) -> str:
    """Standard input as text for a reader: at most one character more than any reader accepts
    (so the reader refuses it as too long, having read no more), not empty, and UTF-8. At a
    terminal it first says what it waits for and how to end it, so ``-`` is never a silent wait."""
    from lcanalysis.game.notation import MAX_TEXT_CHARS

    if sys.stdin.isatty():
        print(f"reading {expected} from standard input: type or paste it, then press Enter and Ctrl-D "
              "(Ctrl-C gives up)", file=sys.stderr, flush=True)
    bad_bytes_as_surrogates(sys.stdin)  # (refused below, not Python's "'utf-8' codec can't decode")
    text = sys.stdin.read(MAX_TEXT_CHARS + 1)  # never more than the readers accept
    if not text.strip():
        raise UsageError(f"standard input is empty: expected {expected}")
    if not is_utf8(text):
        raise UsageError("standard input is not UTF-8 text")
    return text


def progress_line(line: str) -> None:
    """A stage of long work (the endgame search's levels, the play-outs), said on standard error as
    it happens, so that an answer is never a silent wait."""
    print(f"  {line}", file=sys.stderr, flush=True)


#: seconds a stage may run on without a word before ``stage_progress`` says it is still working
STAGE_SILENCE = 1.0


@contextmanager
def stage_progress() -> Iterator[Callable[[str], None]]:
    """A ``progress`` for one long job whose stages can each run for seconds (the endgame search's
    stall levels): each stage's line as it comes (``progress_line``), and while the job runs on with
    no new line for ``STAGE_SILENCE`` s, the last line again with the seconds since it, at most once
    in that time, until the block ends. Nothing is said before the first line."""
    import threading
    import time

    from lcanalysis.search.common import heartbeat

    lock = threading.Lock()
    last: dict[str, Any] = {"line": None, "at": 0.0, "said": 0.0}

    def say(line: str) -> None:
        with lock:
            now = time.perf_counter()
            last.update(line=line, at=now, said=now)
            progress_line(line)

    def beat(_: str) -> None:
        with lock:
            now = time.perf_counter()
            if last["line"] is None or now - last["said"] < STAGE_SILENCE:
                return
            last["said"] = now
            progress_line(f"{last['line']} ... still working, {now - last['at']:.0f} s")

    with heartbeat(beat, lambda: "", every=STAGE_SILENCE / 4, first=STAGE_SILENCE / 4):
        yield say


def emit(obj: Any) -> None:
    """``obj`` as one line of strict JSON on standard output, as every answer is written
    (``answer_json``): floats with 15 significant digits, a number that is not finite ``null``."""
    print(answer_text(obj))


#: words a newcomer types for a command, and the command meant
COMMAND_WORDS = {"hint": "advise", "advice": "advise", "analyse": "advise", "analyze": "advise", "evaluate": "advise"}


def meant_command(word: str, names: Sequence[str]) -> str | None:
    """The command of ``names`` that ``word``, no command, likely means: a newcomer's word for it
    (``hint``, ``advice``: advise) or a close spelling (``sovle``: solve); None when none is close.
    The command line's unknown command and the shell's say it alike."""
    meant = COMMAND_WORDS.get(word.lower())
    if meant in names:
        return meant
    return next(iter(difflib.get_close_matches(word.lower(), list(names), n=1, cutoff=0.6)), None)


def describe(doc: str | None) -> str:
    """A command's ``--help`` description from its module docstring: the first paragraph on one
    line, without the reST quoting (its first line alone could stop mid-sentence)."""
    first = (doc or "").strip().split("\n\n")[0]
    return " ".join(first.split()).replace("``", "")


def unwritable(option: str, path: str, exc: OSError) -> UsageError:
    """The refusal of a file an option names that cannot be written: the option, the file, why
    (``options.refused``: the parser's one line, ``argument --out: F: cannot write it (...)``)."""
    return refused(option, f"{path}: cannot write it ({exc.strerror or exc})")


def check_agent_option(option: str, text: str, make: bool = True) -> Any:
    """The agent an option names, checked (``tournaments.specs.check_agent``, ``make`` as it takes it:
    False checks its name and options without loading the engine, for a command's ``precheck``): a
    refusal is an ``OptionError`` naming the option as the parser's do (``argument --agent: unknown
    agent 'nosuch'``)."""
    from lcanalysis.tournaments.specs import TournamentError, check_agent, parse_agent

    try:
        return check_agent(parse_agent(text), make)
    except TournamentError as exc:
        raise OptionError(f"argument {option}: {exc}") from None


def check_rollout_agent(option: str, text: str, make: bool = True, kept_in: str | None = None) -> Any:
    """The agent an option names to play out trials (``rollout --agent``, ``review --check-agent``):
    as ``check_agent_option`` checks it, and not an outside program, which plays one round at a time.
    ``kept_in``: the file that keeps the trials to resume (``--out``'s), which a class of your own
    (``python:FILE:CLASS``) is refused: such a file records the code of our agents, not of FILE, so a
    run resumed after an edit of it would mix the trials of two agents unseen."""
    spec = check_agent_option(option, text, make)
    if spec.name == "external":
        raise OptionError(f"argument {option}: {EXTERNAL_CANNOT_ROLL_OUT}")
    if spec.name == "python" and kept_in is not None:
        file = dict(spec.options).get("file")
        raise OptionError(f"argument {option}: a class of your own ({text}) cannot keep its trials in {kept_in}, "
                          f"which records the code of our agents but not of {file} (a run resumed after an edit "
                          f"of {file} would mix the trials of two agents): play them out without it")
    return spec


def write_output_file(option: str, path: str, text: str) -> None:
    """Write ``text`` to the file an option names; a failure is an ``error:`` naming the option."""
    check_output_file(option, path)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise unwritable(option, path, exc) from None





# --- the budgets of solve and advise -------------------------------------------------------------

#: search nodes a second measured on the project's 2-core machine (one core), for telling a user
#: about how long a node budget lasts
NODES_PER_SECOND = 1_400_000
#: the node budget of ``solve`` and ``advise`` when none is given: about 12 minutes of search at
#: ``NODES_PER_SECOND``
DEFAULT_MAX_NODES = 1_000_000_000
#: the largest node budget accepted: ``lcanalysis.search.common.MAX_NODES`` (about a week)
MAX_NODES = 10**12
#: the largest memory ceiling accepted, in GB
MAX_MEMORY_GB = 1024.0
#: address space a command needs beyond what it uses when its work starts (threads, small tables)
MEMORY_HEADROOM = 256 << 20


def max_nodes(text: str) -> int:
    """``--max-nodes N``: a whole number of search nodes, 1..``MAX_NODES``."""
    number = number_or_none(text)  # (1e9 is a fine way to write a billion)
    if number is None or not math.isfinite(number) or number != int(number):
        raise argparse.ArgumentTypeError(f"--max-nodes must be a whole number of search nodes, like 1000000000, "
                                         f"got {text!r}{digits_note(text)}")
    value = int(number)
    if not 1 <= value <= MAX_NODES:
        raise argparse.ArgumentTypeError(f"--max-nodes must be 1..{MAX_NODES:,} (about a week of search), got {text}")
    return value


def memory_gb(text: str) -> float:
    """``--max-memory GB``: a finite number of gigabytes above 0 and at most ``MAX_MEMORY_GB``."""
    try:
        value = number_text(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--max-memory must be a number of gigabytes, like 2 or 0.5, "
                                         f"got {text!r}{digits_note(text)}") from None
    if not math.isfinite(value) or not 0 < value <= MAX_MEMORY_GB:
        raise argparse.ArgumentTypeError(f"--max-memory must be more than 0 and at most {MAX_MEMORY_GB:g} GB, "
                                         f"got {text}")
    return value


def physical_memory_gb() -> float:
    """The machine's memory in GB (the default memory ceiling); 16 where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / (1 << 30)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not a POSIX system
        return 16.0


def add_budget_options(p: argparse.ArgumentParser, what: str, note: str = "",
                       when_out: str = "the command stops with an error (exit status 2)") -> None:
    """``--max-nodes`` and ``--max-memory`` of a command that searches; ``what``: what the nodes bound;
    ``when_out``: what happens when they run out."""
    p.add_argument("--max-nodes", type=max_nodes, default=DEFAULT_MAX_NODES, metavar="N",
                   help=f"{what}: at most N search nodes, 1..{MAX_NODES:.0e} (default {DEFAULT_MAX_NODES:,}, "
                        "about 12 minutes at the 1.4 million nodes a second of a 2-core machine); when they run "
                        f"out {when_out}{note}")
    p.add_argument("--max-memory", type=memory_gb, default=None, metavar="GB",
                   help="a memory ceiling in GB (the process's address space, numpy and the engine included; "
                        "default: the machine's memory); a search that would pass it is refused or stopped "
                        f"with an error (exit status 2), not killed; at most {MAX_MEMORY_GB:g}")


def _used_address_space() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - no /proc
        return 0


@contextmanager
def memory_ceiling(gb: float | None, less: str) -> Iterator[None]:
    """Run the block under an address-space limit of ``gb`` GB (None: the machine's memory), set
    with ``setrlimit(RLIMIT_AS)`` and given back afterwards. A ceiling below what the process
    already uses is refused up front (an ``OptionError``, as the parser refuses a bad value); an
    allocation that fails under it is a ``UsageError`` naming the ceiling and how to ask for less
    (``less``)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a POSIX system: no ceiling
        yield
        return
    default = gb is None
    ceiling = physical_memory_gb() if gb is None else gb
    limit = int(ceiling * (1 << 30))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    named = f"{ceiling:.3g} GB" + (" (the default, the machine's memory)" if default else "")
    if hard != resource.RLIM_INFINITY and limit > hard:
        if not default:
            raise OptionError(f"argument --max-memory: {gb:g} GB is above this process's hard address-space "
                              f"limit of {hard / (1 << 30):.3g} GB (ulimit -Hv): give at most that")
        limit = hard
    used = _used_address_space()
    if limit < used + MEMORY_HEADROOM:
        need = (used + MEMORY_HEADROOM) / (1 << 30)
        raise OptionError(f"argument --max-memory: {named} is less than this command needs: {used / (1 << 30):.2f} "
                          "GB of address space are in use before its work starts (the interpreter, numpy and the "
                          f"compiled engine); give --max-memory {math.ceil(need * 10) / 10:g} or more")
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    failed = False
    try:
        yield
    except MemoryError:
        failed = True
    except RuntimeError as exc:  # a thread that cannot get its stack under the ceiling
        if "can't start new thread" not in str(exc):
            raise
        failed = True
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    if failed:
        raise UsageError(f"out of memory: the command reached its memory ceiling of {named}; give a larger "
                         f"--max-memory (the machine has {physical_memory_gb():.3g} GB), or ask for less: {less}")
