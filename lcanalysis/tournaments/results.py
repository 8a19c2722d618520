"""Tournament results files: one tournament per file, one writer at a time, every line checked.

A results file is JSON lines. The first line is a header naming the tournament::

    {"lcanalysis_tournament": 1, "identity": {...}, "created": "2026-05-09T07:35:25+00:00"}

``identity`` holds the agents (name, options, label), the rules in full (colours, hand size,
rounds, turn cap, ...), the seed, the duplicate and round-robin settings, and the code that
played (``code``: the package version and a hash of the source of the agents, the engine, the
opponent-hand model and match equity table they play by, and the round player: ``CODE_FILES``).
Then one line per finished deal and seating::

    {"job": "PAIRING:DEAL:SWAP", "rows": [{...one row per round...}]}

and, only where a run was told to go on with changed code (``allow_code_change``), a line
``{"lcanalysis_code": {...}}`` before the first job that code played.

A luck-adjusted tournament (``--luck-adjusted``) has ``"luck_adjusted": true`` in its identity,
and each of its rows holds ``luck0`` and ``luck1`` (``LUCK_COLUMNS``): the luck of each seat's
deck draws in the round (``lcanalysis.tournaments.luck``). Files without the key, every file
written before it existed included, are tournaments without luck and read as before.

Each row played since they were kept also holds what each seat did in the round (``PLAY_COLUMNS``,
``lcanalysis.tournaments.play_counts``): expeditions opened, wager cards and cards played to
expeditions, cards discarded. A row holds all of them or none: rows written before hold none and
read, resume and summarise as before.

The deals played are not part of the identity: a file may be extended with more deals (or be
played in parts, say deals 0-499 and 500-999), as every line names its deal.

Guarantees (``ResultsFile``):

- a run whose identity differs from the file's is refused (``ResultsMismatchError``, naming
  every difference), and so is new work by changed code unless asked for;
- every line is checked against the identity before it counts (``Schema``): a torn or invalid
  line is reported (``ResultsWarning`` naming the line) and its job played again; a job
  recorded twice with different results is refused, twice the same is counted once;
- one writer per file (``flock`` on the file itself): a second run refuses
  (``ResultsLockedError``: "another tournament is writing F (pid N)") or, with ``wait=True``,
  waits and then reads what the first one wrote; each job is written once.

Files written before the header existed (the ``data/*.jsonl`` of the repository) are *legacy*:
they are read, and resumed, only with the tournament their sibling ``F.cmd`` names, the command
that wrote them, exactly; their lines are checked against that identity like any other. A legacy
file without a ``.cmd`` is refused: write to another file.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import math
import os
import re
import shlex
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path
from typing import Any

from lcanalysis.core.constants import CARDS_PER_COLOR, WAGER_COPIES
from lcanalysis.game.match import Match
from lcanalysis.game.position import round_score_range
from lcanalysis.game.rules import Rules
from lcanalysis.options import append_whole
from lcanalysis.tournaments.play_counts import PLAY_COLUMNS, seat_turns
from lcanalysis.tournaments.specs import PYTHON_SEAT, AgentSpec, TournamentError, deal_seed

FORMAT = 1
HEADER_KEY = "lcanalysis_tournament"
CODE_KEY = "lcanalysis_code"

RESULT_COLUMNS = ["pairing", "deal", "swap", "round", "seed", "colors", "player0", "player1", "starter",
                  "score0", "score1", "turns", "capped"]
TIMING_COLUMNS = ["ms_per_move0", "ms_per_move1", "max_ms0", "max_ms1", "cpu_ms_per_move0", "cpu_ms_per_move1",
                  "max_cpu_ms0", "max_cpu_ms1"]
#: the decimals of a millisecond ``tournament --csv`` writes the times with: 10 microseconds, below the
#: clock's noise between rounds (0.19 to 0.21 ms a move for greedy in one run), and two figures even for
#: the fastest agents, where 0.1 ms would leave one and move a mean of their rounds by up to a quarter
TIME_DECIMALS = 2
#: the luck of each seat's deck draws in the round, summed, from that seat's side
#: (``lcanalysis.tournaments.luck``): in every row of a luck-adjusted tournament, in no other
LUCK_COLUMNS = ["luck0", "luck1"]

#: the longest time per move a line may record, in ms (a day)
MAX_MS = 86_400_000.0

#: the source files whose hash is the code version of the agents: the agents, the engine they
#: play on, the opponent-hand model and the match equity table they play by (with their data),
#: and the round player, a bot author's seated class's included (relative to the package)
CODE_FILES = ("agents", "core", "game", "search", "rollouts.py", "evaluator.py", "analysis.py", "hand_model.py",
              "data/hand_model.json", "match_equity", "data/match_equity.json",
              "tournaments/runner.py", "tournaments/specs.py", "tournaments/luck.py", "tournaments/play_counts.py",
              "tournaments/python_seat.py")


class ResultsMismatchError(TournamentError):
    """The results file belongs to another tournament (or was played by other code)."""


class ResultsFileError(TournamentError):
    """The file cannot be read as a results file of this tournament."""


class ResultsLockedError(TournamentError):
    """Another run is writing the file."""


class ResultsWarning(UserWarning):
    """A line of a results file that does not count (torn, invalid or repeated); a run resumed on the
    file plays its job again."""


# --- identity ------------------------------------------------------------------------


@functools.cache
def code_version(sources: tuple[str, ...] | None = None) -> dict[str, str]:
    """The package version and a SHA-256 (first 16 hex digits) of ``sources`` (folders and files
    relative to the package, as ``CODE_FILES``, the default: the code behind a tournament's rows;
    or a file's absolute path, a benchmark's script; the studies' files name theirs,
    ``studies.study_file``)."""
    from lcanalysis import __version__

    root = Path(__file__).resolve().parent.parent
    files: list[Path] = []
    for name in CODE_FILES if sources is None else sources:
        p = (root / name).resolve()
        files.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p] if p.exists() else [])
    h = hashlib.sha256()
    for f in files:
        if "__pycache__" in f.parts:
            continue
        h.update(Path(os.path.relpath(f, root)).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return {"lcanalysis": __version__, "source_sha256": h.hexdigest()[:16]}


def external_code(specs: Sequence[AgentSpec]) -> dict[str, dict[str, str]]:
    """The code of each outside program seated (``external:CMD``), as far as its command names it,
    and of each bot author's class seated from its file (``python:FILE:CLASS``): a SHA-256 (first 16
    hex digits) of every word of the command that is a file here (``bot.py`` of ``python bot.py``, ``mine.py``
    of ``lcanalysis bot python:mine.py:Eager``),
    of a seat's ``FILE``, and of the modules beside a Python script or file that it imports
    (``local_imports``), so that a bot edited between two runs of a tournament is seen as changed
    code and its old results are not mixed with the new (``--allow-code-change`` to go on regardless).
    ``{}`` when neither plays: the files of such tournaments record what they did."""
    out: dict[str, str] = {}
    for spec in specs:
        given = dict(spec.options)
        cmd = given.get("cmd") if spec.name == "external" else [given.get("file")] if spec.name == "python" else None
        for word in cmd or ():
            seat = PYTHON_SEAT.fullmatch(str(word)[7:]) if str(word).startswith("python:") else None
            word = seat["file"] if seat else word  # 'external:lcanalysis bot python:mine.py:Eager': its file's
            path = Path(str(word))
            if path.is_file():
                out[f"{spec.label}: {word}"] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
                for module in local_imports(path):
                    out[f"{spec.label}: {module}"] = hashlib.sha256(module.read_bytes()).hexdigest()[:16]
    return {"external": dict(sorted(out.items()))} if out else {}


#: the most files ``local_imports`` follows from one script (a folder of thousands is not a bot's own)
MAX_LOCAL_IMPORTS = 200


def local_imports(script: Path) -> list[Path]:
    """The modules beside a Python script that it imports, and those they import, in turn: Python
    puts the script's folder first on the path, so ``from mine import Eager`` in ``bot.py`` is
    ``mine.py`` (or the package ``mine/``) there, and editing it changes the bot as much as editing
    ``bot.py``. Only ``.py`` scripts are read; one that is not Python text imports nothing here."""
    if script.suffix != ".py":
        return []
    folder, seen, todo = script.parent, {script.resolve()}, [script]
    found: list[Path] = []
    while todo and len(found) < MAX_LOCAL_IMPORTS:
        try:
            tree = ast.parse(todo.pop().read_bytes())
        except (SyntaxError, ValueError, OSError):
            continue
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level]
        for top in sorted({name.split(".")[0] for name in names}):
            package = folder / top
            files = [folder / f"{top}.py"] + (sorted(package.rglob("*.py")) if (package / "__init__.py").is_file()
                                              else [])
            for f in files:
                if f.is_file() and f.resolve() not in seen and "__pycache__" not in f.parts:
                    seen.add(f.resolve())
                    found.append(f)
                    todo.append(f)
    return sorted(found[:MAX_LOCAL_IMPORTS])


def tournament_identity(specs: Sequence[AgentSpec], rules: Rules, seed: int, duplicate: bool,
                        round_robin: bool, code: dict[str, Any] | None = None,
                        luck_adjusted: bool = False) -> dict[str, Any]:
    """What a results file records of its tournament (JSON values only). Two agents play the
    same games with or without ``round_robin``, so it counts only with three or more.
    ``"luck_adjusted": true`` is there only for a tournament whose rows hold the luck of the
    draws (``LUCK_COLUMNS``); a file without it (every file written before it existed) has none."""
    if code is None:  # this package's code, and any outside program's files
        code = {**code_version(), **external_code(specs)}
    ident = {"agents": [s.to_identity() for s in specs], "rules": rules.to_dict(full=True), "seed": int(seed),
             "duplicate": bool(duplicate), "round_robin": bool(round_robin) and len(specs) > 2, "code": code}
    if luck_adjusted:
        ident["luck_adjusted"] = True
    return json.loads(json.dumps(ident))


_WHAT = {"seed": "seed (--seed)", "duplicate": "duplicate deals (--no-duplicate)", "round_robin": "round robin",
         "rules.colors": "colours (--colors)", "rules.rounds": "rounds per deal (--rounds)",
         "rules.turn_cap": "turn cap (--turn-cap)", "rules.hand_size": "hand size", "rules.no_redraw": "no redraw",
         "rules.tied_start": "tied start", "luck_adjusted": "luck of the draws (--luck-adjusted)"}


def identity_differences(recorded: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """Every way ``wanted`` differs from ``recorded``, in words (the code version left out)."""
    out: list[str] = []
    fa, ra = recorded.get("agents") or [], wanted.get("agents") or []
    fl = [a.get("label") for a in fa if isinstance(a, dict)]
    rl = [a.get("label") for a in ra if isinstance(a, dict)]
    if fl != rl:
        out.append(f"agents: {', '.join(map(str, fl))} in the file, {', '.join(map(str, rl))} in this run")
    else:
        for x, y in zip(fa, ra):
            x, y = _played(x), _played(y)
            for k in sorted(set(x) | set(y)):
                if x.get(k) != y.get(k):
                    out.append(f"agent {y.get('label')!r} {k}: {x.get(k)!r} in the file, {y.get(k)!r} in this run")
    flat_f, flat_r = _flatten(recorded), _flatten(wanted)
    # a rule this version knows and the file's does not: the file was played with its default;
    # a file without luck_adjusted holds no luck
    defaults = {f"rules.{k}": v for k, v in Rules().to_dict(full=True).items()}
    defaults["luck_adjusted"] = False
    for k in sorted(set(flat_f) | set(flat_r)):
        if k.startswith(("agents", "code")):
            continue
        a, b = flat_f.get(k, defaults.get(k, "(not recorded)")), flat_r.get(k, defaults.get(k, "(not recorded)"))
        if a != b or (type(a) is bool) != (type(b) is bool):
            out.append(f"{_WHAT.get(k, k)}: {a!r} in the file, {b!r} in this run")
    return out


def _played(agent: Any) -> Any:
    """An agent's identity without what does not change its play: an outside program's
    ``timeout`` (``--bot-timeout``), so that a run with another limit resumes the same file."""
    if not isinstance(agent, dict) or not isinstance(agent.get("options"), dict):
        return agent
    return {**agent, "options": {k: v for k, v in agent["options"].items() if k != "timeout"}}


def _flatten(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = prefix + str(k)
        if isinstance(v, dict) and k != "code":
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


def describe_code(code: dict[str, Any] | None) -> str:
    if not code:
        return "unrecorded code"
    outside = code.get("external")
    files = (" with " + ", ".join(f"{name} ({sha})" for name, sha in outside.items())
             if isinstance(outside, dict) and outside else "")
    return f"lcanalysis {code.get('lcanalysis')} (source {code.get('source_sha256')}){files}"


# --- the schema of a line ---------------------------------------------------------


class _Invalid(Exception):
    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


_KEY = re.compile(r"(0|[1-9][0-9]*):(0|[1-9][0-9]*):([01])")
_JOB_PREFIX = re.compile(rb'\{"job": "([0-9]+:[0-9]+:[01])"')


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Schema:
    """Checks a job line (``{"job": KEY, "rows": [...]}``) against a tournament identity: the
    job key names a pairing and seating of this tournament, there is one row per round, and
    every field has its type and range: the row's pairing, deal, seat swap and round are the
    job's, its seed is the deal's (``deal_seed``), colours those of the rules, the players the
    pairing's labels in the seating's order, the starter that of the match rules, each score
    within what the colours allow, the turns within the cap (exactly the cap when capped, at
    least the draw pile otherwise), times finite and not negative, and the play counts
    (``PLAY_COLUMNS``) all there or none, whole numbers within what the colours allow, a seat's cards
    placed and discarded adding up to its turns. In a luck-adjusted
    tournament every row holds ``luck0`` and ``luck1``, finite numbers within what the values
    allow (``luck_bound``); in any other, no row does."""

    def __init__(self, identity: dict[str, Any]) -> None:
        try:
            self.rules = Rules.from_dict(identity["rules"])
            agents = identity["agents"]
            self.labels = [str(a["label"]) for a in agents]
            self.seed = identity["seed"]
            duplicate = identity["duplicate"]
            robin = identity["round_robin"]
            self.luck = identity.get("luck_adjusted", False)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ResultsFileError(f"the tournament identity is incomplete or malformed ({exc})") from None
        if not _is_int(self.seed) or self.seed < 0 or len(self.labels) < 2:
            raise ResultsFileError("the tournament identity is malformed (seed or agents)")
        if not isinstance(self.luck, bool):
            raise ResultsFileError(f"the tournament identity is malformed (luck_adjusted is {self.luck!r})")
        pairs = list(combinations(range(len(self.labels)), 2)) if robin else [(0, 1)]
        self.pairs = [(self.labels[i], self.labels[j]) for i, j in pairs]
        self.swaps = (0, 1) if duplicate else (0,)
        self.scores = round_score_range(self.rules)
        self.luck_bound = luck_bound(self.rules)

    def record(self, rec: Any) -> tuple[str, list[dict[str, Any]]]:
        """``(key, rows)`` of a valid job line; raises ``_Invalid`` saying what is wrong."""
        if not isinstance(rec, dict):
            raise _Invalid(f"a {type(rec).__name__}, not a job record")
        key = rec.get("job")
        if set(rec) != {"job", "rows"}:
            raise _Invalid(f"keys {sorted(rec)}, expected ['job', 'rows']", key if isinstance(key, str) else None)
        if not isinstance(key, str) or not (m := _KEY.fullmatch(key)):
            raise _Invalid(f"job {key!r} is not PAIRING:DEAL:SWAP")
        pairing, deal, swap = (int(g) for g in m.groups())
        if pairing >= len(self.pairs):
            raise _Invalid(f"job {key}: pairing {pairing} is not one of this tournament's {len(self.pairs)}", key)
        if swap not in self.swaps:
            raise _Invalid(f"job {key}: seating {swap} in a tournament without duplicate deals", key)
        rows = rec["rows"]
        if not isinstance(rows, list) or len(rows) != self.rules.rounds:
            n = str(len(rows)) if isinstance(rows, list) else f"a {type(rows).__name__} of"
            raise _Invalid(f"job {key}: {n} rows, expected {self.rules.rounds} (one per round)", key)
        a, b = self.pairs[pairing]
        players = (a, b) if swap == 0 else (b, a)
        match = Match(rules=self.rules, first_starter=0)
        for r, row in enumerate(rows, start=1):
            try:
                self._row(row, pairing, deal, swap, r, players, match.next_starter())
            except _Invalid as exc:
                raise _Invalid(f"job {key}: row {r}: {exc}", key) from None
            match.record((row["score0"], row["score1"]), row["starter"])
        return key, rows

    def _row(self, row: Any, pairing: int, deal: int, swap: int, r: int, players: tuple[str, str],
             starter: int) -> None:
        if not isinstance(row, dict):
            raise _Invalid(f"a {type(row).__name__}, not a row")
        missing = [c for c in RESULT_COLUMNS if c not in row]
        if missing:
            raise _Invalid(f"missing {', '.join(missing)}")
        if self.luck:
            missing = [c for c in LUCK_COLUMNS if c not in row]
            if missing:
                raise _Invalid(f"missing {', '.join(missing)} (a luck-adjusted tournament)")
        counted = [c for c in PLAY_COLUMNS if c in row]
        if counted and len(counted) < len(PLAY_COLUMNS):
            raise _Invalid(f"missing {', '.join(c for c in PLAY_COLUMNS if c not in row)} (the play counts are "
                           "all there or none)")
        extra = sorted(set(row) - set(RESULT_COLUMNS) - set(TIMING_COLUMNS) - set(PLAY_COLUMNS)
                       - set(LUCK_COLUMNS if self.luck else ()))
        if extra:
            what = " (luck in a tournament without --luck-adjusted)" if set(extra) & set(LUCK_COLUMNS) else ""
            raise _Invalid(f"unknown field(s) {', '.join(map(str, extra))}{what}")
        rules = self.rules
        expect = {"pairing": pairing, "deal": deal, "swap": swap, "round": r, "colors": rules.colors,
                  "seed": deal_seed(self.seed, deal, r), "starter": starter}
        for k, v in expect.items():
            if not _is_int(row[k]) or row[k] != v:
                raise _Invalid(f"{k} is {row[k]!r}, expected {v}")
        for k, label in zip(("player0", "player1"), players):
            if row[k] != label:
                raise _Invalid(f"{k} is {row[k]!r}, expected {label!r}")
        lo, hi = self.scores
        for k in ("score0", "score1"):
            if not _is_int(row[k]) or not lo <= row[k] <= hi:
                raise _Invalid(f"{k} is {row[k]!r}, expected a whole number {lo}..{hi}")
        capped, turns = row["capped"], row["turns"]
        if not isinstance(capped, bool):
            raise _Invalid(f"capped is {capped!r}, expected true or false")
        low = rules.turn_cap if capped else min(rules.draw_pile_after_deal, rules.turn_cap)
        if not _is_int(turns) or not low <= turns <= rules.turn_cap:
            raise _Invalid(f"turns is {turns!r}, expected a whole number {low}..{rules.turn_cap}"
                           + (" (capped)" if capped else ""))
        for k in TIMING_COLUMNS:
            if k in row:
                v = row[k]
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not (
                        math.isfinite(v) and 0 <= v <= MAX_MS):
                    raise _Invalid(f"{k} is {v!r}, expected a time in ms, 0..{MAX_MS:.0f}")
        if counted:
            self._counts(row, turns)
        if self.luck:
            bound = self.luck_bound
            for k in LUCK_COLUMNS:
                v = row[k]
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not (
                        math.isfinite(v) and -bound <= v <= bound):
                    raise _Invalid(f"{k} is {v!r}, expected a number of points, {-bound}..{bound}")


    def _counts(self, row: dict[str, Any], turns: int) -> None:
        """A row's play counts: whole numbers each seat's expeditions can hold, placed and discarded
        adding up to the seat's turns (each turn places one card)."""
        colors = self.rules.colors
        most = {"opened": colors, "wagers": WAGER_COPIES * colors, "placed": CARDS_PER_COLOR * colors}
        for seat in (0, 1):
            took = seat_turns(turns, row["starter"], seat)
            for name, high in (*most.items(), ("discarded", took)):
                v = row[f"{name}{seat}"]
                if not _is_int(v) or not 0 <= v <= high:
                    raise _Invalid(f"{name}{seat} is {v!r}, expected a whole number 0..{high}")
            if row[f"placed{seat}"] + row[f"discarded{seat}"] != took:
                raise _Invalid(f"placed{seat} + discarded{seat} is {row[f'placed{seat}'] + row[f'discarded{seat}']}, "
                               f"expected seat {seat}'s {took} turns (each turn places one card)")
            if not row[f"wagers{seat}"] <= row[f"placed{seat}"] or not row[f"opened{seat}"] <= row[f"placed{seat}"]:
                raise _Invalid(f"seat {seat}: more wagers ({row[f'wagers{seat}']}) or expeditions opened "
                               f"({row[f'opened{seat}']}) than cards placed ({row[f'placed{seat}']})")


