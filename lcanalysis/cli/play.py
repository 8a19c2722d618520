"""``lcanalysis play``: play a round or a match against an agent at the terminal, with the tutor.

After each of your turns the advisor judges it from your view, and the tutor speaks up only when
the turn lost more than ``--threshold`` points (and more than two standard errors), as GNU
Backgammon's tutor does (``--ask``: before the turn is played, which may then be taken back);
``hint`` shows the advisor's best turns before you choose. The game and
the judgement are ``lcanalysis.tutor.TutorSession``; this module only reads lines and prints.

Standard input is read line by line, so a game can be scripted: at a terminal the prompt waits for a
line; from a script or a file each line read is printed after the prompt, in order with what answers it
(errors and notes included, on standard error), so that the transcript reads as a game. A line is a
turn in the notation of docs/spec/interchange.md (``+B6/D``: play B6 and draw from the deck; ``-W2/G``:
discard W2 and take the top of the green pile), or one of the words in ``WORDS``. With ``--record FILE``
the game so far is written to FILE after every turn (a game record, JSON), so nothing is lost when the
session stops; ``lcanalysis review FILE`` then analyses it for skill and luck. Ctrl-C while the advisor
thinks (a hint, a turn being judged) stops it and gives the turn back; while the agent thinks, it ends the
game as ``quit`` does.

A turn is judged by the answer ``hint`` shows (after a hint, that very answer): the advisor with
``--time`` as a count of play-outs and the deal's seed. ``lcanalysis advise`` on the board's
``LC1;...`` line with the same ``--time`` and ``--seed`` gives the same numbers (when the machine
fits all the play-outs in the time); at its defaults (1 s, seed 0) it samples other worlds, so
turns within a few standard errors of each other can swap places.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from lcanalysis.cli.common import check_agent_option, describe, progress_line, stage_progress, write_output_file
from lcanalysis.options import (
    MAX_MATCH_ROUNDS,
    MAX_SEED,
    PLAYOUT_POLICY_CHOICES,
    PLAYOUT_POLICY_DEFAULT,
    check_output_file,
    nonneg,
    number,
    path_name,
    refused,
    seconds,
)

if TYPE_CHECKING:
    from lcanalysis.tutor import TutorSession

PROMPT = "your turn> "
#: the words a line may hold besides a turn, and what each does
WORDS = {
    "hint": "the advisor's best turns here, each with its loss against the best ('hint all': every turn)",
    "moves": "every legal turn",
    "board": "draw the table again",
    "help": "this list",
    "quit": "stop (the decisions so far are summed up; --record has the game)",
}
#: the threshold's default: points a turn may lose before the tutor speaks (as in the notebook's tutor)
THRESHOLD = 2.0
#: the advisor's seconds a judged turn, and a hint's (raised near the end for the endgame search)
JUDGE_TIME = 0.5
#: the worst decisions listed at the end
WORST_SHOWN = 5


def add_parser(sub: argparse._SubParsersAction, pos_help: str = "") -> None:
    p = sub.add_parser("play", help="play a round or a match against an agent at the terminal; the tutor "
                                    "speaks up when a turn of yours costs points",
                       description=describe(__doc__))
    p.add_argument("--agent", default="best",
                   help="the opponent: an agent name with options as in 'tournament' (default best, the "
                        "strongest; greedy, heuristic, search, ... are weaker), or "
                        "python:FILE:CLASS[,OPTION=VALUE...], an Agent class of your own loaded from its file "
                        "(lcanalysis play --agent python:mine.py:Eager); a turn of it that is not legal, or an "
                        "error it raises, ends the game naming it")
    p.add_argument("--seat", type=int, choices=(0, 1), default=0,
                   help="your seat: 0 (default) or 1 (the starter of the first round is player 0)")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=None,
                   help="the deal's seed (default: a new one, printed so that the game can be replayed)")
    p.add_argument("--rounds", type=nonneg("--rounds", MAX_MATCH_ROUNDS, minimum=1), default=1,
                   help="1 (default): one round; 3: a match of three rounds, the totals deciding")
    p.add_argument("--colors", type=int, choices=(5, 6), default=5, help="expedition colours (default 5)")
    p.add_argument("--threshold", type=number("--threshold", "points"), default=THRESHOLD,
                   help=f"points a turn may lose before the tutor speaks up (default {THRESHOLD:g})")
    p.add_argument("--time", type=seconds(3600), default=JUDGE_TIME,
                   help=f"the advisor's seconds for judging a turn and for a hint (default {JUDGE_TIME:g}; "
                        "raised to the endgame search's floor with 4 cards or fewer in the draw pile), as a "
                        "count of play-outs: the same game gives the same comments, and 'lcanalysis advise' on the "
                        "board's LC1 line with this --time and --seed set to the deal's seed gives the same numbers "
                        "while more than 4 cards are in the draw pile, when the machine fits all its play-outs in "
                        "the time (advise keeps to the wall clock: on a busy machine it plays fewer, and its last "
                        "line, like the hint's, says how many); at its defaults it samples other worlds, and "
                        "near-equal turns can swap places")
    p.add_argument("--playout-policy", choices=PLAYOUT_POLICY_CHOICES, default=None,
                   help="the policy of the advisor's play-outs that judge your turns and give the hints, as "
                        f"'lcanalysis advise --playout-policy' (default: {PLAYOUT_POLICY_DEFAULT})")
    p.add_argument("--ask", action="store_true",
                   help="before playing a turn the tutor would comment on, say why and ask: y plays it anyway, "
                        "anything else takes it back to choose again (a turn taken back is not counted)")
    p.add_argument("--record", metavar="FILE", type=path_name("--record"),
                   help="write the game record (JSON) to FILE after every turn; 'lcanalysis review FILE' "
                        "analyses it")
    p.set_defaults(func=run, precheck=precheck)


def precheck(args: argparse.Namespace) -> None:
    """What ``play`` can refuse from its arguments alone, refused before the engine is compiled (``main``
    calls this first; a minute on a fresh install): the record's file, the agent's name and options."""
    if args.record:
        check_output_file("--record", args.record)
        if os.path.exists(args.record):  # another game's record: never overwritten
            raise refused("--record", f"{args.record} exists (another game's record?); give a new name or "
                                      "delete it first")
    check_agent_option("--agent", args.agent, make=False)


def run(args: argparse.Namespace) -> int:
    precheck(args)  # (cheap: again when main called it, and a program may call run alone)
    spec = check_agent_option("--agent", args.agent)
    agent = spec.make()
    if spec.name == "python":  # a bot author's class: its failures stop the game naming it, as a referee's would
        from lcanalysis.cli.play_referee import RefereedAgent

        agent = RefereedAgent(agent)
    agent.name = spec.label  # 'external:python mybot.py', 'search:time_ms=50': as the player asked
    seed = random.SystemRandom().randrange(10**6) if args.seed is None else args.seed
    from lcanalysis.agents.protocol import ExternalAgent
    from lcanalysis.cli.shell import input_lines
    from lcanalysis.tutor import TutorSession

    try:
        if isinstance(agent, ExternalAgent):
            agent.start()  # a program that cannot start says so now, not after the player's first turn
        interactive = sys.stdin.isatty()
        print(f"lcanalysis play: you are player {args.seat} against {agent.name}, deal seed {seed} "
              f"(--seed {seed} deals it again)", flush=True)
        session = TutorSession(agent=agent, seat=args.seat, seed=seed, rounds=args.rounds, colors=args.colors,
                               threshold=args.threshold, time_budget=args.time, progress=progress_line,
                               playout_policy=args.playout_policy)
        when = "before the turn is played, and asks" if args.ask else "after the turn"
        print(f"the tutor speaks up ({when}) when a turn loses more than {args.threshold:g} point(s) against the "
              "best (and more than two standard errors); type a turn like +B6/D or -W2/G, or " + ", ".join(WORDS))
        note = session.match_note()
        if note:  # in a match: the tutor's losses are points of the round, said once
            print(f"tutor: {note}")
        with _lines_in_order(sys.stdout):
            Game(session, args, interactive).play(input_lines(interactive, PROMPT))
    finally:
        close = getattr(agent, "close", None)
        if close:
            close()
    return 0


@contextlib.contextmanager
def _lines_in_order(stream: object) -> Iterator[None]:
    """``stream`` (standard output) line-buffered while the game is on: written to a file or a pipe it was
    block-buffered, so beside standard error (``2>&1``) every error and "Judging your turn" note came out
    before the board and the echoed turn it answers, and a scripted game's transcript could not be followed."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None or getattr(stream, "line_buffering", True):  # a terminal's is line-buffered already
        yield
        return
    reconfigure(line_buffering=True)
    try:
        yield
    finally:
        reconfigure(line_buffering=False)


