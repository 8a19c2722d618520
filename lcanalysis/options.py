"""What every entry point checks alike, from the command line, the study scripts and the library's
functions: the seed's range, whole-number and time options, output files, and the one error type of
bad command-line input (printed as ``error: ...``, exit status 2; ``OptionError``, an argument
refused once the arguments are read, as the parser's one line naming the command); the one check of a switch
(``check_flag``) and of a seed (``check_seed``) every function taking one makes, raising the
function's own error type, and how a message quotes what it was given (``brief``). Below every
other layer: it imports nothing of the package, so ``cli``, ``game`` and the ``python -m
lcanalysis.studies...`` scripts share it; and the one way a long run's results are appended to
their file (``append_whole``). Also the one parser class of every command (``CommandParser``: a
bad argument is one line naming the command), the one reading of a number a person wrote
(``whole_text``, ``number_text``: no '_' between digits), and the one check that text read from
standard input is UTF-8 (``is_utf8``), and the one way a study script ends (``run_script``)."""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import operator
import os
import reprlib
import sys
from collections.abc import Callable, Mapping
from typing import Any, Literal, NoReturn, overload

#: the largest seed anywhere: a seed reaches compiled code as a 64-bit integer
MAX_SEED = 2**63 - 1
#: the endgame search's bounds (``search.common``; here so that the command line checks them by
#: their option names without loading the search): stall budgets the table key holds, horizons
MAX_STALLS = 31  # the key holds stall budgets -1..31
MAX_TL = 1000  # and horizons -1..1000
#: the most splits a view is sampled in (``samples``; ``View.sample_positions`` draws no more at once):
#: the standard error is long negligible by then, and each is a full Position in memory
MAX_SAMPLES = 100_000
#: a view of more distinct splits than this is solved in a sample of ``SOLVE_SAMPLES`` of them when no
#: sample is asked for (``search.solve``'s ``max_splits``; here so that ``solve --help`` says it
#: without loading the search)
SOLVE_MAX_SPLITS = 20_000
SOLVE_SAMPLES = 400
#: the most workers (processes or threads) any command may ask for: a review's, a tournament's,
#: the endgame search's threads over the splits of a view
MAX_WORKERS = 1024

#: the most Monte Carlo samples a wager model draws for one answer (about half a second per number of
#: wagers on a 2-core machine, a bar showing once it takes a second; standard errors near 0.03 points)
MAX_WAGER_SAMPLES = 10**6
#: the wager models ``wagers.models.analyze_view_models`` runs for a view, in its order (exact ones first);
#: here so that 'wager --models' checks the names as it reads them, without loading the models
WAGER_VIEW_MODELS = ("canonical", "decline_at_end", "turns", "turns_eager", "opponent", "turns_opponent")
#: the samples a row of a sampled wager model takes when none are given (``wagers.models``, 'wager --samples')
WAGER_SAMPLES_DEFAULT = 20_000
#: the most rounds a wager simulation plays (``wagers.simulation.snapshot_rounds``): about two minutes,
#: and 600 MB of snapshot rows held at once
MAX_WAGER_SIM_ROUNDS = 500_000
#: the most deals, matches or endgame positions a study plays (``lcanalysis studies data`` and
#: ``match-table``), as a tournament's deals (``tournaments.command.MAX_DEALS``): a million duplicate deals
#: of the match table are about 15 CPU-minutes; at 10**11 the list of them filled the memory and the
#: system killed the command after two minutes, with no word
MAX_STUDY_UNITS = 1_000_000
#: the most bootstrap resamples of the match table (each goes over every deal; 200 by default):
#: 10**11 ran on with no end and no bar
MAX_BOOTSTRAP = 100_000
#: the most rounds a match has under the rules (``game.rules``; here so that 'play --rounds' is
#: checked as it is read, without loading the engine)
MAX_MATCH_ROUNDS = 1000