def luck_bound(rules: Rules) -> int:
    """The most a seat's luck in a round can be, either way: each draw's luck is a difference of
    two values of the drawer, each within the score range of the colours, and a seat draws at
    most the whole pile."""
    lo, hi = round_score_range(rules)
    return 2 * (hi - lo) * rules.draw_pile_after_deal


def _results_part(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(r.get(c) for c in RESULT_COLUMNS + LUCK_COLUMNS + PLAY_COLUMNS) for r in rows]


# --- legacy files (no header) -----------------------------------------------------

#: shell words that end the command in a .cmd file (what follows is a redirection or another command)
_SHELL_ENDS = re.compile(r"^(\d*>.*|<.*|\|.*|&&|;|&|\|\|)$")


def refuse_if_not_json_lines(path: str, first: bytes) -> None:
    """Refuse (``ResultsFileError``) a file whose first line is not a JSON object: no results file,
    headed or legacy, starts so. A CSV (the table ``--csv`` writes) was answered as a results file
    from before headers, told to put a tournament command in a ``.cmd`` beside it."""
    if first.lstrip().startswith(b"{"):
        return
    csv = (" (a CSV such as the one --csv writes? the results are the JSON-lines file the tournament "
           "wrote with --out)") if path.lower().endswith(".csv") or b"," in first else ""
    raise ResultsFileError(f"{path} is not a tournament results file: its first line is not a JSON object{csv}")


