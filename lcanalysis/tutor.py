"""A tutor to play against: a person plays a round or a match against any agent, and after each of
their turns the advisor judges it; the tutor speaks up only when the turn lost more than a
threshold the player sets (and more than two standard errors), as GNU Backgammon's tutor does.

The flow and the judgement live here, so the notebook's clickable board (``show.tutor``), the
tests and a script all use the same session::

    >>> import lcanalysis as lc
    >>> from lcanalysis.tutor import TutorSession
    >>> s = TutorSession(agent="greedy", seed=3, time_budget=0.05)
    >>> s.human_to_move()
    True
    >>> comment = s.play(s.legal_turns()[0])   # None when the turn was good enough

A turn is judged from the player's own view before it is played (the advisor sees what the
player saw), with the same seed for every turn so that reruns give the same comments.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lcanalysis.advisor import (
    JUDGE_SEARCH_CARDS,
    MAX_TIME_BUDGET,
    advise,
    check_playout_policy,
    in_words,
    judging_budget,
    played_policy,
    playouts_far_off,
    reason,
)
from lcanalysis.advisor.notes import played_by, playout_policy_in_words
from lcanalysis.agents import AGENTS, Agent, make_agent
from lcanalysis.analysis import Analysis, loss_in_words
from lcanalysis.game.match import Match
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.game.records import MatchRecord, RoundRecord, record_match, record_round
from lcanalysis.game.rules import REASONS, Rules
from lcanalysis.match_equity import match_loss_said, points_only_note
from lcanalysis.options import REVIEW_PLAYOUT_POLICY, ROLLOUTS_PER_SECOND, brief
from lcanalysis.rollouts import Rollouts, playout_params

#: of the judging budget's play-outs, the share that plays the played and the best turn out again with the
#: game review's play-out policy (``policy_check``), where the tutor's play-outs play another
POLICY_CHECK_SHARE = 0.3
POLICY_CHECK_MIN_WORLDS = 100


def judging_note(deck_count: int, seconds: float | None = None, checked: bool = False) -> str:
    """What to show while the advisor judges a turn (never a silent wait); ``seconds``: its budget,
    to say how long the wait is; ``checked``: a turn not the best is then played out again with the game
    review's policy (``TutorSession.checks_policy``), ``POLICY_CHECK_SHARE`` more of the budget's play-outs."""
    if deck_count <= JUDGE_SEARCH_CARDS:
        how_long = f"about {seconds:g} s" if seconds is not None else "a second or two"
        return (f"Judging your turn: {deck_count} card(s) left in the draw pile, so the endgame search judges it "
                f"({how_long})...")
    if seconds is None:
        return "Judging your turn: playing the round out in sampled worlds..."
    more = (f"; {seconds * (1 + POLICY_CHECK_SHARE):g} s if it then checks your turn against the game review's "
            "play-outs" if checked else "")
    return f"Judging your turn: playing the round out in sampled worlds (about {seconds:g} s{more})..."


def match_chance_text(rules: Rules, lead: int, rounds_left: int, i_start_next: bool) -> str:
    """The chance to win the match from a running ``lead`` before a round, between equal players, in
    words, with what it rests on: the match equity table (``MatchEquity``: P(win) + P(draw) / 2, by
    dynamic programming from simulated rounds of heuristic self-play), an estimate whose bootstrap
    standard error the table's file bounds; a table of other rounds than ``rules``' says so."""
    from lcanalysis.match_equity import MatchEquity, table_caveat

    equity = MatchEquity.load(rules=rules)
    chance = equity.win_probability(lead, rounds_left, i_start_next)
    bound = equity.meta.get("stderr", {}).get("max")
    measured = equity.meta.get("rounds", 3)  # the bootstrap's table: so many rounds left at most
    error = (f", standard error at most {100 * bound:.1f} percentage points" if bound and rounds_left <= measured
             else f", its standard error measured only up to {measured} rounds left" if bound else "")
    return (f"between equal players a {100 * chance:.1f}% chance to win the match (an estimate by the match "
            f"equity table of heuristic self-play{error}; a drawn match counted half)" + table_caveat(equity, rules))


def round_start_text(round: int, rounds: int, totals: list[int], starter: int, seat: int, opponent: str,
                     tied_start: str, chance: str = "") -> str:
    """A later round of a match as it begins, said to the person in seat ``seat``: who starts it and
    why (the higher running total; on level totals the rules' ``tied_start``: docs/spec/rules.md "A
    match"), and where the match stands: "round 2 of 3: the opponent (best) starts it, with the higher
    total (27 to your 10); you trail by 17 with 2 rounds to play, this one included". ``totals``:
    players 0 and 1's running totals before the round; ``starter``: who starts it; ``chance``, when
    given, follows after a colon (``match_chance_text``)."""
    mine, theirs = totals[seat], totals[1 - seat]
    who = "you start" if starter == seat else f"the opponent ({opponent}) starts"
    if mine != theirs:
        whose = "your" if starter != seat else "their"
        why = f"with the higher total ({max(mine, theirs)} to {whose} {min(mine, theirs)})"
    else:  # the rules' convention decides: the other player, or the previous round's starter again
        why = (f"as the totals are level at {mine} and the rules (tied_start '{tied_start}') give it to "
               + (f"the player who did not start round {round - 1}" if tied_start == "alternate"
                  else f"round {round - 1}'s starter again"))
    lead = mine - theirs
    stand = f"you lead by {lead}" if lead > 0 else f"you trail by {-lead}" if lead < 0 else "the match is level"
    left = rounds - round + 1
    what = (", and this last round decides it (the higher total after it wins, level totals draw)" if left == 1
            else f" with {left} rounds to play, this one included")
    return f"round {round} of {rounds}: {who} it, {why}; {stand}{what}" + (f": {chance}" if chance else "")


@dataclass
class Decision:
    """One of the person's turns, judged."""

    round: int
    turn: int
    played: str
    best: str
    loss: float
    loss_stderr: float
    exact: bool
    comment: str = ""
    #: the endgame search showed only that the turn is worse: its loss is at least ``loss``
    bound: bool = False
    #: judged by play-outs with ``FAR_OFF_CARDS`` or fewer left: how far off they can be, in words
    #: (``playouts_far_off``: "by play-outs, which with 5 card(s) left ..."); "" otherwise
    far_off: str = ""
    #: in a match, where play-outs judged: the chance to win the match the turn gives up against the
    #: best turn for the match (a fraction, paired over the worlds, with its standard error) and that
    #: turn; None where there is no match or the endgame search judged (it ranks by points only)
    match_loss: float | None = None
    match_loss_stderr: float = 0.0
    best_for_match: str = ""
    #: where the tutor's play-outs play another policy than the game review's: the played turn's loss
    #: against the same best turn, played out again by the review's policy (``policy_check``), and its
    #: standard error; None where not measured (the endgame search judged, the best turn was played, or the
    #: tutor plays the review's policy)
    check_loss: float | None = None
    check_loss_stderr: float = 0.0
    #: the two policies' verdicts differ (``policies_disagree``): what the comment or verdict adds; "" otherwise
    disagreement: str = ""

    @property
    def flagged(self) -> bool:
        return bool(self.comment)

    def loss_points(self) -> str:
        """The loss as a sentence says it: "2.0 points (exact)", "2.0 ± 0.4 points", "at least 2.0 points"."""
        text = self.loss_text(signed=False)
        return text.replace(" (exact)", " points (exact)") if text.endswith(" (exact)") else f"{text} points"

    def match_said(self) -> str:
        """What the turn costs in the match, a sentence ("" where it is not known): "For the match: 1.5 ±
        0.4 percentage points less chance to win it than -B3/D, the best turn for the match (by the
        play-outs)", an estimate with its paired standard error; the tutor's judgement stays in points."""
        if self.match_loss is None:
            return ""
        return match_loss_said(self.played, self.best_for_match, 100 * self.match_loss, 100 * self.match_loss_stderr)

    def loss_text(self, signed: bool = True) -> str:
        """The loss as the hint shows it: "-2.0 ± 0.4" (an estimate), "-2.0 (exact)", or
        "≤ -2.0" (a bound: at least that much lost, "± s" when sampled); ``signed=False``, as a
        loss: "2.0 ± 0.4", "2.0 (exact)", "at least 2.0" (``analysis.loss_in_words``)."""
        return loss_in_words(self.loss, self.loss_stderr, exact=self.exact, bound=self.bound, signed=signed)


def policy_check(view: Any, played: str, best: str, analysis: Analysis, time_budget: float,
                 seed: int) -> tuple[float, float]:
    """The loss of ``played`` against ``best`` with both played out again by the game review's play-out
    policy (``options.REVIEW_PLAYOUT_POLICY``, the stalling heuristic) in fresh shared worlds, dealt as
    ``analysis``'s play-outs dealt them: (best minus played, its paired standard error).

    Why: where the tutor's play-outs play the plain heuristic (the hint's default while the draw pile holds
    more than ``options.STALLING_FROM_CARDS`` cards; ``playout_policy="plain"`` throughout), it never draws
    from a discard pile to gain turns. Where turns are worth much (a long expedition to finish, few cards left) the two
    policies can differ by 25 points on the same turn and the review, which judges by the stalling one,
    contradicts the tutor (docs/agents.md, "The tutor and the review")."""
    nc = view.colors
    codes = [Move.parse(best, nc).code(nc), Move.parse(played, nc).code(nc)]
    r = Rollouts(view, codes, seed=seed, params=playout_params(REVIEW_PLAYOUT_POLICY),
                 hand_model=bool(analysis.hand_model), streams=bool(analysis.deck_streams))
    r.sample(max(POLICY_CHECK_MIN_WORLDS, int(time_budget * ROLLOUTS_PER_SECOND * POLICY_CHECK_SHARE / 2)))
    return r.difference(0, 1)


def policies_disagree(decision: Decision, threshold: float, policy: str | None) -> str:
    """What a verdict adds where the game review's play-out policy (``Decision.check_loss``) and the tutor's
    (``policy``, the answer's) give different verdicts (one over ``threshold`` beyond two standard errors,
    the other not) and their losses differ by more than two standard errors of the difference; "" otherwise."""
    check, check_se = decision.check_loss, decision.check_loss_stderr
    if check is None:
        return ""
    said = decision.loss > threshold and decision.loss > 2 * decision.loss_stderr
    checked = check > threshold and check > 2 * check_se
    if said == checked or abs(decision.loss - check) <= 2 * math.hypot(decision.loss_stderr, check_se):
        return ""
    how = ("as good as" if abs(check) < 0.05 else
           f"{abs(check):.1f} ± {check_se:.1f} points {'worse' if check > 0 else 'better'} than")
    then = "judge this turn otherwise" if said else "mark this turn"
    return (f"But the game review's play-outs (the {played_by(REVIEW_PLAYOUT_POLICY)}, which also draws from a discard "
            f"pile to gain turns) put your turn {how} {decision.best}, where the tutor's "
            f"({playout_policy_in_words(policy)}) put it {decision.loss_points()} worse: the two play-out policies "
            f"disagree here, and 'lcanalysis review' can {then} ('lcanalysis rollout', the best agent in both "
            "seats, can tell which is right)")


@dataclass
class TutorSession:
    """A round (``rounds=1``) or a match (``rounds=3``) of a person (seat ``seat``) against ``agent``.

    ``threshold``: points a turn may lose against the best before the tutor comments.
    ``time_budget``: the advisor's seconds per judged turn (with 4 cards left or fewer at least
    ``advisor.judging_budget``'s floor, so that the endgame search judges there, as in the review).
    ``progress``: called with a line of text at each stage of that endgame search.
    ``playout_policy``: the policy of the advisor's play-outs (``advise``'s, ``options.PLAYOUT_POLICY_CHOICES``;
    ``None``: its default, "staged": the plain heuristic while the draw pile holds more than
    ``options.STALLING_FROM_CARDS`` cards, the stalling one from there).
    """

    agent: str | Agent = "heuristic"
    seat: int = 0
    seed: int = 0
    rounds: int = 1
    colors: int = 5
    threshold: float = 2.0
    time_budget: float = 0.5
    decisions: list[Decision] = field(default_factory=list)
    #: receives a line of text as each stage of the endgame search starts and ends while it judges a
    #: turn near the end (seconds, not the play-outs' half second), so the wait is never silent
    progress: Callable[[str], None] | None = None
    playout_policy: str | None = None

    def __post_init__(self) -> None:
        if self.seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {self.seat!r}")
        if not (isinstance(self.threshold, (int, float)) and self.threshold >= 0):
            raise ValueError(f"threshold must be a number of points >= 0, got {self.threshold!r}")
        real = (int, float, np.integer, np.floating)  # numpy's too (a slider's, an array's), as advise's
        if (isinstance(self.time_budget, bool) or not isinstance(self.time_budget, real)
                or not 0 < self.time_budget <= MAX_TIME_BUDGET):  # (nan, inf, an int past a float's range)
            raise ValueError(f"time_budget must be seconds above 0 and at most {MAX_TIME_BUDGET}, "
                             f"got {brief(self.time_budget)}")
        self.time_budget = float(self.time_budget)
        if not isinstance(self.agent, (str, Agent)):  # (else Python's "has no attribute 'choose'" at its first turn)
            raise ValueError(f"agent must be an agent's name ({', '.join(AGENTS)}) or an agent make_agent made, "
                             f"got {self.agent!r}")
        if self.playout_policy is not None:  # refused now, not at the first turn judged
            check_playout_policy(self.playout_policy)
        if self.progress is not None and not callable(self.progress):  # (else refused only near the round's end)
            raise ValueError(f"progress must be a function that takes a line of text, or None, got {self.progress!r}")
        self.opponent: Agent = make_agent(self.agent) if isinstance(self.agent, str) else self.agent
        self.match = Match(rules=Rules(colors=self.colors, rounds=self.rounds))
        #: the agent's turns since the person's last one: (turn, in words as the person saw it)
        self.replies: list[tuple[str, str]] = []
        #: the card the person drew in their last turn ("" before it)
        self.drawn = ""
        self._finished: list[RoundRecord] = []  # the rounds played out, for ``record``
        self._advice: tuple[tuple[int, int, int], Any] | None = None  # ``advice``'s answer, kept for the turn
        self._deal(self.match.new_round(seed=self.seed))

    # --- the state of play ----------------------------------------------------------------

    def human_to_move(self) -> bool:
        return not self.position.is_over() and self.position.to_move == self.seat

    def round_over(self) -> bool:
        return self.position.is_over()

    def match_over(self) -> bool:
        return self.match.is_over()

    def match_note(self) -> str | None:
        """In a match (``rounds`` above 1): that the tutor judges turns in points of the round, not
        by the chance to win the match, in the words of advise's note; None for a single round. Said
        once: by ``lcanalysis play`` before the first turn, by the board's review of the round."""
        if self.rounds == 1:
            return None
        return (points_only_note("the tutor judges your turns in") + "; where play-outs judge, it also says what "
                "each of your turns costs of your chance to win the match")

    def round_start_line(self) -> str | None:
        """A later round of a match as it begins (``round_start_text``: who starts it and why, where the
        match stands, the chance to win it between equal players); None in the first round, a single
        round or once the match is over."""
        if self.rounds == 1 or self._round == 1 or self.match_over():
            return None
        totals, starter = list(self.match.totals), self._start.to_move
        chance = match_chance_text(self.match.rules, totals[self.seat] - totals[1 - self.seat],
                                   self.rounds - self._round + 1, starter == self.seat)
        return round_start_text(self._round, self.rounds, totals, starter, self.seat, self.opponent.name,
                                self.match.rules.tied_start, chance)

    def view(self):
        """What the person sees now."""
        return self.position.view(self.seat)

    def legal_turns(self) -> list[Move]:
        return self.position.legal_moves() if self.human_to_move() else []

    # --- playing -----------------------------------------------------------------------------

    def checked(self, move: Move | str) -> Move:
        """``move`` read and checked as the person's next turn; a ValueError says what is wrong."""
        if not self.human_to_move():
            raise ValueError("it is not your turn" if not self.round_over() else "the round is over: start the next")
        mv = move if isinstance(move, Move) else Move.parse(str(move), self.position.colors)
        why = self.position.why_illegal(mv)
        if why == REASONS[3]:  # the rules' words are for any position; here the person is the mover
            why = f"{mv.card} is not in your hand"
        if why:
            raise ValueError(f"{mv} is not legal here: {why}")
        return mv

    def judge(self, move: Move | str) -> Decision:
        """The person's turn judged, not played: a tutor that asks before the turn is made, as GNU
        Backgammon's does, shows ``comment`` and lets the person choose again."""
        return self._judge(self.checked(move))

    def play(self, move: Move | str, judged: Decision | None = None) -> str | None:
        """The person's turn: judged (or ``judged``, what ``judge`` said of this turn), played, then
        the agent's turns until the person is to move again or the round ends. Returns the tutor's
        comment, or None when the turn was fine."""
        mv = self.checked(move)
        if judged is not None and (judged.played != str(mv) or judged.turn != self.position.turn
                                   or judged.round != self.match.round_number):
            raise ValueError(f"the judgement given is of {judged.played} at turn {judged.turn}, not of {mv} now")
        decision = judged if judged is not None else self._judge(mv)
        self.decisions.append(decision)
        self.drawn = str(self.position.push(mv))
        self._turns.append(str(mv))
        self._advance()
        return decision.comment or None

    def next_round(self) -> None:
        """Score the finished round into the match and deal the next one."""
        if not self.round_over():
            raise ValueError("the round is still being played")
        self.match.record(self.position.scores())
        self._finished.append(self._round_record())
        if self.match.is_over():
            return
        self._deal(self.match.new_round(seed=self.seed + self.match.round_number - 1))

    def _deal(self, position: Position) -> None:
        if self.rounds == 1:
            position.match = None  # a single round: no match score for the advisor to weigh or the board to show
        self.position = position
        self._round = self.match.round_number  # the round being played (the match's counter passes it at the end)
        self._start = position.copy()  # the round's record starts here
        self._turns: list[str] = []
        self._advance()

    def _advance(self) -> None:
        self.replies = []
        while not self.position.is_over() and self.position.to_move != self.seat:
            view = self.position.view(self.position.to_move)
            move = self.opponent.choose(view, self.seed + self.position.turn)
            words = in_words(self.position.view(self.seat), move)  # the pile card taken, as the person saw it
            self.position.push(move)
            self._turns.append(str(move))
            self.replies.append((str(move), words))

    # --- the record ------------------------------------------------------------------------

    def players(self) -> list[str]:
        """The seats' names for the record: "you" and the agent's."""
        return ["you", self.opponent.name] if self.seat == 0 else [self.opponent.name, "you"]

    def _round_record(self) -> RoundRecord:
        return record_round(self._start, self._turns, players=self.players())

    def record(self) -> RoundRecord | MatchRecord:
        """The game so far as a game record (docs/spec/interchange.md), for ``lcanalysis review``: a
        round record for a one-round game, else a match record of the rounds played and the one
        being played (unless it has not started)."""
        if self.rounds == 1:
            return self._finished[0] if self._finished else self._round_record()
        rounds = list(self._finished)
        if not self.match_over():
            rounds.append(self._round_record())
        return record_match(rounds, rules=self.match.rules, players=self.players())

    # --- the tutor's judgement ------------------------------------------------------------

    def advice(self, progress: Callable[[str], None] | None = None) -> Any:
        """The advisor's answer for the person's view now (``advise``, at the judging budget and seed):
        what a hint shows and what the turn is judged by. Kept for the turn, so a turn played after a
        hint is judged by the very answer the hint showed, with no second wait (the endgame search's
        seconds near the end). ``progress``: as the session's, for this call (default the session's,
        with 4 cards or fewer left)."""
        if self.advised():
            assert self._advice is not None
            return self._advice[1]
        view = self.view()
        if progress is None and view.deck_count <= JUDGE_SEARCH_CARDS:
            progress = self.progress
        analysis = advise(view, time_budget=judging_budget(view.deck_count, self.time_budget), seed=self.seed,
                          progress=progress, playout_policy=self.playout_policy)
        self._advice = (self._advice_key(), analysis)
        return analysis

    def _advice_key(self) -> tuple[int, int, int]:
        return (self.match.round_number, self.position.turn, len(self.position.history))

    @property
    def checks_policy(self) -> bool:
        """Whether a turn judged by play-outs, not the best, is played out again with the game review's policy
        (``policy_check``): the tutor's play-outs at the view now play another (the default, "staged",
        plays the review's from ``options.STALLING_FROM_CARDS`` cards down)."""
        return played_policy(self.playout_policy, self.view().deck_count) != REVIEW_PLAYOUT_POLICY

    def advised(self) -> bool:
        """Whether ``advice`` has answered for the view now (a hint was asked): judging a turn then takes
        no time."""
        return self._advice is not None and self._advice[0] == self._advice_key()

    def _judge(self, move: Move) -> Decision:
        view = self.view()
        analysis = self.advice()
        played = next(m for m in analysis.moves if m.move == str(move))
        best = analysis.moves[0]
        loss, se = float(played.loss or 0.0), float(played.loss_stderr or 0.0)
        bound = played.upper_bound  # the search showed only that it is worse: at least this loss
        decision = Decision(round=self.match.round_number, turn=self.position.turn, played=str(move),
                            best=best.move, loss=loss, loss_stderr=se,
                            exact=bool(played.exact and best.exact and not bound), bound=bound,
                            far_off=playouts_far_off(analysis, view.deck_count))  # its ± alone would look trustworthy
        if (analysis.kind == "advisor estimate" and analysis.playout_policy != REVIEW_PLAYOUT_POLICY
                and best.move != str(move)):  # the review's policy plays the two out too: do they agree?
            decision.check_loss, decision.check_loss_stderr = policy_check(
                view, str(move), best.move, analysis, self.time_budget, self.seed + 1)
            decision.disagreement = policies_disagree(decision, self.threshold, analysis.playout_policy)
        if "match_loss" in played.extra:  # a match, judged by play-outs: each turn's chance to win it too
            decision.match_loss = float(played.extra["match_loss"])
            decision.match_loss_stderr = float(played.extra["match_loss_stderr"])
            decision.best_for_match = next(m.move for m in analysis.moves if m.extra["match_loss"] <= 0.0)
        if loss > self.threshold and loss > 2 * se:  # the better turn and why, then what the player's turn did
            told = analysis.turn_to_name() or best  # (the plain turn where it ties exactly with a stall listed first)
            better, own = reason(view, told.move), reason(view, move).split("; ")
            yours = [part for part in own if part not in better.split("; ")] or own  # what both do: said once
            decision.comment = (f"this turn loses {decision.loss_points()} against the best: better to "
                                f"{in_words(view, told.move)} ({told.move}): {better}. Your turn {'; '.join(yours)}")
            if decision.far_off:
                decision.comment += f". Judged {decision.far_off}"
            if decision.disagreement:
                decision.comment += f". {decision.disagreement}"
            if decision.match_loss is not None:
                decision.comment += f". {decision.match_said()}"
        return decision

    def verdict(self, decision: Decision) -> str:
        """A turn the tutor let pass (no comment), in words: "fine" only when the judgement shows it;
        over the threshold within two standard errors, or only bounded by the endgame search (its loss
        at least the figure, how much more unknown), that the tutor cannot tell. Judged by play-outs
        near the end (``Decision.far_off``), it says that they can be many points off, as a comment does."""
        said = self._let_pass(decision)
        said = f"{said}. Judged {decision.far_off}" if decision.far_off else said
        said = f"{said}. {decision.disagreement}" if decision.disagreement else said
        return f"{said}. {decision.match_said()}" if decision.match_loss is not None else said

    def _let_pass(self, decision: Decision) -> str:
        if decision.bound:  # the search showed only that the turn is worse: not that it is fine
            shown = "no better" if decision.loss < 0.05 else f"{decision.loss_points()} worse"
            return (f"not clearly worse than the best, but it may be: the endgame search's budget ran out when it had "
                    f"shown only that it is {shown}")
        if decision.loss > self.threshold:  # over the threshold, within two standard errors
            return (f"not clearly worse than the best, but it may be ({decision.loss_points()} worse: within "
                    "two standard errors, the estimate cannot tell)")
        if decision.loss < 0.05:
            return "fine: as good as the best" + (" (exact)" if decision.exact else "")
        if decision.exact:  # not "fine (1.0 points (exact) worse ...)", parentheses within parentheses
            return f"fine: exactly {decision.loss:.1f} points worse than the best"
        return f"fine ({decision.loss_points()} worse than the best)"

    def summary(self) -> Any:
        """The person's decisions with their losses (a pandas DataFrame), worst first."""
        import pandas as pd

        rows = [{"round": d.round, "turn": d.turn, "played": d.played, "best": d.best, "loss": round(d.loss, 2),
                 "± (paired)": round(d.loss_stderr, 2), "exact": d.exact, "at least": d.bound, "tutor": d.comment,
                 "match loss (pp)": None if d.match_loss is None else round(100 * d.match_loss, 1),
                 "match ± (pp)": None if d.match_loss is None else round(100 * d.match_loss_stderr, 1)}
                for d in self.decisions]
        columns = ["round", "turn", "played", "best", "loss", "± (paired)", "exact", "at least", "tutor"]
        if self.rounds > 1:  # in a match: what each turn cost of the chance to win it, where play-outs judged
            columns[-1:-1] = ["match loss (pp)", "match ± (pp)"]
        frame = pd.DataFrame(rows, columns=columns)
        return frame.sort_values("loss", ascending=False, kind="stable").reset_index(drop=True)

    def total_loss_text(self) -> str:
        """The person's losses summed, in words: "total loss 7.3 ± 1.2 points against the advisor's
        best (...)", the standard error combining each estimate's (the judgements are independent
        analyses), saying how many were exact and how many only bounded (the total is then a bound)."""
        ds = self.decisions
        total = sum(d.loss for d in ds)
        spread = math.sqrt(sum(d.loss_stderr ** 2 for d in ds))
        exact, bound = sum(d.exact for d in ds), sum(d.bound for d in ds)
        bounds = f", {bound} only bounded by the endgame search (the total is then at least this)" if bound else ""
        return (f"total loss {total:.1f} ± {spread:.1f} points against the advisor's best ({exact} judged "
                f"exactly{bounds}, the rest estimates by play-outs or, near the end, by the endgame search "
                "over sampled worlds; ± one standard error)")

    def score_line(self) -> str:
        you, them = self.position.score(self.seat), self.position.score(1 - self.seat)
        totals = self.match.totals
        if self.round_over() and len(self._finished) < self._round:  # the round ended, not yet in the totals
            totals = [total + self.position.score(p) for p, total in enumerate(totals)]
        # "opponent (match) 24", not "match 24": the agent's name alone can read as a word of the line
        line = f"round {self._round}: you {you}, opponent ({self.opponent.name}) {them}"
        if self.rounds > 1:
            line += f"; match totals you {totals[self.seat]}, opponent {totals[1 - self.seat]}"
        return line
