"""The JSON-lines bot protocol of docs/spec/interchange.md ("Bots over standard input and output").

``serve("heuristic", sys.stdin, sys.stdout)`` answers each request line with one line:

- ``{"type": "turn", "position": VIEW, "time_ms": 1000}`` -> ``{"move": "+R7/D"}``
  (VIEW is the mover's view with its history; a full position is accepted too and seen
  from the player to move; ``time_ms`` is the time allowed, kept on the wall clock by the
  search agents: ``answer``);
- ``{"type": "quit"}`` -> the bot stops and ``serve`` returns 0;
- anything illegal or unreadable -> ``{"error": "..."}``, and the bot keeps serving: a line that
  is not JSON, not UTF-8, nested deep, holding a number of thousands of digits, or longer than
  ``MAX_LINE_CHARS`` (read in bounded pieces and skipped, so it costs no more memory than the
  limit) gets one error line like any other bad request.

``ExternalAgent(cmd)`` is the other side: it starts a program that speaks the protocol and
seats it like any agent, so the tournament runner can pit it against ours.
"""

from __future__ import annotations

import contextlib
import json
import math
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from lcanalysis.agents import MAX_TIME_MS, Agent, AgentError, SearchAgent, checked_number, make_agent
from lcanalysis.agents.base import refused_answer
from lcanalysis.answer_json import answer_text
from lcanalysis.game.cards import brief
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.game.view import View
from lcanalysis.options import bad_bytes_as_surrogates, check_seed, is_utf8

#: The longest request line the bot reads (a position with the longest history is far shorter);
#: a longer line is skipped in pieces of this size and answered with an error.
MAX_LINE_CHARS = 1_000_000 + 1_000


class BotError(RuntimeError, ValueError):
    """An external bot that answered with an error, an unreadable line, an illegal move, or not at all.
    A ``ValueError`` too, like every error about bad input in this package."""


#: the keys a turn request may hold (docs/spec/interchange.md, "Bots over standard input and output")
TURN_KEYS = ("type", "position", "time_ms")
#: the keys a quit request may hold: its type only (a quit with more was meant otherwise: it is refused, not obeyed)
QUIT_KEYS = ("type",)
#: the share of a turn's ``time_ms`` the play-outs may use, counted from the request's arrival; the
#: rest is for stopping, answering and the pipe (the referee's clock counts them too)
CLOCK_SHARE = 0.9
#: milliseconds of a turn's ``time_ms`` kept on top of that share: the referee's clock also counts
#: waking on the line and the pipe both ways (measured: 0.2 ms more than the bot's clock at the
#: median, 7.6 ms at the 90th percentile, on a 2-core machine under load 7), and the last piece of
#: play-outs can end past the deadline on a busy machine. At 50 ms a turn (5 colours, 3 rounds) it
#: took ``bot best``'s late answers from 52 of 158 turns to 13 of 146 (median 47.8 ms to 43.2 ms).
RESERVE_MS = 5.0
#: the turns whose lateness ``TurnClock`` remembers
LATE_TURNS = 10


class TurnClock:
    """The reserve of a bot's turns, learnt from its own lateness (``serve``). On a machine whose
    cores are shared the process waits for a core at any moment, the end of its play-outs and the
    writing of its answer included: a wait past the deadline that no check inside the turn can see
    coming (measured at 100 ms a turn under load 10: the answers went out up to 15 ms after the
    deadline). So each turn's deadline also keeps back the most its answers went out after their
    deadlines in the last ``LATE_TURNS`` turns: nothing on an idle machine, the waits of the moment
    on a busy one (the reserve shifts the deadline, not the wait past it, so it does not feed on itself)."""

    def __init__(self) -> None:
        self.late: list[float] = []  # seconds past the deadline, the last LATE_TURNS turns with one
        self.deadline: float | None = None  # this turn's

    def reserve_ms(self) -> float:
        """``RESERVE_MS`` plus the most the last turns' answers went out after their deadlines."""
        return RESERVE_MS + 1000 * max([0.0, *self.late])

    def written(self, now: float) -> None:
        """The answer of this turn went out at ``now`` (a ``time.perf_counter()``)."""
        if self.deadline is not None:
            self.late = [*self.late, now - self.deadline][-LATE_TURNS:]
        self.deadline = None