def legacy_identity(path: str) -> dict[str, Any]:
    """The identity of a results file without a header, from the command in ``path + ".cmd"``
    (``lcanalysis tournament ...``, as the repository's data/ files record them; code unknown)."""
    from lcanalysis.tournaments.command import build_parser, settings

    cmd_path = path + ".cmd"
    hint = (f"write this tournament to another file (--out OTHER.jsonl, or out= in Python); or, if you know "
            f"the command that wrote {path}, put it in {cmd_path}: 'lcanalysis tournament ...'")
    if not os.path.isfile(cmd_path):
        raise ResultsFileError(f"{path} has no header line (it was written before results files named their "
                               f"tournament) and no {cmd_path} names the command that wrote it, so it cannot be "
                               f"checked against this tournament; {hint}")
    with open(cmd_path, encoding="utf-8") as fh:
        text = next((line for line in fh if line.strip() and not line.lstrip().startswith("#")), "")
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ResultsFileError(f"{cmd_path}: cannot read the command ({exc}); {hint}") from None
    try:
        start = words.index("tournament") + 1
    except ValueError:
        raise ResultsFileError(f"{cmd_path} does not hold an 'lcanalysis tournament' command; {hint}") from None
    argv = []
    for w in words[start:]:
        if _SHELL_ENDS.match(w):
            break
        argv.append(w)
    try:
        ns = build_parser().parse_args(argv)
        specs, rules, seed, duplicate, robin = settings(ns)
    except (TournamentError, ValueError) as exc:
        raise ResultsFileError(f"{cmd_path}: the command cannot be read ({exc}); {hint}") from None
    except SystemExit:  # '--help' in the file
        raise ResultsFileError(f"{cmd_path}: the command cannot be read; {hint}") from None
    if ns.out not in ("auto", "none") and os.path.basename(ns.out) != os.path.basename(path):
        raise ResultsFileError(f"{cmd_path} names another results file ({ns.out}); {hint}")
    return tournament_identity(specs, rules, seed, duplicate, robin, code={},
                               luck_adjusted=bool(getattr(ns, "luck_adjusted", False)))