#: the hint's numbers (``advisor``; here so that ``advise --help`` says them without loading the
#: advisor, which imports them from here). Its play-outs' budget when none is given, in seconds:
PLAYOUT_DEFAULT_SECONDS = 1.0
#: a rollout's trials a turn, and the hint's best turns it rolls out when none are named (``studies.rollout``;
#: here, so that the command line refuses more by the option's name without loading the engine)
MAX_TRIALS = 1_000_000
MAX_ROLLOUT_TOP = 100
#: the fewest trials a rollout takes (``studies.rollout``, which refuses fewer; ``rollout --trials`` and a
#: review's ``--check``, whose trials are a rollout's): one trial gives no standard error, and an estimate
#: shown without one ("± nan") says nothing of how far off it may be
FEWEST_TRIALS = 2
ONE_TRIAL = "one trial gives no standard error"
#: why a rollout (``rollout --agent``, a review's ``--check-agent``) refuses an outside program
EXTERNAL_CANNOT_ROLL_OUT = "an external agent cannot roll out: it plays one round at a time over the bot protocol"
#: the most marks a review's checks take (``--check-top``; ``studies.review_check``)
MAX_CHECK_TOP = 10_000
MAX_TIME_BUDGET = 3600  # seconds: the play-outs of an hour fit in memory many times over
ENDGAME_DEFAULT_SECONDS = 10.0  # without a budget given: a wrong answer near the end is worse than a slow one
#: what a note asks for when the hint's budget, not a cap, stopped it: named as ``lc.advise`` takes it
#: and as ``advise``, ``tutor`` and ``play`` do (as "a larger max_nodes (--max-nodes)" is named)
MORE_TIME = "more time (a larger time_budget, --time)"
#: ... and when the caller's node count, not the time, stopped it
MORE_NODES = "a larger max_nodes (--max-nodes)"
#: on the clock, the share of the endgame budget (at most 1 s, the play-outs' default) kept for the
#: play-outs, so that a search that does not reach one stall each still leaves them time to answer in
PLAYOUT_RESERVE = 0.25
#: from this many cards left the endgame search answers, not the play-outs: at 4 cards the play-outs'
#: picks lost 4 points or more in 6 of 16 views where the search's did not (docs/endgame.md, "At 4 cards")
ENDGAME_CARDS = 4
#: the same for a full position (both hands known: one split, only the pile's order to chance): on 8
#: played-down positions with 5 cards left the search reached one stall each within the default
#: budget in 8, and by its values the play-outs' pick lost 3-9 points in 5 (docs/endgame.md, "Full
#: positions at 5 cards"); with 6 cards it reached one stall each in 3 of 8
FULL_POSITION_ENDGAME_CARDS = 5
#: a full position with this many cards left or fewer goes to the exact solver, one stall each
EXACT_ENDGAME_CARDS = 2
#: the play-out rate after the play-out policy got 1.4-1.6x faster (``benchmarks/bench_policy.py``): the
#: advisor's hint (``advisor.ROLLOUTS_PER_SECOND``) and ``best`` (its ``rate`` option) budget this
#: many a millisecond; ``search`` and the game review keep ``rollouts.ROLLOUTS_PER_MS`` so that their
#: published measurements stay reproducible
FAST_ROLLOUTS_PER_MS = 15.0
#: play-outs a second of budget (``FAST_ROLLOUTS_PER_MS``): about what the hint's successive
#: halving plays in 0.55 s of one idle core of the development machine (median; at most 0.85 s) on
#: the 200 views of the consistency study. Was 6,000 (``EARLIER_ROLLOUTS_PER_SECOND``), the rate of
#: ``search`` and the game review (``rollouts.ROLLOUTS_PER_MS``)
ROLLOUTS_PER_SECOND = int(1000 * FAST_ROLLOUTS_PER_MS)
#: the play-out policies by name (their parameter vectors: ``rollouts.PLAYOUT_POLICY_PARAMS``, the one
#: map from a name to its parameters, shared by the hint and the game review): "plain", the tuned
#: heuristic (``core.policy.HEURISTIC_PARAMS``), which never takes a pile card just to gain turns;
#: "stalling", the same heuristic that also stalls (``core.policy.STALLING_PARAMS``), the play-out policy
#: of the best agent and of the review's losses
PLAYOUT_POLICIES = ("plain", "stalling", "tuned")
#: "staged": the plain heuristic's play-outs while the draw pile holds more than ``STALLING_FROM_CARDS``
#: cards, the stalling heuristic's from there on (``playout_policy_at``). From 5 to 15 cards left the
#: plain play-outs were many points off `best`'s rollouts where the stalling ones were close, and picked a
#: worse turn more often (docs/agents.md, "Which play-outs from 15 cards down")
STAGED = "staged"
#: every name the hint's play-out policy may be given by (``advise(..., playout_policy=...)``, ``--playout-policy``)
PLAYOUT_POLICY_CHOICES = (*PLAYOUT_POLICIES, STAGED)
STALLING_FROM_CARDS = 15
#: the hint's play-out policy when none is given (``advise(..., playout_policy=None)``)
PLAYOUT_POLICY_DEFAULT = STAGED
#: how the hint's endgame search weighs the ways a view's unseen cards may lie (``advise(..., endgame_splits=...)``,
#: ``--endgame-splits``): "uniform", every split of the physical cards between the opponent's hand and the draw pile
#: alike (the view value of the specification); "model", each split weighted by how likely the opponent-hand
#: model (``lcanalysis.hand_model``: by default its weights fitted on the best agent's self-play,
#: ``hand_model.best_play_weights``) makes the opponent's hand in it. The default since with best in both seats
#: the uniform view value came out 4.9 points above the results with 2 cards left (docs/endgame.md, "The view
#: value against real play")
ENDGAME_SPLITS = ("uniform", "model")
ENDGAME_SPLITS_DEFAULT = "model"
#: the policy of the play-outs that measure the game review's losses (``reviewer.settings.PLAYOUT_POLICY``):
#: here, below both, so that the tutor can play a turn out with it too (``tutor.policy_check``)
REVIEW_PLAYOUT_POLICY = "stalling"