def answer(agent: Agent, request: Any, seed: int = 0, received: float | None = None,
           clock: TurnClock | None = None) -> tuple[dict[str, Any] | None, bool]:
    """The reply to one decoded request, and whether to keep serving. ``received``: the
    ``time.perf_counter()`` at which the request arrived (default: now); a search agent keeps the
    request's ``time_ms`` on the wall clock from then (``SearchAgent``: its play-out count is a
    ceiling, and a busy machine cuts it short), less ``RESERVE_MS``, or ``clock``'s reserve
    (``TurnClock``, which notes the deadline). A bot author's own agent (a class defined outside this
    package) is refereed: a turn it answers that is not legal, or any error its ``choose`` raises, is an
    error reply naming the agent (and the line of its file), and the bot serves on."""
    received = time.perf_counter() if received is None else received
    from lcanalysis.game.notation import from_json

    if not isinstance(request, dict):
        return {"error": "a request must be a JSON object with a 'type'"}, True
    if "type" not in request:  # (not "unknown request type None", as if None had been sent)
        return {"error": "a request needs 'type': 'turn' or 'quit'"}, True
    kind = request.get("type")
    if kind not in ("turn", "quit"):
        return {"error": f"unknown request type {brief(kind)}: expected 'turn' or 'quit'"}, True
    keys = TURN_KEYS if kind == "turn" else QUIT_KEYS
    unknown = sorted(str(k) for k in request if k not in keys)
    if unknown:  # as in a position: a typo ("timems") is never silently ignored, nor a quit obeyed with one
        return {"error": f"unknown key(s) in a {kind} request: {', '.join(map(brief, unknown))}; "
                         f"it takes {', '.join(keys)}"}, True
    if kind == "quit":
        return None, False
    if "position" not in request:
        return {"error": "a turn request needs 'position' (the mover's view)"}, True
    time_ms = request.get("time_ms")
    if time_ms is not None and (isinstance(time_ms, bool) or not isinstance(time_ms, (int, float))
                                or not math.isfinite(time_ms) or not 0 < time_ms <= MAX_TIME_MS):
        # the same for every agent, whether or not it reads the budget (random and greedy do not)
        return {"error": f"time_ms must be a number above 0 and at most {MAX_TIME_MS:,.0f} (an hour), "
                         f"got {brief(time_ms)}"}, True
    if isinstance(request["position"], str):  # the command line's spellings, tried first by many a newcomer
        return {"error": f"bad position: the protocol takes the view as a JSON object (docs/spec/interchange.md), "
                         f"got the string {brief(request['position'])}: the one-line 'LC1;...' string and "
                         "'example:NAME' are the command line's ('lcanalysis show POSITION --json' writes the "
                         "object)"}, True
    try:
        pos = from_json(request["position"])
    except ValueError as exc:
        return {"error": f"bad position: {exc}"}, True
    view = pos.view(pos.to_move) if isinstance(pos, Position) else pos
    if view.viewer != view.to_move:
        return {"error": f"the view is player {view.viewer}'s, but player {view.to_move} is to move"}, True
    if view.is_over():
        return {"error": f"the round is over: {view.over_reason()}"}, True
    authors = _authors(agent)
    try:
        if isinstance(agent, SearchAgent):  # time_ms is the time allowed; without it, the agent's own time_ms
            allowed = agent.time_ms if time_ms is None else time_ms
            reserve = RESERVE_MS if clock is None else clock.reserve_ms()
            deadline = received + max(CLOCK_SHARE * allowed - reserve, 0.0) / 1000
            if clock is not None:
                clock.deadline = deadline
            move = agent.choose(view, seed + len(view.history), time_ms, deadline=deadline)
        elif time_ms is None:  # called as the tournament calls an agent: a choose(self, view, seed) works too
            move = agent.choose(view, seed + len(view.history))
        else:
            move = agent.choose(view, seed + len(view.history), time_ms)
    except Exception as exc:  # ours raise ValueErrors only, naming bad input; a bot author's code anything
        if authors:  # an error reply naming the agent and the line: the bot keeps serving, as the referee waits
            return {"error": f"the agent {agent.name!r} raised {type(exc).__name__}: {exc}"
                             f"{_line_in(exc, agent)}"}, True
        if isinstance(exc, ValueError):
            return {"error": str(exc)}, True
        raise
    # a bot author's own agent is checked (0.4 ms a turn): its error says so, where None went out as
    # {"move": "None"}; ours play legal turns by construction (tests/test_agents.py), on the clock
    refusal = refused_answer(move, view, f"the agent {agent.name!r}", here=" here") if authors else None
    if refusal is not None:
        return {"error": refusal}, True
    return {"move": str(move)}, True