# --- the lock ---------------------------------------------------------------------


def _lock_holder(fd: int) -> int | None:
    """The process holding a flock on ``fd``'s file, from /proc/locks (Linux), or None."""
    try:
        st = os.fstat(fd)
        with open("/proc/locks", encoding="ascii") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if "->" in parts or len(parts) < 6 or parts[1] != "FLOCK":
            continue
        try:
            major, minor, inode = parts[5].split(":")
            if int(inode) == st.st_ino and (int(major, 16), int(minor, 16)) == (os.major(st.st_dev),
                                                                                 os.minor(st.st_dev)):
                return int(parts[4])
        except ValueError:
            continue
    return None


def _lock(fh: Any, path: str, wait: bool, log: Callable[[str], None] | None) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system: no lock
        import warnings

        warnings.warn(f"{path}: this system has no flock; nothing stops two runs writing it at once",
                      ResultsWarning, stacklevel=3)
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pid = _lock_holder(fh.fileno())
    who = f" (pid {pid})" if pid else ""
    if not wait:
        raise ResultsLockedError(f"another tournament is writing {path}{who}; wait for it to finish (or run "
                                 "with --wait, wait=True in Python, to start when it has), or write to another "
                                 "file with --out")
    if log:
        log(f"waiting: another tournament is writing {path}{who}")
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX)