def _a_card(text: str) -> bool:
    """Whether ``text`` is a card alone (``R7``, ``bw``), which the turn reader answers with the turns that
    play or discard it."""
    return _not_a_card(text) == ""


def _not_a_card(text: str) -> str | None:
    """What is wrong with ``text`` as a card: ``""`` for a card, the reader's reason for one letter and a
    number or ``w`` that is no card (``R11``, ``Q3``), ``None`` for anything else (a word)."""
    import re

    from lcanalysis.game.cards import Card

    if not re.fullmatch(r"[A-Za-z](\d{1,2}|[wW])", text):
        return None
    try:
        Card.parse(text)
    except ValueError as exc:
        return str(exc)
    return ""


class Game:
    """The terminal's side of a ``TutorSession``: what is printed after each line."""

    def __init__(self, session: TutorSession, args: argparse.Namespace, interactive: bool) -> None:
        self.s = session
        self.record_file: str | None = args.record
        self.time: float = args.time
        self.ask: bool = args.ask
        self.taken_back = 0
        self.interactive = interactive
        self.lines: Iterator[str] = iter(())

    def play(self, lines: Iterable[str]) -> None:
        self._save()  # from the start: the agent may have played already, and the file says the game is on
        self._replies()
        self._board()
        self.lines = iter(lines)
        for line in self.lines:
            if not self.interactive:  # a script's line, echoed so that the transcript reads as a game
                print(f"{PROMPT}{line.rstrip()}")
            played = (self.s.match.round_number, self.s.position.turn, len(self.s.decisions))
            try:
                if not self.answer(line.strip()):
                    break
            except KeyboardInterrupt:  # Ctrl-C while the advisor or the agent thinks
                if played == (self.s.match.round_number, self.s.position.turn, len(self.s.decisions)):
                    print("\nstopped: nothing was played; your turn again", file=sys.stderr, flush=True)
                    continue
                print("\nstopped in the middle of a turn: the game ends here", file=sys.stderr, flush=True)
                self._save()
                break
        else:  # the lines ran out (a script's, or Ctrl-D) with the game still on: say so, not just sum up
            kept = f"; {self.record_file} keeps it" if self.record_file else ""
            print(f"end of input: the game stops at turn {self.s.position.turn} of round "
                  f"{self.s.match.round_number}{kept}", file=sys.stderr, flush=True)
        self._summary()

    def answer(self, line: str) -> bool:
        """One line; False when the game is over or the player quits."""
        if not line or line.startswith("#"):
            return True
        word = line.lower()
        if word in ("quit", "exit"):
            return False
        if word == "help":
            for name, text in WORDS.items():
                print(f"  {name:<6} {text}")
            print("  a turn: + plays a card, - discards it; /D draws from the deck, /R (a colour letter) takes "
                  "the top of that discard pile")
        elif word == "board":
            self._board()
        elif word == "moves":
            print(" ".join(str(m) for m in self.s.legal_turns()))
        elif word in ("hint", "hint all"):
            self._hint(every=word == "hint all")
        elif not any(mark in line for mark in "+-/") and not _a_card(line):  # a word or a bad card, not a turn
            first = word.split()[0]
            said = (f"'{first}' takes nothing after it" + (" but 'all'" if first == "hint" else "")
                    if first in WORDS else _not_a_card(line) or f"'{line}' is neither a turn nor a word of the game")
            print(f"error: {said}: type a turn like +B6/D (play B6, draw from the deck) or -W2/G (discard W2, "
                  f"take the green pile's top), or one of {', '.join(WORDS)}", file=sys.stderr, flush=True)
        else:
            return self._turn(line)
        return True

    def _turn(self, text: str) -> bool:
        from lcanalysis.advisor import judging_budget
        from lcanalysis.tutor import judging_note

        try:
            move = self.s.checked(text)
        except ValueError as exc:  # not a turn, or not a legal one: say why and ask again
            print(f"error: {exc}; 'moves' lists the legal turns", file=sys.stderr, flush=True)
            return True
        cards = self.s.view().deck_count
        if not self.s.advised():  # (after a hint the turn is judged by the hint's answer, at once)
            print(judging_note(cards, judging_budget(cards, self.time), checked=self.s.checks_policy), file=sys.stderr,
                  flush=True)
        before = self.s.progress
        with stage_progress() as progress:  # a stage of the endgame search that runs on says so
            self.s.progress = progress
            try:
                judged = self.s.judge(move)
            finally:
                self.s.progress = before
        if self.ask and judged.comment:
            print(f"tutor: {judged.comment}")
            if self._question("play it anyway? (y: yes; anything else: choose again) ").lower() not in ("y", "yes"):
                self.taken_back += 1
                print("taken back: choose again ('hint' shows the best turns)")
                return True
        said = self.s.play(move, judged)
        if said and not self.ask:  # (asked: the tutor has spoken already)
            print(f"tutor: {said}")
        elif not said:
            print(f"{judged.played}: {self.s.verdict(judged)}")
        if move.source == "D":  # a pile's card was in sight; the deck's is news
            print(f"you drew {self.s.drawn} from the draw pile")
        self._save()
        self._replies()
        if not self.s.round_over():
            self._board()
            return True
        return self._round_end()

    def _question(self, question: str) -> str:
        """The answer to a yes/no question: the next line (at a terminal, typed after ``question``)."""
        if self.interactive:
            try:
                return input(question).strip()
            except EOFError:
                return ""
        line = next(self.lines, "")
        print(f"{question}{line.rstrip()}")
        return line.strip()

    def _round_end(self) -> bool:
        from lcanalysis.show.render import position_text

        print(position_text(self.s.position, you=self.s.seat))  # the round is over: every card face up
        print(f"round over: {self.s.score_line()}")
        self.s.next_round()
        self._save()
        if self.s.match_over():
            if self.s.rounds > 1:  # (a one-round game's round line said it all)
                totals = self.s.match.totals
                you, them = totals[self.s.seat], totals[1 - self.s.seat]
                verdict = "you win the match" if you > them else "you lose the match" if you < them else "a drawn match"
                print(f"match over: {verdict}, {you} to {them}")
            return False
        print(self.s.round_start_line())  # who starts it and why, where the match stands
        self._replies()
        self._board()
        return True

    def _board(self) -> None:
        print(self.s.view().to_text())

    def _replies(self) -> None:
        for move, words in self.s.replies:
            # "opponent (best) plays", not "best plays +R7/D": the default agent's name read as advice
            print(f"opponent ({self.s.opponent.name}) plays {move}: {words}")

    def _hint(self, every: bool = False) -> None:
        from lcanalysis.show.hint import DRAWS_SHOWN, hint_text

        if not self.s.human_to_move():
            print("error: it is not your turn", file=sys.stderr)
            return
        view = self.s.view()
        with stage_progress() as progress:
            analysis = self.s.advice(progress)  # kept: the turn played next is judged by this very answer
        # at the table a short footer; 'hint all' lists every turn and explains the values in full
        print(hint_text(analysis, view, top=None if every else 3, draws=None if every else DRAWS_SHOWN,
                        more="'hint all' lists every turn and explains the values", brief=not every))

    def _save(self) -> None:
        if self.record_file:
            from lcanalysis.game.records import write_record

            write_output_file("--record", self.record_file, write_record(self.s.record()))

    def _summary(self) -> None:
        frame = self.s.summary()
        if frame.empty:
            print("no turns of yours were judged")
            return
        flagged = int((frame["tutor"] != "").sum())
        print(f"your {len(frame)} decision(s): {flagged} flagged by the tutor; {self.s.total_loss_text()}")
        if self.taken_back:
            print(f"{self.taken_back} turn(s) taken back after the tutor spoke (not counted above)")
        for d in sorted((d for d in self.s.decisions if d.loss > 0), key=lambda d: -d.loss)[:WORST_SHOWN]:
            said = d.match_said()  # in a match, where play-outs judged: what it cost of the chance to win it
            print(f"  round {d.round} turn {d.turn}: played {d.played}, best {d.best}, "
                  f"loss {d.loss_text(signed=False)}" + (f"; {said[0].lower()}{said[1:]}" if said else ""))
        if self.record_file:
            print(f"the game is in {self.record_file}: 'lcanalysis review {self.record_file}' analyses it "
                  "for skill and luck")