def _authors(agent: Agent) -> bool:
    """Whether ``agent`` is a bot author's own (its class defined outside this package): its turns are
    checked and its errors named as its own (``answer``), and it is not warmed up (``serve``)."""
    return not type(agent).__module__.startswith("lcanalysis.")


def _line_in(exc: BaseException, agent: Agent) -> str:
    """`` (at FILE line N)``: the innermost frame of ``exc`` in the folder of ``agent``'s ``choose``, or ''."""
    file = getattr(getattr(type(agent).choose, "__code__", None), "co_filename", None)  # (its module may be unnamed)
    if not isinstance(file, str):
        return ""
    folder = Path(file).resolve().parent
    inside = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename and Path(f.filename).resolve().parent == folder]
    return f" (at {Path(inside[-1].filename).name} line {inside[-1].lineno})" if inside else ""


def _lines(infile: IO[str], limit: int) -> Iterator[str | None]:
    """The lines of ``infile``, each read with at most ``limit`` characters in memory: None for a
    line longer than that (the rest is read in pieces and dropped), or for bytes that are not UTF-8
    on a stream that cannot replace them."""
    bad_bytes_as_surrogates(infile)  # a bad byte: that line is refused (serve), not the bot ended
    while True:
        try:
            line = infile.readline(limit)
        except UnicodeDecodeError:
            yield None
            continue
        if not line:
            return
        if len(line) < limit or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):  # skip the rest of the long line
            try:
                line = infile.readline(limit)
            except UnicodeDecodeError:
                continue
        yield None


def warm_up(agent: Agent) -> None:
    """Two turns nobody asked for: at a deal, and with ``agent.endgame`` cards left (where the search
    agents turn to the exact endgame solver), so that the compiled code they need is loaded before
    the first request, not inside a timed turn (the solver's first call took 0.2 s more, near the end
    of the first round). The deal has a match score, so the match agent's equity table loads too."""
    from lcanalysis.game.notation import from_json

    data = Position.deal(0).to_json()
    data["match"] = {"round": 1, "totals": [0, 0]}
    pos = from_json(data)
    assert isinstance(pos, Position)
    try:
        agent.choose(pos.view(pos.to_move), 0, 1.0)  # the least budget: the loading is the point
        endgame = getattr(agent, "endgame", 0)
        if endgame:
            while pos.deck_count > endgame:
                pos.push(next(m for m in pos.legal_moves() if m.draws_from_deck))
            agent.choose(pos.view(pos.to_move), 0, 1.0)
    except Exception:  # the request that needs a broken part gets the error, in its answer
        pass