def playout_policy_at(policy: str, cards_left: int) -> str:
    """The play-out policy (``PLAYOUT_POLICIES``) that ``policy`` (``PLAYOUT_POLICY_CHOICES``) plays with
    ``cards_left`` cards in the draw pile: ``STAGED`` is the stalling one from ``STALLING_FROM_CARDS`` cards
    down and the plain one before; any other is itself."""
    if policy != STAGED:
        return policy
    return "stalling" if cards_left <= STALLING_FROM_CARDS else "plain"


_BRIEF = reprlib.Repr()
_BRIEF.maxstring = 48
_BRIEF.maxother = 48
_BRIEF.maxlong = 24
_BRIEF.maxlist = _BRIEF.maxtuple = _BRIEF.maxdict = _BRIEF.maxset = 6
_BRIEF.maxlevel = 3


def brief(value: Any) -> str:
    """A short ``repr`` of a value someone gave us, for an error message: long strings and lists
    are cut, nesting is not followed deep, a number of thousands of digits is described rather
    than printed (Python refuses to print one over 4300 digits), and a value whose ``repr``
    fails is named by its type. Every reader's messages quote input through this."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 80:
        digits = int(value.bit_length() * 0.30103) + 1
        return f"{'-' if value < 0 else ''}<a number of about {digits} digits>"
    try:
        return _BRIEF.repr(value)
    except Exception:  # a foreign object whose repr fails, or recursion in it
        return f"<{type(value).__name__}>"


def whole_number(value: Any) -> int | None:
    """``value`` as an ``int`` when it is a whole number (Python's or numpy's integer types, not a
    bool and not a float such as 5.0); otherwise None."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


@overload
def check_flag(name: str, value: Any, error: type[Exception] = ..., none: Literal[""] = "") -> bool: ...
@overload
def check_flag(name: str, value: Any, error: type[Exception] = ..., *, none: str) -> bool | None: ...
def check_flag(name: str, value: Any, error: type[Exception] = ValueError, none: str = "") -> bool | None:
    """``value`` as a ``bool`` when it is True or False (Python's, or numpy's, which a comparison of
    arrays gives) or 1 or 0; given ``none`` (what None means there), None too, returned as is. Else
    ``error``, naming the argument: a string such as "no" would otherwise read as True."""
    if value is None and none:
        return None
    numpy = sys.modules.get("numpy")  # (a numpy bool exists only once numpy is loaded: not loaded here)
    if isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_)):
        return bool(value)
    if whole_number(value) in (0, 1):
        return bool(value)
    raise error(f"{name} must be True or False{f' (None: {none})' if none else ''}, got {brief(value)}")


@overload
def check_seed(name: str, value: Any, error: type[Exception] = ..., least: int | None = ...,
               most: int | None = ..., none: Literal[""] = "") -> int: ...
@overload
def check_seed(name: str, value: Any, error: type[Exception] = ..., least: int | None = ...,
               most: int | None = ..., *, none: str) -> int | None: ...
