"""``lcanalysis tournament AGENT AGENT [AGENT...] --deals N ...``: duplicate-deal tournaments.

Results go to a JSON-lines file that names its tournament and that the same command resumes:
by default one named after the agents and settings in the user data folder
(``$XDG_DATA_HOME/lcanalysis/tournaments``, else ``~/.local/share/lcanalysis/tournaments``),
said on standard error; ``--out F`` as given; ``--out none`` keeps nothing. ``--luck-adjusted``
also rates the luck of every deck draw and prints the luck-adjusted mean score difference beside
the raw one; ``--records DIR`` writes every played deal-seating as a game record for
``lcanalysis review``. Bad input (an
option, an agent, a results file of another tournament, a file another run is writing) is
one ``error`` line on standard error and exit status 2, a bad option's, agent's (two of one label
too) or output file's naming the command (``lcanalysis tournament: error: ... (see lcanalysis
tournament --help)``), each refused before the engine compiles or any round is played; lines of the
file that do not count are ``warning: ...``.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from lcanalysis.cli.common import emit
from lcanalysis.options import OptionError, check_output_file, check_output_folder, error_line, same_file
from lcanalysis.tournaments.command import UsageError, build_parser, settings
from lcanalysis.tournaments.specs import parse_agent

_parse_agent = parse_agent  # the name earlier versions had

#: what the summary's brackets (*_low, *_high) are, in the text and in --json
INTERVALS = ("95% intervals: win rates Wilson's over rounds, draws half, as if every round were independent (the "
             "two seatings of a duplicate deal are not: --json adds win_unit_low, win_unit_high, a t interval over "
             "deals); mean score differences Student's t over deals, the seatings and rounds of a deal one sample")


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def tournament_main(argv: Sequence[str] | None = None, prepare: Callable[[], None] | None = None) -> int:
    """``lcanalysis tournament AGENT AGENT [AGENT...] --deals N [--colors 6] [--rounds 3] ...``;
    ``prepare``: what readies the engine (``main``'s compile), called once the agents' names and
    options are known to be good, so that a mistyped one is refused at once, not after a compile."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        # the agents, checked once the options are read (an outside program's takes --bot-timeout), are
        # refused as a bad option is: one line naming the command; made (the engine loaded) after prepare
        settings(args, make=False)
        if prepare is not None:
            prepare()
        chosen = settings(args)
    except (UsageError, OptionError) as exc:
        _say(error_line(parser.prog, str(exc)))
        return 2
    except (ValueError, OSError) as exc:  # any other refusal: a line, not a traceback
        _say(f"error: {exc}")
        return 2
    from lcanalysis.tournaments.results import (  # (the game with it) after the parse: --help is at once
        ResultsFileError,
        ResultsLockedError,
        ResultsMismatchError,
        ResultsWarning,
    )

    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        warnings.simplefilter("always", ResultsWarning)
        try:
            return _run(args, chosen)
        except BrokenPipeError:  # output piped into `head`: not an error of the tournament ('main' ends quietly)
            raise
        except OptionError as exc:  # a file an option names, refused before the run: as a bad option is
            _say(error_line(parser.prog, str(exc)))
            return 2
        except (ResultsMismatchError, ResultsFileError, ResultsLockedError) as exc:  # --out's file, before the run
            _say(error_line(parser.prog, f"argument --out: {exc}"))
            return 2
        except (ValueError, OSError) as exc:  # TournamentError, RulesError, AgentError are ValueErrors
            _say(f"error: {exc}")
            return 2


def _show_warning(message: Any, category: Any, filename: str, lineno: int, file: Any = None,
                  line: Any = None) -> None:
    _say(f"warning: {message}")


def _print_play(rec: Any) -> None:
    """What each agent did a round (``runner.play_summary``), each mean with its standard error over deals."""
    from lcanalysis.tournaments.play_counts import PLAY_COUNTS, PLAY_WORDS

    def pm(se: float) -> str:
        return f" ± {se:.2f}" if math.isfinite(se) else ""

    one = "" if rec.units > 1 else " (no error from one deal)"
    print(f"  play a round, mean ± one standard error over deals (a deal's seatings one sample; the difference "
          f"paired by deal){one}:")
    for name in PLAY_COUNTS:
        mine, theirs = getattr(rec, name), getattr(rec, f"opponent_{name}")
        print(f"    {PLAY_WORDS[name]}: {rec.agent} {mine:.2f}{pm(getattr(rec, f'{name}_stderr'))}, {rec.opponent} "
              f"{theirs:.2f}{pm(getattr(rec, f'opponent_{name}_stderr'))}, difference {mine - theirs:+.2f}"
              f"{pm(getattr(rec, f'{name}_diff_stderr'))}")


def _measured(chosen: tuple[Any, ...], args: Any) -> dict[str, Any]:
    """What the numbers of ``--json`` measured, as a results file's header names it (agents and their
    options, rules, seed, duplicate and round-robin settings, the code that played: this package's
    version and source hash, an outside program's files), and the deals: enough to play it again,
    where the summary alone named neither the seed nor the code."""
    from lcanalysis.tournaments.results import tournament_identity

    specs, rules, seed, duplicate, robin = chosen
    identity = tournament_identity(specs, rules, seed, duplicate, robin, luck_adjusted=args.luck_adjusted)
    return {**identity, "first_deal": args.first_deal, "deals": args.deals}


def _run(args: Any, chosen: tuple[Any, ...]) -> int:
    from lcanalysis.tournaments.results import TIME_DECIMALS, TIMING_COLUMNS
    from lcanalysis.tournaments.runner import (
        EDGE,
        auto_path,
        rating_errors,
        ratings,
        run_tournament,
        summarize,
        time_per_move,
    )

    specs, rules, seed, duplicate, robin = chosen
    out: str | None
    if args.out == "none":
        out = None
    elif args.out == "auto":
        out = auto_path(specs, rules, seed, args.first_deal, args.deals, duplicate, robin,
                        luck_adjusted=args.luck_adjusted)
    else:  # (the default's folder, the program's choice, is made; a folder given must exist)
        out = args.out
        if not os.path.lexists(out):  # (one there is resumed: ResultsFile.open says what else it may be)
            check_output_file("--out", out)
    if args.records:
        if out is not None and same_file(args.records, out):  # (else made a folder, then "is a directory")
            raise OptionError(f"argument --records: {args.records} is the results file (--out): give the records "
                              "another folder")
        check_output_folder("--records", args.records)
    if args.csv:  # before the (possibly long) run, not after it; over its own table only, never another file
        check_output_file("--csv", args.csv, {"the results file (--out)": out},
                          replaces=("a tournament's table (CSV)", ("pairing,",)))
    df = run_tournament(specs, args.deals, rules=rules, duplicate=duplicate, round_robin=robin, seed=seed,
                        workers=args.workers, executor="serial" if args.workers == 1 else None, out=out,
                        progress=not args.no_progress, first_deal=args.first_deal, wait=args.wait,
                        allow_code_change=args.allow_code_change,
                        log=_say if out is not None or args.records else None, luck_adjusted=args.luck_adjusted,
                        records=args.records)
    if args.csv:  # the times to 10 microseconds (their digits beyond are noise: 0.10000000000000002 ms)
        timed = [c for c in TIMING_COLUMNS if c in df]
        df.assign(**{c: df[c].round(TIME_DECIMALS) for c in timed}).to_csv(args.csv, index=False)
    summary = summarize(df)
    if args.json:
        result: dict[str, Any] = {"summary": summary.to_dict(orient="records"), "intervals": INTERVALS,
                                  "tournament": _measured(chosen, args)}
        if len(specs) > 2:
            result["ratings"] = ratings(df).to_dict()
            result["rating_stderr"] = rating_errors(df).to_dict()
        emit(result)
        return 0
    for rec in summary.itertuples():
        # the standard error beside the interval, for "± s.e." (diff_sd in --json is a round's spread, not it)
        spread = (f"[{rec.diff_low:+.2f}, {rec.diff_high:+.2f}] (s.e. {rec.diff_stderr:.2f})" if rec.units > 1
                  else "(no interval from one deal)")  # a t interval needs two samples
        print(f"{rec.agent} vs {rec.opponent}: {rec.rounds} rounds ({rec.units} deal{'s' if rec.units != 1 else ''}), "
              f"win rate {rec.win_rate:.3f} [{rec.win_low:.3f}, {rec.win_high:.3f}], "
              f"mean score difference {rec.mean_diff:+.2f} {spread}, "
              f"capped rounds {rec.capped}, mean turns {rec.mean_turns:.1f}")
        if rules.rounds > 1:  # a match tournament asks who wins the matches, not only the rounds
            # the footer's intervals are of rounds: these say their own (a deal's matches one sample, or Wilson's)
            deals = (f"95% interval over deals [{rec.match_win_unit_low:.3f}, {rec.match_win_unit_high:.3f}]"
                     if math.isfinite(rec.match_win_unit_low) else "no interval over deals from one deal")
            print(f"  matches: {rec.matches} ({rules.rounds} rounds each), won {rec.match_wins}, drawn "
                  f"{rec.match_draws}, lost {rec.match_losses}: match win rate {rec.match_win_rate:.3f} (draws half), "
                  f"{deals} (Wilson's over matches [{rec.match_win_low:.3f}, {rec.match_win_high:.3f}], as if every "
                  "match were independent)")
        if getattr(rec, "adj_mean", None) is not None and rec.adj_mean == rec.adj_mean:
            adj_spread = (f"[{rec.adj_low:+.2f}, {rec.adj_high:+.2f}] (s.e. {rec.adj_stderr:.2f})" if rec.units > 1
                          else "(no interval from one deal)")
            if rec.units < 3:  # a variance ratio and its bootstrap need three deals at least
                plan = "variance ratio raw/adjusted: not estimated from fewer than 3 deals"
            elif not all(map(math.isfinite, (rec.var_ratio, rec.var_ratio_low, rec.var_ratio_high))):
                plan = "variance ratio raw/adjusted: not estimated (the luck-adjusted differences do not vary)"
            else:
                plan = (f"variance ratio raw/adjusted over deals {rec.var_ratio:.2f} [{rec.var_ratio_low:.2f}, "
                        f"{rec.var_ratio_high:.2f}]: to detect a {EDGE:g}-point edge (5% level, 80% power) about "
                        f"{rec.adj_deals_needed:,.0f} deals luck-adjusted, {rec.deals_needed:,.0f} plain")
            print(f"  luck-adjusted mean score difference {rec.adj_mean:+.2f} {adj_spread} (the raw one less the "
                  f"luck of the deck draws); {plan}")
        if getattr(rec, "play_counted", None) is True:
            _print_play(rec)
        elif getattr(rec, "play_counted", None) is False:
            print("  play counts: not given, some rounds of this pairing were played before they were kept")
    # the brackets are estimates' intervals: say which, as the ratings below say theirs
    print(f"({INTERVALS})")
    if len(specs) > 2:
        errors = rating_errors(df)
        print("Bradley-Terry ratings (Elo scale; ± one standard error, the deals drawn again with replacement):")
        for name, r in ratings(df).items():
            error = f"± {errors[name]:.1f}" if errors[name] == errors[name] else "(no error from one deal)"
            print(f"  {name:<24} {r:+7.1f} {error}")
    for name, t in time_per_move(df).iterrows():
        if math.isfinite(t.cpu_ms):
            print(f"time per move, {name}: mean {t.ms:.1f} ms (CPU {t.cpu_ms:.1f} ms), "
                  f"max {t.max_ms:.1f} ms (CPU {t.max_cpu_ms:.1f} ms)")
        else:  # ("CPU nan ms" before)
            print(f"time per move, {name}: mean {t.ms:.1f} ms, max {t.max_ms:.1f} ms (wall clock; this file was "
                  "written before CPU times were kept)")
    return 0