def serve(agent_name: str | Agent, infile: IO[str] = sys.stdin, outfile: IO[str] = sys.stdout, warm: bool = False,
          /, seed: int = 0, **options: Any) -> int:
    """Serve ``agent_name`` (an agent's name, made with ``options``, or an agent already made: a bot
    author's own, ``lcanalysis bot python:FILE:CLASS``) over JSON lines until ``quit`` or end of input;
    returns the exit status 0. Every line gets exactly one answer line (none for ``quit``), a blank one
    an error: a referee that sent it waits for an answer (docs/spec/interchange.md); each turn is
    ``answer``'s reply. ``warm`` (``lcanalysis bot``): our agent's compiled code is loaded first
    (``warm_up``; positional, so that no agent option is taken for it); a bot author's agent is not
    warmed, its first request is its first turn."""
    from lcanalysis.game.notation import loads_json

    seed = check_seed("seed", seed, AgentError)  # once, before serving: a bad one failed every turn, or none
    if isinstance(agent_name, Agent):
        if options:
            raise AgentError(f"serve: an agent already made takes no options, got {', '.join(options)}")
        agent = agent_name
    else:
        agent = make_agent(agent_name, **options)
    if warm and not _authors(agent):
        warm_up(agent)
    clock = TurnClock()
    for line in _lines(infile, MAX_LINE_CHARS):
        received = time.perf_counter()  # the referee's clock runs from here
        reply: dict[str, Any] | None
        keep = True
        if line is None:
            reply = {"error": f"unreadable request: a line longer than {MAX_LINE_CHARS:,} characters, or not "
                              "UTF-8 text; one request is one line of JSON"}
        elif not line.strip():
            reply = {"error": "unreadable request: an empty line; one request is one line of JSON, like "
                              "{\"type\": \"quit\"}"}
        elif not is_utf8(line):
            reply = {"error": "unreadable request: the line is not UTF-8 text; one request is one line of JSON"}
        else:
            try:
                # a byte order mark before the JSON (a Windows referee's UTF-8) is dropped, as a file's is, and
                # the line's end, which a request cut short was said to end on ("line 2 column 1")
                request = loads_json(line.removeprefix("\ufeff").rstrip("\r\n"))
            except ValueError as exc:
                reply = {"error": f"unreadable request: {exc}"}
            else:
                try:
                    reply, keep = answer(agent, request, seed, received, clock)
                except Exception as exc:  # keep serving whatever happens inside one request
                    reply, keep = {"error": f"internal error: {type(exc).__name__}: {str(exc)[:500]}"}, True
        if reply is not None:
            text = answer_text(reply) + "\n"  # (the one writer of answers: floats without their noise)
            clock.written(time.perf_counter())  # (as the line goes out: the pipe's own wait is not the bot's)
            outfile.write(text)
            outfile.flush()
        clock.deadline = None  # (a turn that ended in an error)
        if not keep:
            break
    return 0


#: seconds an external program may take to answer a turn, on top of ten times the turn's budget
DEFAULT_TIMEOUT = 120.0