def check_seed(name: str, value: Any, error: type[Exception] = ValueError, least: int | None = 0,
               most: int | None = MAX_SEED, none: str = "") -> int | None:
    """``value`` as an ``int`` when it is a whole number (Python's or numpy's; not a bool, a float or
    text) from ``least`` to ``most`` (None: no bound that way; by default 0..``MAX_SEED``, what compiled
    code takes); given ``none`` (what None means there), None too, returned as is. Else ``error``,
    naming the argument and the seeds it takes."""
    if value is None and none:
        return None
    number = whole_number(value)
    if number is None or (least is not None and number < least) or (most is not None and number > most):
        raise error(f"{name} must be {_whole_range(least, most)}{f' (None: {none})' if none else ''}, "
                    f"got {brief(value)}")
    return number


def _whole_range(least: int | None, most: int | None) -> str:
    """Words for the whole numbers from ``least`` to ``most`` (None: no bound), for a message."""
    if most is None:
        return "a whole number" if least is None else f"a whole number {least:,} or above"
    top = "2**63 - 1" if most == MAX_SEED else f"{most:,}"
    return f"a whole number at most {top}" if least is None else f"a whole number from {least:,} to {top}"


#: why a number written with '_' between its digits is refused (``whole_text``, ``number_text``)
GROUPED_DIGITS = "'_' between digits is not read: write the number without it"


def grouped_digits(text: str) -> bool:
    """Whether ``text`` reads as a number only by Python's '_' between digits (``1_0``, ``2_5.0``)."""
    if "_" not in text:
        return False
    try:
        float(text)
    except ValueError:
        return False
    return True


def digits_note(text: str) -> str:
    """Said after a number refused: why, when it was refused for its '_' (``GROUPED_DIGITS``)."""
    return f" ({GROUPED_DIGITS})" if grouped_digits(text) else ""


def whole_text(text: str) -> int:
    """A whole number a person wrote: ``int(text)``, but with '_' between digits refused as any other
    text that is not a whole number (a ``ValueError``): Python reads ``1_0`` as 10, so a typo would
    silently become another budget. Every reader of a number in a user's text reads it here."""
    if grouped_digits(text):
        raise ValueError(f"{text!r}: {GROUPED_DIGITS}")
    return int(text)


def number_text(text: str) -> float:
    """A number a person wrote: ``float(text)``, with '_' between digits refused (``whole_text``)."""
    if grouped_digits(text):
        raise ValueError(f"{text!r}: {GROUPED_DIGITS}")
    return float(text)


def number_or_none(text: str) -> int | float | None:
    """An option's value a person wrote as a number: a whole number (``whole_text``), else a number
    (``number_text``); None when it is neither ('_' between digits included). The agent specs and the
    bot's options read their values here."""
    for read in (whole_text, number_text):
        try:
            return read(text)
        except ValueError:
            pass
    return None