# --- the file -----------------------------------------------------------------------


class ResultsFile:
    """A results file opened for one run: locked, its identity checked, its lines read and
    checked (``done``: job key -> rows; ``problems``: what did not count, by line).

        >>> rf = ResultsFile(path, identity).open()      # doctest: +SKIP
        >>> rf.check_code(allow_change=False, will_write=True)  # doctest: +SKIP
        >>> rf.append(key, rows); rf.close()                  # doctest: +SKIP
    """

    def __init__(self, path: str, identity: dict[str, Any], *, wait: bool = False,
                 log: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.identity = identity
        self.schema = Schema(identity)
        self.wait = wait
        self.log = log
        self.done: dict[str, list[dict[str, Any]]] = {}
        self.problems: list[str] = []
        self.legacy = False
        self.file_code: dict[str, Any] | None = None
        self._fh: Any = None
        self._needs_newline = False
        self._marker: dict[str, Any] | None = None
        self._written: set[str] = set()

    def open(self) -> ResultsFile:
        path = self.path
        if os.path.isdir(path):
            example = os.path.join(path, "results.jsonl")
            raise ResultsFileError(f"{path} is a directory; give a file name, e.g. {example}")
        if os.path.exists(path) and not os.path.isfile(path):
            raise ResultsFileError(f"{path} is not a regular file; give a results file name, or 'none' to keep "
                                   "nothing")
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            fh = open(path, "a+b")  # noqa: SIM115 - closed by close()
        except OSError as exc:
            raise TournamentError(f"cannot write the results file {path}: {exc.strerror or exc}") from None
        self._fh = fh
        try:
            _lock(fh, path, self.wait, self.log)
            fh.seek(0)
            data = fh.read()
            self._read(data)
        except BaseException:
            self.close()
            raise
        return self

    def _write_header(self) -> None:
        fh = self._fh
        fh.seek(0)
        fh.truncate()
        header = {HEADER_KEY: FORMAT, "identity": self.identity,
                  "created": datetime.now(UTC).isoformat(timespec="seconds")}
        append_whole(fh.fileno(), (json.dumps(header) + "\n").encode(), f"the results file {self.path}",
                     "nothing had been played into it: make room (or mend the fault) and run the command again")
        self.file_code = self.identity["code"]

    def _split(self, data: bytes) -> list[bytes]:
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        self._needs_newline = bool(data) and not data.endswith(b"\n")
        return lines

    def _read(self, data: bytes) -> None:
        lines = self._split(data)
        if not any(line.strip() for line in lines):
            self._write_header()  # a new (or empty) file
            return
        first = lines[0]
        try:
            head = json.loads(first)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or a number over 4,300 digits
            head = None
        if isinstance(head, dict) and HEADER_KEY in head:
            self._check_header(head)
        elif head is None and first.startswith(b'{"' + HEADER_KEY.encode()) and len(lines) == 1:
            self._write_header()  # a header cut short as it was written: nothing else was
            return
        else:
            if first.strip():  # (a blank first line: read as a legacy file, as before)
                refuse_if_not_json_lines(self.path, first)
            self.legacy = True
            recorded = legacy_identity(self.path)
            diffs = identity_differences(recorded, self.identity)
            if diffs:
                raise ResultsMismatchError(
                    f"{self.path} (no header; its tournament is the command in {self.path}.cmd) was written by "
                    f"another tournament: {'; '.join(diffs)}. Write this one to another file (--out OTHER.jsonl)")
            self.file_code = None
            self._lines(lines, start=0)
            return
        self._lines(lines, start=1)

    def _check_header(self, head: dict[str, Any]) -> None:
        if head.get(HEADER_KEY) != FORMAT or not isinstance(head.get("identity"), dict):
            raise ResultsFileError(f"{self.path}: a results file of format {head.get(HEADER_KEY)!r}, which this "
                                   f"lcanalysis (format {FORMAT}) cannot read; write to another file")
        recorded = head["identity"]
        diffs = identity_differences(recorded, self.identity)
        if diffs:
            raise ResultsMismatchError(f"{self.path} holds another tournament's results: {'; '.join(diffs)}. "
                                       "Write this one to another file (--out OTHER.jsonl), or run it with the "
                                       "file's settings to resume it")
        code = recorded.get("code")
        self.file_code = code if isinstance(code, dict) else None

    def _lines(self, lines: list[bytes], start: int) -> None:
        where: dict[str, int] = {}
        bad: list[tuple[int, str | None, str]] = []  # line, job key if known, what is wrong
        again: list[tuple[int, str]] = []
        last = len(lines) - 1
        for i in range(start, len(lines)):
            raw = lines[i]
            n = i + 1
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except (ValueError, RecursionError):  # not JSON, not UTF-8, or a number over 4,300 digits
                m = _JOB_PREFIX.match(raw)
                torn = i == last and self._needs_newline
                bad.append((n, m.group(1).decode() if m else None,
                            "cut short (the run was stopped as it wrote)" if torn else "not valid JSON"))
                continue
            if isinstance(rec, dict) and CODE_KEY in rec and len(rec) == 1 and isinstance(rec[CODE_KEY], dict):
                self.file_code = rec[CODE_KEY]
                continue
            try:
                key, rows = self.schema.record(rec)
            except _Invalid as exc:
                bad.append((n, exc.key, f"not a valid result ({exc})"))
                continue
            if key in self.done:
                if _results_part(self.done[key]) != _results_part(rows):
                    raise ResultsFileError(
                        f"{self.path}: job {key} is recorded twice with different results (lines {where[key]} "
                        f"and {n}); the file cannot be trusted as it is: remove the wrong line, or write to "
                        "another file")
                again.append((n, f"{self.path} line {n}: job {key} again (first on line {where[key]}); counted once"))
                continue
            self.done[key] = rows
            where[key] = n
        for n, bad_key, what in bad:
            if bad_key is None:
                then = "not counted; whatever job it held is missing (a run resumed on this file plays it)"
            elif bad_key in where:
                then = f"not counted; job {bad_key} is on line {where[bad_key]}"
            else:
                then = f"not counted; job {bad_key} is missing (a run resumed on this file plays it again)"
            again.append((n, f"{self.path} line {n}: {what}; {then}"))
        self.problems.extend(message for _, message in sorted(again))

    def check_code(self, allow_change: bool, will_write: bool) -> None:
        """Refuse to add results played by other code than the file's, unless ``allow_change``
        (the new code is then recorded in a line before its first result). A legacy file's code
        is unknown: the code of what is added is recorded."""
        mine = self.identity["code"]
        if self.file_code == mine or not will_write:
            return
        if self.file_code is not None and not allow_change:
            raise ResultsMismatchError(
                f"{self.path} was played by {describe_code(self.file_code)}, and this is {describe_code(mine)}: the "
                "agents or the engine changed, so new results would mix two versions. Write to another file "
                "(--out OTHER.jsonl), or go on in this one with --allow-code-change (allow_code_change=True; "
                "the change is recorded in the file)")
        self._marker = {CODE_KEY: mine}

    def older_code(self) -> str:
        """When the file's rounds were played by other code than this run's and nothing is added (a finished
        file is read whatever the code), what played them, to follow the count of rounds already played: a bot
        author who edited ``mine.py`` and runs the same command again reads the summary of the old one;
        "" otherwise."""
        mine = self.identity["code"]
        if self.file_code is None or self.file_code == mine:
            return ""
        return (f"; they were played by {describe_code(self.file_code)}, and this is {describe_code(mine)}: "
                "the summary is of those rounds (more deals would need --allow-code-change, or another --out)")

    def append(self, key: str, rows: list[dict[str, Any]]) -> None:
        """Write one finished job: once, whole, flushed."""
        if key in self._written or key in self.done:
            raise TournamentError(f"job {key} would be written twice to {self.path}")  # a bug, never the user's
        out = b"\n" if self._needs_newline else b""  # after a line cut short: start a fresh one
        if self._marker is not None:
            out += (json.dumps(self._marker) + "\n").encode()
        out += (json.dumps({"job": key, "rows": rows}) + "\n").encode()
        kept = len(self.done) + len(self._written)
        append_whole(self._fh.fileno(), out, f"the results file {self.path}",
                     f"the {kept} deal-seating(s) finished before are kept in it: make room (or mend the fault) "
                     "and run the same command again to resume", sync=False)
        self._needs_newline = False
        if self._marker is not None:
            self.file_code = self._marker[CODE_KEY]
            self._marker = None
        self._written.add(key)

    def fileno(self) -> int:
        return int(self._fh.fileno())

    def close(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()  # releases the lock
            finally:
                self._fh = None


def read_identity(path: str) -> dict[str, Any]:
    """The identity a results file records (its header, or for a legacy file its ``.cmd``)."""
    with open(path, "rb") as fh:
        first = fh.readline()
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or a number over 4,300 digits
        head = None
    if isinstance(head, dict) and HEADER_KEY in head:
        if head.get(HEADER_KEY) != FORMAT or not isinstance(head.get("identity"), dict):
            raise ResultsFileError(f"{path}: a results file of format {head.get(HEADER_KEY)!r}, which this "
                                   f"lcanalysis (format {FORMAT}) cannot read")
        return dict(head["identity"])
    if first.strip():  # (an empty file is read as no rounds, as before)
        refuse_if_not_json_lines(path, first)
    return legacy_identity(path)


def read_results(path: str) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]], list[str]]:
    """``(identity, done, problems)`` of a results file, read as it is (no lock, nothing written):
    the tournament it records, its valid jobs (key -> rows), and the lines that do not count."""
    identity = read_identity(path)
    rf = ResultsFile(path, identity)
    with open(path, "rb") as fh:
        lines = rf._split(fh.read())
    header = bool(lines) and lines[0].startswith(b'{"' + HEADER_KEY.encode())
    rf._lines(lines, start=1 if header else 0)
    return identity, rf.done, rf.problems


def default_results_dir() -> str:
    """Where the command line keeps results files: ``$XDG_DATA_HOME/lcanalysis/tournaments``
    (``~/.local/share/lcanalysis/tournaments`` when XDG_DATA_HOME is unset or not absolute)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "lcanalysis", "tournaments")