class ExternalAgent(Agent):
    """A program speaking the bot protocol, seated like any agent.

    ``cmd`` is the command line (a list, or a string split on spaces), for example
    ``[sys.executable, "-m", "lcanalysis", "bot", "greedy"]``. The program is started on the first
    turn and stopped by ``close()``. A reply that is an error, not JSON, or not a legal turn
    raises ``BotError``. ``time_ms`` is sent with every turn; ``timeout`` (seconds) is how long to
    wait for each reply: a program that has not answered by then is stopped and the turn raises
    ``BotError``, so a hung program cannot hang a tournament. By default (None) that is
    ``DEFAULT_TIMEOUT`` seconds plus ten times the turn's time budget: the first reply includes
    the program's start, and a first-time compile of this package's own bot takes about a minute.
    """

    name = "external"

    def __init__(self, cmd: str | Sequence[str], time_ms: float | None = None,
                 timeout: float | None = None) -> None:
        if isinstance(cmd, str):
            self.cmd = cmd.split()
        elif isinstance(cmd, Sequence) and all(isinstance(part, str) for part in cmd):
            self.cmd = list(cmd)
        else:
            raise AgentError(f"external: cmd must be the command line, a string or a list of strings, got {brief(cmd)}")
        if not self.cmd:
            raise AgentError("external: cmd is empty: give the program to run, e.g. cmd=['python', 'mybot.py']")
        self.time_ms = time_ms if time_ms is None else checked_number("external", "time_ms", time_ms, 0.0, MAX_TIME_MS,
                                                               above=True)
        self.timeout = timeout if timeout is None else checked_number("external", "timeout", timeout, 0.0,
                                                                      MAX_TIME_MS / 1000, above=True)
        self._proc: subprocess.Popen | None = None

    def start(self) -> None:
        """Start the program now: one that cannot start is a ``BotError`` at once, not on its first turn."""
        self._start()

    def _start(self) -> subprocess.Popen:
        if self._proc is None or self._proc.poll() is not None:
            try:
                # a session of its own: a terminal's Ctrl-C goes to the referee alone, which stops the program
                # itself (close); the program got it too and printed its KeyboardInterrupt over the referee's words
                self._proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                              bufsize=1, errors="replace",  # bytes not UTF-8: an unreadable reply
                                              start_new_session=True)
            except OSError as exc:  # no such program, not executable
                raise BotError(f"bot {' '.join(self.cmd)!r} could not be started: {exc.strerror or exc}") from None
        return self._proc

    def request(self, payload: dict[str, Any]) -> dict[str, Any]:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(payload) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:  # it exited before reading: the same failure as closing its output
            raise self._gone(proc, "closed its input") from None
        from lcanalysis.game.notation import loads_json

        budget = payload.get("time_ms")
        limit = self.timeout if self.timeout is not None else \
            DEFAULT_TIMEOUT + 10 * (float(budget) / 1000 if budget else 0.0)
        line = self._reply_line(proc, limit)
        if not line:
            raise self._gone(proc, "closed its output")
        if len(line) >= MAX_LINE_CHARS and not line.endswith("\n"):
            raise BotError(f"bot answered with a line longer than {MAX_LINE_CHARS:,} characters")
        try:
            reply = loads_json(line)
        except ValueError as exc:
            raise BotError(f"bot answered with a line that is not JSON ({exc}): {line.strip()[:80]!r}") from None
        if not isinstance(reply, dict):
            raise BotError(f"bot answered with {brief(reply)}, not an object")
        return reply

    def _reply_line(self, proc: subprocess.Popen, limit: float) -> str:
        """One line of the program's answer, waited for at most ``limit`` seconds (read on a
        thread: a pipe's text stream has no timeout of its own)."""
        out = proc.stdout
        assert out is not None
        got: list[str] = []
        reader = threading.Thread(target=lambda: got.append(out.readline(MAX_LINE_CHARS)), daemon=True)
        reader.start()
        reader.join(limit)
        if reader.is_alive():  # stop the program: its output closes and the reader ends
            proc.kill()
            reader.join(5.0)  # (a child of the program may still hold the pipe: the thread is a daemon)
            self.close()
            raise BotError(f"bot {' '.join(self.cmd)!r} did not answer within {limit:g} s (timeout); "
                           "it was stopped")
        return got[0]

    def _gone(self, proc: subprocess.Popen, what: str) -> BotError:
        """The error for a program that stopped talking, with its exit status once it has one."""
        try:
            status: int | None = proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            status = None
        self.close()
        ended = f": it exited with status {status}" if status is not None else " (still running)"
        return BotError(f"bot {' '.join(self.cmd)!r} {what} before answering{ended}")

    def choose(self, view: View, rng_or_seed: Any = None, time_ms: float | None = None) -> Move:
        t = time_ms if time_ms is not None else self.time_ms
        payload: dict[str, Any] = {"type": "turn", "position": view.to_json()}
        if t is not None:
            payload["time_ms"] = t
        reply = self.request(payload)
        if "error" in reply:
            # printed after "BotError: ": "bot error: ..." said error twice and not that the bot said it
            raise BotError(f"bot answered an error: {str(reply['error'])[:500]}")
        if "move" not in reply:
            raise BotError(f"bot answered {brief(reply)}, which has no 'move' (a turn's answer is "
                           "{\"move\": \"+R7/D\"})")
        try:
            move = Move.parse(reply["move"], view.colors)
        except ValueError as exc:
            raise BotError(f"bot answered {brief(reply)}: {exc}") from None
        legal = {str(m) for m in _legal(view)}
        if str(move) not in legal:
            raise BotError(f"bot played an illegal turn {move}")
        return move

    def close(self) -> None:
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
                proc.stdin.flush()
                proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            proc.kill()
            proc.wait()
        finally:
            for f in (proc.stdin, proc.stdout):
                if f is not None:
                    with contextlib.suppress(OSError):  # a line it never read: flushing it breaks the pipe
                        f.close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        with contextlib.suppress(Exception):  # the interpreter may be shutting down
            self.close()

    def __repr__(self) -> str:
        return f"ExternalAgent({self.cmd!r})"


def _legal(view: View) -> list[Move]:
    import numpy as np

    from lcanalysis.core import kernel as K
    from lcanalysis.rollouts import some_state

    s = some_state(view)
    buf = np.empty(K.MAX_MOVES, np.int32)
    n = K.gen_moves(s, buf)
    return [Move.from_code(int(c), view.colors) for c in buf[:n]]