def _typed(read: Callable[[str], Any], kind: str) -> Callable[[str], Any]:
    """``read`` as an argparse type, refusing in argparse's words ("invalid int value: 'x'") and why."""
    def parse(text: str) -> Any:
        try:
            return read(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {kind} value: {text!r}{digits_note(text)}") from None

    return parse


def is_utf8(text: str) -> bool:
    """Whether ``text`` was read from UTF-8 bytes: a byte that is not arrives as a lone surrogate
    (``\\udcff``: ``surrogateescape``, the error handler of standard input under a C locale, and of
    ``bad_bytes_as_surrogates``). Every reader of standard input (the bot, the shell, a position
    given as ``-``) checks its text here, so that such a line is refused as not text, never
    echoed back in escape codes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def bad_bytes_as_surrogates(stream: Any) -> None:
    """A text stream that would raise on a byte that is not UTF-8 (``errors="strict"``, standard input
    with ``PYTHONIOENCODING=utf-8``) reads it as a lone surrogate instead, as under a C locale, so
    that the line holding it is refused (``is_utf8``), not the whole session ended."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="surrogateescape")


class UsageError(ValueError):
    """Bad command-line input; printed as ``error: ...``."""


class OptionError(UsageError):
    """A command's argument refused once the arguments are read (an agent, which is made to be
    checked; a turn read against the position; an output file): printed as the parser's refusals
    are, ``error_line`` naming the command."""


def refused(option: str, problem: str) -> UsageError:
    """The refusal of what ``option`` names, ``problem`` saying what is wrong with it: a command-line
    option's (``--csv``) an ``OptionError`` worded as the parser words one (``argument --csv: ...``);
    a library argument's (``out``) a ``UsageError`` naming it (``out F is a directory``)."""
    if option.startswith("-"):
        return OptionError(f"argument {option}: {problem}")
    return UsageError(f"{option} {problem}")


def error_line(prog: str, message: str) -> str:
    """The one line a command's bad argument is answered with (exit status 2), naming the command,
    the problem and where its options are listed: ``lcanalysis solve: error: argument --time: ...
    (see lcanalysis solve --help)``. A message that ends in a bracket of its own gets the pointer as
    a clause, ``... (did you mean d=27?); see lcanalysis advise --help``: two brackets in a row read
    as two afterthoughts, not one sentence."""
    if message.rstrip().endswith(")"):
        return f"{prog}: error: {message.rstrip()}; see {prog} --help"
    return f"{prog}: error: {message} (see {prog} --help)"


def run_script(main: Callable[[], int]) -> NoReturn:
    """Run a ``python -m lcanalysis.studies...`` script's ``main`` and exit with its status; output piped
    into ``head`` and closed early ends the script quietly with status 0, as ``lcanalysis`` does, where
    it was a ``BrokenPipeError`` traceback."""
    try:
        status = main()
        sys.stdout.flush()  # a pipe closed after the last print breaks here, not at exit
    except BrokenPipeError:
        # Python flushes standard output once more at exit: into nothing, not the closed pipe
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    sys.exit(status)


class CommandParser(argparse.ArgumentParser):
    """The parser of every command: ``lcanalysis`` (so each subcommand's too: ``add_subparsers``
    makes them of its parser's class) and the study scripts. A bad argument is one line on standard
    error (``error_line``) and exit status 2: argparse printed the usage first, several lines in
    which the error was the last. Its ``type=int`` and ``type=float`` are ``whole_text`` and
    ``number_text``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # type=int and type=float read numbers as a person writes them: '1_0' refused, not read as 10
        self.register("type", int, _typed(whole_text, "int"))
        self.register("type", float, _typed(number_text, "float"))

    def error(self, message: str) -> NoReturn:
        self.exit(2, error_line(self.prog, message) + "\n")

    def check_output(self, option: str, path: str) -> None:
        """The file ``path`` a study script will write (given as ``option``), checked before its work
        (``check_output_file``): a refusal is this parser's error, one line and exit status 2, not a
        traceback once the work is done."""
        try:
            check_output_file(option, path)
        except UsageError as e:
            self.error(str(e))


def append_whole(fd: int, data: bytes, path: str, kept: str, sync: bool = True) -> None:
    """Append ``data`` (whole lines) to the file open on ``fd`` for appending, whole or not at all:
    a write that fails (a full disk, a quota, a file system gone read-only, an I/O error) cuts the
    file back to where it was, so no part of a line is left to mix with the next run's, and raises
    an ``OSError`` (its ``errno`` the system's) that names ``path`` and the reason and says ``kept``:
    what the file still holds and how to go on. ``sync``: on the disk when it returns (``fsync``).
    Written past any buffer of the file object, so nothing failed is left to be written at close."""
    start = os.lseek(fd, 0, os.SEEK_END)
    try:
        left = memoryview(data)
        while left:
            left = left[os.write(fd, left):]
        if sync:
            os.fsync(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, start)
        error = OSError(f"cannot write {path}: {exc.strerror or exc}; {kept}")
        error.errno = exc.errno
        raise error from exc


def check_output_file(option: str, path: str, keep: Mapping[str, str | None] | None = None,
                      replaces: tuple[str, tuple[str, ...]] | None = None) -> None:
    """Refuse an output file that cannot be written, naming the option, before any work is done
    (a review of a whole game should not end in an error about its report's folder). The one rule of
    every output option: its folder must exist, a missing one is refused naming it (a mistyped folder
    is never made in silence; ``check_output_folder`` for an option that names a folder). ``keep``:
    the files the command reads or keeps (what each is, its path): writing over one is refused
    ('--csv' naming the results file once replaced a whole tournament's results with a table).
    ``replaces``: (what the output is, how such a file begins): an existing file that does not
    begin so is refused ('review --html' wrote its report over a game record given by mistake).
    Refused as ``refused`` words it: a command-line option's as the parser's refusals are."""
    for what, other in (keep or {}).items():
        if other and other != "-" and same_file(path, other):
            raise refused(option, f"{path} is {what}: writing there would destroy it; give another file name")
    if os.path.isdir(path):
        raise refused(option, f"{path} is a directory; give a file name")
    if replaces is not None and os.path.isfile(path) and os.path.getsize(path) > 0:
        kind, beginnings = replaces
        with open(path, "rb") as fh:
            head = fh.read(256).decode("utf-8", "replace").lstrip("\ufeff \t\r\n").lower()
        if not head.startswith(beginnings):
            raise refused(option, f"{path} exists and is not {kind}: writing there would destroy it; "
                                  "give another file name (or remove that file first)")
    folder = os.path.dirname(os.path.abspath(path))
    _check_folder(option, path, folder)
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise refused(option, f"{path}: not allowed to write there")


def check_output_folder(option: str, path: str) -> None:
    """Refuse a folder an option names to write into, naming the option, before any work is done:
    a file in its place, or a folder it would be made in that does not exist (the rule of
    ``check_output_file``: the folder itself is made, as ``mkdir`` would, never its parents)."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise refused(option, f"{path} is not a folder but a file: {option} names the folder to write into")
    where = os.path.abspath(path)
    _check_folder(option, path, where if os.path.isdir(where) else os.path.dirname(where))


def _check_folder(option: str, path: str, folder: str) -> None:
    """The folder ``option``'s ``path`` is written in: there, a folder, and writable."""
    missing = None
    while not os.path.lexists(folder):  # up to what is there (the root always is): the first missing one is named
        folder, missing = os.path.dirname(folder), folder
    if not os.path.isdir(folder):
        raise refused(option, f"{path}: {folder} is a file, not a folder")
    if missing is not None:
        raise refused(option, f"{path}: the folder {missing} does not exist")
    if not os.access(folder, os.W_OK):
        raise refused(option, f"{path}: not allowed to write there")


def path_name(option: str, what: str = "a file name") -> Callable[[str], str]:
    """A parser of an option naming a file or folder: refuses an empty name (``--record ""`` once
    wrote nothing and said nothing, the game lost)."""
    return nonblank(option, what)


def nonblank(option: str, what: str) -> Callable[[str], str]:
    """A parser of an option whose value is a name (``what``: "an agent name"): refuses a blank one,
    which an ``or`` with the default would otherwise take for no value at all."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{option} needs {what}, got {text!r}")
        return text

    return parse


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (the same name, however spelt, when one does not exist yet)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist yet: the same name is the same file
        return os.path.realpath(a) == os.path.realpath(b)


def nonneg(name: str, maximum: int | None = None, minimum: int = 0, why: str | None = None) -> Callable[[str], int]:
    """A parser of a whole-number option ``name``, ``minimum`` (default 0) to ``maximum``; ``why``:
    the reason for the minimum, said when a smaller number is refused."""
    def parse(text: str) -> int:
        try:
            value = whole_text(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}{digits_note(text)}"
                                             ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{name} must be >= {minimum}{f' ({why})' if why else ''}, got {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{name} must be at most {maximum}, got {text}")
        return value

    return parse


def seconds(most: float | Callable[[], float], unit: str = "seconds") -> Callable[[str], float]:
    """A parser for a time budget: a finite number of seconds above 0 and at most ``most`` (or
    ``most()``, read when parsing, for a limit kept in a module slow to import)."""

    def parse(text: str) -> float:
        try:
            value = number_text(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds is needed, got {text!r}{digits_note(text)}"
                                             ) from None
        limit = most() if callable(most) else most
        if not math.isfinite(value) or not 0 < value <= limit:
            raise argparse.ArgumentTypeError(f"must be more than 0 and at most {limit:g} {unit}, got {text}")
        return value

    return parse


def number(option: str, unit: str = "", above: bool = False,
           most: float | Callable[[], float] | None = None) -> Callable[[str], float]:
    """A parser of a finite number option of ``unit`` ("points", "minutes"): 0 or more, or above 0
    with ``above``; at most ``most`` when given (or ``most()``, read when parsing, for a limit kept
    in a module slow to import)."""
    of = f" of {unit}" if unit else ""

    def parse(text: str) -> float:
        try:
            value = number_text(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} must be a number{of}, got {text!r}{digits_note(text)}"
                                             ) from None
        limit = most() if callable(most) else most
        if (not math.isfinite(value) or value < 0 or (above and value == 0)
                or (limit is not None and value > limit)):
            least = f"a positive number{of}" if above else f"0 or more{' ' + unit if unit else ''}"
            at_most = f", at most {limit:g}" if limit is not None else ""
            raise argparse.ArgumentTypeError(f"{option} must be {least}{at_most}, got {text}")
        return value

    return parse
