"""The JSON-lines bot protocol: answers turns, refuses bad requests with an error, keeps serving."""

import io
import json
import re
import subprocess
import sys

import pytest

from lcanalysis.agents import AgentError, make_agent
from lcanalysis.agents.protocol import BotError, ExternalAgent, serve
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position


def _run(lines, agent="heuristic"):
    inp = io.StringIO("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    out = io.StringIO()
    status = serve(agent, inp, out)
    return status, [json.loads(x) for x in out.getvalue().splitlines()]


def _mid_round(seed=4, turns=10):
    pos = Position.deal(seed)
    agent = make_agent("greedy")
    for _ in range(turns):
        pos.push(agent.choose(pos.view(pos.to_move), 0))
    return pos


def test_a_turn_request_gets_a_legal_move():
    pos = _mid_round()
    view = pos.view(pos.to_move)
    status, replies = _run([{"type": "turn", "position": view.to_json(), "time_ms": 1000}, {"type": "quit"}])
    assert status == 0
    assert len(replies) == 1
    move = Move.parse(replies[0]["move"])
    assert pos.can_play(move)
    assert replies[0]["move"] == str(make_agent("heuristic").choose(view, 0 + len(view.history)))


def test_bad_requests_get_an_error_and_the_bot_keeps_serving():
    pos = _mid_round()
    view = pos.view(pos.to_move)
    good = {"type": "turn", "position": view.to_json()}
    bad_card = json.loads(json.dumps(good))
    bad_card["position"]["hands"][view.viewer][0] = "R11"
    not_mover = pos.view(1 - pos.to_move).to_json()
    over = Position.deal(1)
    requests = [
        "this is not json",
        "   ",  # a blank line: an answer too, or a referee that sent it would wait for ever
        [1, 2, 3],
        {"type": "dance"},
        {"type": "turn"},
        bad_card,
        {"type": "turn", "position": not_mover},
        {"type": "turn", "position": good["position"], "time_ms": -5},
        {"type": "turn", "position": good["position"], "timems": -5},  # a typo is not ignored
        good,
        {"type": "quit"},
        good,  # never read: the bot has quit
    ]
    status, replies = _run(requests)
    assert status == 0
    assert len(replies) == 10
    for r in replies[:9]:
        assert set(r) == {"error"} and r["error"]
    assert "an empty line" in replies[1]["error"] and "R11" in replies[5]["error"]
    assert replies[8]["error"] == "unknown key(s) in a turn request: 'timems'; it takes type, position, time_ms"
    assert pos.can_play(replies[9]["move"])
    assert over.deck_count == 44


def test_a_position_given_as_the_one_line_string_is_refused_saying_the_protocol_takes_the_json_object():
    """'bad position: a position must be a JSON object, got str' left a newcomer who sent the command
    line's one-line string (or example:midround) guessing what to send instead."""
    view = Position.deal(2).view(0)  # a view the JSON object of which is answered
    line = view.to_string()
    status, replies = _run([{"type": "turn", "position": line}, {"type": "turn", "position": "example:midround"},
                            {"type": "turn", "position": view.to_json()}, {"type": "quit"}])
    assert status == 0 and len(replies) == 3
    for reply, sent in zip(replies, ("'LC1;c5;h8;", "'example:midround'")):  # (a long string is quoted cut)
        assert set(reply) == {"error"}
        assert reply["error"].startswith("bad position: the protocol takes the view as a JSON object "
                                         f"(docs/spec/interchange.md), got the string {sent}")
        assert "'lcanalysis show POSITION --json' writes the object" in reply["error"]
    assert view.legal_moves().count(replies[2]["move"]) == 1


def test_a_full_position_is_answered_from_the_movers_view():
    pos = _mid_round(seed=9)
    status, replies = _run([{"type": "turn", "position": pos.to_json()}])
    assert status == 0 and pos.can_play(replies[0]["move"])


def test_the_bot_runs_as_a_program_and_exits_with_status_zero():
    pos = _mid_round()
    req = json.dumps({"type": "turn", "position": pos.view(pos.to_move).to_json()}) + "\n"
    proc = subprocess.run([sys.executable, "-m", "lcanalysis", "bot", "greedy"],
                          input=req + "{oops\n" + req + '{"type": "quit"}\n', capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert "move" in lines[0] and "error" in lines[1] and lines[2] == lines[0]


def test_an_external_agent_plays_what_the_bot_answers_and_refuses_an_error():
    pos = _mid_round()
    view = pos.view(pos.to_move)
    ext = ExternalAgent([sys.executable, "-m", "lcanalysis", "bot", "heuristic"])
    try:
        assert ext.choose(view, 0) == make_agent("heuristic").choose(view, len(view.history))
    finally:
        ext.close()
    liar = ExternalAgent([sys.executable, "-c",
                          "import sys\nfor l in sys.stdin: print('{\"move\": \"+Y2/D\"}', flush=True)"])
    try:
        if pos.can_play("+Y2/D"):
            pytest.fail("test position should not allow +Y2/D")
        with pytest.raises(BotError, match="illegal"):
            liar.choose(view)
    finally:
        liar.close()


def test_a_bot_that_exits_before_reading_its_request_is_a_bot_error(monkeypatch):
    """A bot gone before the request is written (a closed pipe) fails as one that closes its
    output does, with a BotError naming it, not a bare broken pipe (which a tournament would
    report without saying which round failed)."""
    agent = ExternalAgent([sys.executable, "-c", "pass"])
    gone = subprocess.Popen(agent.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    gone.wait()
    monkeypatch.setattr(agent, "_start", lambda: gone)
    with pytest.raises(BotError, match="closed its input"):
        agent.request({"type": "turn"})


@pytest.mark.parametrize("name", ["nosuch", "external"])
def test_the_bot_refuses_an_agent_it_cannot_serve_and_names_those_it_can(name, capsys):
    """'lcanalysis bot external' was offered by the error message but cannot be served: 'external'
    seats another program in a tournament. The bot names the agents it serves, and nothing more."""
    from lcanalysis.agents import AGENTS
    from lcanalysis.cli.bot import main as bot_main

    assert bot_main([name]) == 2
    err = capsys.readouterr().err
    assert f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}" in err and "or 'external'" not in err
    # one line, as every command's bad argument: it printed a usage line first
    assert err.startswith("lcanalysis bot: error: ") and err.endswith(" (see lcanalysis bot --help)\n"), err
    assert err.count("\n") == 1, err


@pytest.mark.parametrize("spec, meant", [("search:time_ms=50", "lcanalysis bot search time_ms=50"),
                                         ("best:time_ms=50,width=8", "lcanalysis bot best time_ms=50 width=8"),
                                         ("greedy:", "lcanalysis bot greedy")])
def test_the_bot_given_an_agent_as_a_tournament_writes_it_says_how_the_bot_takes_it(spec, meant, capsys):
    """Found by a reliability pass: 'lcanalysis bot search:time_ms=50', the agent as 'tournament',
    'rollout --agent' and 'play --agent' take it, said only "unknown agent 'search:time_ms=50'"; it
    now says that the bot takes the options as words after the name, and the command meant."""
    from lcanalysis.cli.bot import main as bot_main

    assert bot_main([spec]) == 2
    err = capsys.readouterr().err
    assert f"error: unknown agent {spec!r}: the bot takes an agent's options as KEY=VALUE words after its name: " \
           f"{meant} (see lcanalysis bot --help)\n" in err, err


@pytest.mark.parametrize("options, problem", [
    (["time_ms=nan"], "option 'time_ms=nan': the value must be a finite number"),
    (["time_ms=inf"], "option 'time_ms=inf': the value must be a finite number"),
    (["A=1e400"], "option 'A=1e400': the value must be a finite number"),  # float() reads it as infinity
    (["A=1", "A=2"], "option 'A' is given twice"),
])
def test_the_bot_refuses_an_option_that_is_not_one_finite_number(options, problem, capsys):
    from lcanalysis.cli.bot import main as bot_main

    assert bot_main(["heuristic", *options]) == 2
    assert problem in capsys.readouterr().err


@pytest.mark.parametrize("name, options, problem", [
    # found by a review: 'seed=5' and 'infile=3' reached serve() twice, a TypeError traceback
    ("random", ["seed=5"], "the seed is given as --seed N, not as an agent option"),
    ("search", ["infile=3"], "search: unknown option 'infile'; known options: width, time_ms"),
    ("greedy", ["time_ms=50"], "greedy: unknown option 'time_ms'; it takes no options"),
    ("heuristic", ["outfile=1"], "heuristic: unknown parameter 'outfile'"),  # its weights take any name
])
def test_the_bot_refuses_an_option_its_agent_does_not_take_before_serving(name, options, problem, capsys):
    from lcanalysis.cli.main import main as cli_main

    assert cli_main(["bot", name, *options]) == 2
    err = capsys.readouterr().err
    assert problem in err and "Traceback" not in err


@pytest.mark.parametrize("bad", [-1, 2**63, "x", 2.5])
def test_serve_refuses_a_bad_seed_before_it_reads_a_request(bad):
    """``serve(..., seed=-1)`` (and 2**64) answered every turn as if it were fine, and ``seed='x'``
    answered every turn with "internal error: TypeError: can only concatenate str ...". The seed is
    checked once, as the library checks every seed, before a request is read or answered."""
    request = json.dumps({"type": "turn", "position": Position.deal(seed=3).view(0).to_json()}) + "\n"
    out = io.StringIO()
    with pytest.raises(AgentError, match=rf"^seed must be a whole number from 0 to 2\*\*63 - 1, got {bad!r}$"):
        serve("random", io.StringIO(request), out, seed=bad)
    assert out.getvalue() == ""
    serve("random", io.StringIO(request), out, seed=2**63 - 1)  # the largest seed serves
    assert Move.parse(json.loads(out.getvalue())["move"])


def test_the_bot_refuses_a_seed_beyond_the_largest_by_its_option_as_the_other_commands_do(capsys):
    """``lcanalysis bot random --seed 99999999999999999999999`` served; like every other command's,
    the option names its range at once."""
    from lcanalysis.cli.main import main as cli_main

    with pytest.raises(SystemExit) as refused:
        cli_main(["bot", "random", "--seed", str(2**63)])
    assert refused.value.code == 2
    assert f"--seed must be at most {2**63 - 1}, got {2**63}" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["-5", "0", "1e30"])
def test_the_bot_refuses_a_budget_no_turn_can_keep_before_serving(value, capsys):
    """A referee that starts 'lcanalysis bot search time_ms=-5' gets exit status 2 and the reason,
    not a bot that answers every turn as if the budget were sensible."""
    from lcanalysis.cli.main import main as cli_main

    assert cli_main(["bot", "search", f"time_ms={value}"]) == 2
    assert "search: time_ms must be a number above 0 to 3,600,000" in capsys.readouterr().err


def test_bot_without_a_name_names_only_the_name_as_missing(capsys):
    from lcanalysis.cli.main import main as cli_main

    with pytest.raises(SystemExit) as stop:
        cli_main(["bot"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "the following arguments are required: name" in err and "KEY=VALUE" not in err.splitlines()[-1]


@pytest.mark.parametrize("value", [-5, 0, float("nan"), 1e30])
def test_an_external_agent_refuses_a_budget_it_would_send_before_starting_the_program(value):
    from lcanalysis.agents import AgentError, make_agent

    with pytest.raises(AgentError, match="external: time_ms must be a number above 0"):
        make_agent("external", cmd=["no-such-program"], time_ms=value)


def test_a_bot_that_does_not_answer_within_its_timeout_is_stopped_and_the_turn_fails():
    """A hung program used to hang the tournament for ever (``timeout`` was taken and ignored)."""
    import time

    pos = Position.deal(0)
    view = pos.view(pos.to_move)
    hung = make_agent("external", cmd=[sys.executable, "-c", "import time; input(); time.sleep(60)"], timeout=0.5)
    t0 = time.perf_counter()
    with pytest.raises(BotError, match=r"did not answer within 0.5 s \(timeout\); it was stopped"):
        hung.choose(view)
    assert time.perf_counter() - t0 < 30 and hung._proc is None  # stopped, not waited for
    quick = make_agent("external", cmd=[sys.executable, "-m", "lcanalysis", "bot", "greedy"], timeout=120)
    try:
        assert quick.choose(view) in pos.legal_moves()  # a timeout leaves a bot that answers alone
    finally:
        quick.close()
    with pytest.raises(AgentError, match="external: timeout must be a number above 0"):
        make_agent("external", cmd=["x"], timeout=0)


@pytest.mark.parametrize("agent", ["random", "greedy", "heuristic", "search"])
def test_every_agent_refuses_the_same_turn_budgets_over_the_protocol(agent):
    """random and greedy do not read the budget, yet took time_ms 1e300 while search refused it."""
    view = _mid_round(seed=9).view()
    lines = [json.dumps({"type": "turn", "position": view.to_json(), "time_ms": t}) for t in (1e300, 3_600_001, 0)]
    out = io.StringIO()
    assert serve(agent, io.StringIO("\n".join(lines) + "\n"), out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [set(r) for r in replies] == [{"error"}] * 3
    assert all("time_ms must be a number above 0 and at most 3,600,000" in r["error"] for r in replies)


def test_a_bot_that_exits_at_once_is_named_with_its_exit_status():
    """'error: [Errno 32] Broken pipe' named neither the bot nor why: closing the pipe of a request
    it never read raised again while the error was being reported."""
    view = Position.deal(seed=2).view(0)
    agent = ExternalAgent([sys.executable, "-c", "import sys; sys.exit(3)"])
    with pytest.raises(BotError, match=r"before answering: it exited with status 3"):
        agent.choose(view, time_ms=10)


def test_a_hung_bot_is_stopped_by_default_after_the_default_timeout_and_ten_budgets(monkeypatch):
    """'external:CMD' cannot set a timeout, and a program that never answered hung the tournament
    for good; by default a reply now waits DEFAULT_TIMEOUT seconds plus ten times the turn's budget."""
    import time

    import lcanalysis.agents.protocol as P

    monkeypatch.setattr(P, "DEFAULT_TIMEOUT", 0.5)
    agent = ExternalAgent([sys.executable, "-c", "import time; time.sleep(1000)"])
    t0 = time.monotonic()
    with pytest.raises(BotError, match=r"did not answer within 0.6 s \(timeout\); it was stopped"):
        agent.choose(Position.deal(seed=2).view(0), time_ms=10)
    assert time.monotonic() - t0 < 10


@pytest.mark.parametrize("cmd, said", [
    (None, "external: cmd must be the command line, a string or a list of strings, got None"),
    ([], "external: cmd is empty"),
    ("  ", "external: cmd is empty"),
    (["python", 3], "external: cmd must be the command line, a string or a list of strings"),
])
def test_an_external_agent_without_a_program_to_run_is_refused_when_made(cmd, said):
    """Found by a review: cmd=None was Python's "'NoneType' object is not iterable", cmd=[] was taken."""
    with pytest.raises(AgentError, match=re.escape(said)):
        make_agent("external", cmd=cmd)


def test_a_bot_answer_without_a_move_is_named_as_such():
    """Found by a review: an echoing bot gave "BotError: bot answered {...}: 'move'" (a KeyError's text)."""
    echo = [sys.executable, "-c", "import sys\nfor line in sys.stdin: print('{\"note\": 1}', flush=True)"]
    ext = make_agent("external", cmd=echo, timeout=60)
    pos = Position.deal(3)
    try:
        with pytest.raises(BotError, match=r"bot answered \{'note': 1\}, which has no 'move'"):
            ext.choose(pos.view(pos.to_move))
    finally:
        ext.close()


def test_a_bot_answering_an_error_is_named_as_the_bot_saying_it():
    """A tournament stopped by a bot's error reply printed "BotError: bot error: the agent 'eager' answered
    None, ...": error twice, and not who said it. The bot's own words follow "bot answered an error"."""
    said = "the agent 'eager' answered None, not a legal turn here: not a move: None"
    bot = [sys.executable, "-c", "import json, sys\nfor line in sys.stdin: print(json.dumps({'error': " + repr(said)
           + "}), flush=True)"]
    ext = make_agent("external", cmd=bot, timeout=60)
    pos = Position.deal(3)
    try:
        with pytest.raises(BotError) as raised:
            ext.choose(pos.view(pos.to_move))
        assert str(raised.value) == f"bot answered an error: {said}"
    finally:
        ext.close()


def test_an_external_program_that_cannot_be_started_is_a_bot_error():
    """Found by a review: a missing program was Python's FileNotFoundError when chosen directly."""
    pos = Position.deal(3)
    with pytest.raises(BotError, match="bot '/nonexistent/bot' could not be started: No such file or directory"):
        make_agent("external", cmd=["/nonexistent/bot"]).choose(pos.view(pos.to_move))


def test_a_search_agent_stops_its_play_outs_at_the_deadline_and_plays_its_count_before_it():
    """The bot protocol's time_ms is the time allowed, but the search agents played a fixed count of
    play-outs: on a busy machine 'bot best' took 1.2 s of a 1,000 ms turn. With a deadline the count
    is a ceiling: one already past leaves min_worlds worlds a turn; one far off changes nothing."""
    import time

    from lcanalysis.agents import SearchAgent

    pos = _mid_round(seed=9)
    view = pos.view()
    seen = []
    agent = make_agent("best")
    rollouts = agent.rollouts
    agent.rollouts = lambda *a: seen.append(rollouts(*a)) or seen[-1]  # type: ignore[method-assign]
    late = agent.choose(view, 3, time_ms=100, deadline=time.perf_counter() - 1)
    assert pos.can_play(late) and {len(x) for x in seen[-1].samples} == {agent.min_worlds}
    assert isinstance(agent, SearchAgent)
    full = agent.choose(view, 3, time_ms=100)
    counted = [x.copy() for x in seen[-1].samples]
    assert agent.choose(view, 3, time_ms=100, deadline=time.perf_counter() + 3600) == full
    assert all(len(a) == len(b) and (a == b).all() for a, b in zip(counted, seen[-1].samples, strict=True))
    assert sum(map(len, counted)) > 8 * agent.min_worlds


@pytest.mark.parametrize("agent", ["search", "best", "match"])
def test_a_turn_request_s_time_ms_is_a_deadline_on_the_clock_from_its_arrival(agent, monkeypatch):
    """The answer is due time_ms after the request came (the referee's clock), so the search agents
    get a deadline before that; a request without time_ms is due within the agent's own time_ms
    (100 ms by default; it was a play-out count with no clock)."""
    import time

    from lcanalysis.agents import SearchAgent
    from lcanalysis.agents.match_aware import MatchAwareAgent

    asked = []
    pos = _mid_round(seed=9)
    view = pos.view()
    for cls in (SearchAgent, MatchAwareAgent):
        monkeypatch.setattr(cls, "choose", lambda self, view, seed=None, time_ms=None, deadline=None:
                            asked.append((time_ms, deadline)) or pos.legal_moves()[0])
    before = time.perf_counter()
    status, replies = _run([{"type": "turn", "position": view.to_json(), "time_ms": 400},
                            {"type": "turn", "position": view.to_json()}], agent)
    assert status == 0 and all("move" in r for r in replies)
    (budget, deadline), (none, no_deadline) = asked
    assert budget == 400 and before < deadline <= time.perf_counter() + 0.4
    assert none is None and before < no_deadline <= time.perf_counter() + 0.1


def test_the_bot_program_loads_its_agent_s_compiled_code_before_the_first_request(monkeypatch):
    """The exact endgame solver loaded on its first call, inside a timed turn near the end of the
    first round (0.2 s more than the 50 ms asked), and the match agent's table on its first match
    turn. 'lcanalysis bot' now plays a turn at a deal with a match score and one where the agent
    turns to the solver before it reads a request; serve() alone does not."""
    import lcanalysis.agents.protocol as P
    from lcanalysis.cli.bot import main as bot_main

    seen = []
    real = P.make_agent

    def recording(name, **options):
        agent = real(name, **options)
        choose = agent.choose
        agent.choose = lambda view, *a, **k: seen.append(view.deck_count) or choose(view, *a, **k)
        return agent

    monkeypatch.setattr(P, "make_agent", recording)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert bot_main(["best"]) == 0
    assert seen == [44, make_agent("best").endgame]
    seen.clear()
    assert serve("best", io.StringIO(""), io.StringIO()) == 0 and seen == []
    assert bot_main(["heuristic"]) == 0 and seen == [44]
    from lcanalysis.match_equity import _load

    _load.cache_clear()
    assert bot_main(["match"]) == 0 and _load.cache_info().currsize == 1  # its table, 0.1 s on first use


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])
def test_a_request_with_bytes_that_are_not_utf8_is_refused_as_such(errors):
    """Under a C or C.UTF-8 locale Python reads standard input with 'surrogateescape': a request
    holding a byte that is not UTF-8 was answered "unknown request type '\\udcff'" (and on a strict
    stream, read with 'replace', "... type '\\ufffd'"), which does not say what is wrong with the line."""
    pos = _mid_round()
    good = json.dumps({"type": "turn", "position": pos.view(pos.to_move).to_json()}).encode()
    raw = b'{"type": "\xff"}\n' + good.replace(b'"Y', b'"\xe9Y', 1) + b"\n" + good + b"\n"
    out = io.StringIO()
    assert serve("greedy", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors=errors), out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(replies) == 3 and pos.can_play(replies[2]["move"])
    for reply in replies[:2]:
        assert reply == {"error": "unreadable request: the line is not UTF-8 text; one request is one line of "
                                  "JSON"}


def test_the_endgame_search_of_endgame_nodes_stops_at_a_turn_s_deadline_too(monkeypatch):
    """'bot search endgame=4 endgame_nodes=2400000' took 0.5 to 3.6 s of a 100 ms turn with 3 or 4
    cards left: the advisor's endgame search ran to its node budget, ignoring the deadline the
    play-outs keep. Given one, it stops there, and a search stopped short of endgame_stalls falls
    back to the play-outs (min_worlds worlds a turn, the deadline being past)."""
    import time

    import lcanalysis.search.endgame as E

    pos = _mid_round(seed=9)
    heuristic = make_agent("heuristic")
    while pos.deck_count > 4:
        pos.push(heuristic.choose(pos.view(pos.to_move), 0))
    view = pos.view(pos.to_move)
    agent = make_agent("search", endgame=4, endgame_nodes=2_400_000, endgame_stalls=2)
    asked = []
    real = E.converged_endgame
    monkeypatch.setattr(E, "converged_endgame", lambda *a, **k: asked.append(k.get("deadline")) or real(*a, **k))
    past = time.perf_counter() - 1
    seen = []
    rollouts = agent.rollouts
    agent.rollouts = lambda *a: seen.append(rollouts(*a)) or seen[-1]  # type: ignore[method-assign]
    move = agent.choose(view, 3, time_ms=100, deadline=past)
    assert asked == [past] and pos.can_play(move)
    assert seen and {len(x) for x in seen[-1].samples} == {agent.min_worlds}  # the play-outs, cut short
    assert pos.can_play(agent.choose(view, 3, time_ms=100)) and asked[-1] is None  # no clock: the node count alone


def test_the_exact_solver_of_the_last_cards_stops_at_a_turn_s_deadline_too(monkeypatch):
    """With 2 cards or fewer left the search agents play the exact endgame solver's turn, and it ran
    with no clock: up to 0.3 s of a 20-100 ms turn. Now it gets the time left to the deadline (the
    compiled search stops there); one that does not finish (here: held to one node) falls back to the
    play-outs, as without the solver, and one past its deadline is not started. Where it finishes,
    the move is the solver's, as with no clock."""
    import time

    from helpers import played_down

    import lcanalysis.search as S

    pos = played_down(1, 2)
    view = pos.view(pos.to_move)
    agent = make_agent("best")
    exact = agent.choose(view, 3, time_ms=100)
    assert str(exact) == S.endgame_analysis(view, seed=3).best.move
    assert agent.choose(view, 3, time_ms=100, deadline=time.perf_counter() + 3600) == exact
    real = S.endgame_analysis
    asked = []

    def one_node(view, seed=0, max_stalls=None, max_nodes=0, seconds=None):
        asked.append(seconds)
        return real(view, seed, max_stalls, 1, seconds)

    monkeypatch.setattr(S, "endgame_analysis", one_node)
    seen = []
    rollouts = agent.rollouts
    agent.rollouts = lambda *a: seen.append(rollouts(*a)) or seen[-1]  # type: ignore[method-assign]
    fell = agent.choose(view, 3, time_ms=100, deadline=time.perf_counter() + 3600)
    assert len(asked) == 1 and 3500 < asked[0] <= 3600  # the time left, in seconds
    assert seen and fell == make_agent("best", endgame=0).choose(view, 3, time_ms=100)  # the play-outs' turn
    seen.clear()
    late = agent.choose(view, 3, time_ms=100, deadline=time.perf_counter() - 1)
    assert len(asked) == 1 and pos.can_play(late)  # not started
    assert {len(x) for x in seen[-1].samples} == {agent.min_worlds}  # the play-outs, cut short


def test_a_turn_s_deadline_keeps_back_the_time_a_referee_counts_and_the_bot_cannot(monkeypatch):
    """A referee times a turn from writing the request to reading the answer; the bot's clock runs
    from reading the line to writing the answer. With the deadline at 90% of time_ms, 59% of 'bot
    best' answers at 50 ms came late (median 51.8 ms): the 5 ms left could not hold the pipe both
    ways on a busy machine. The deadline now keeps RESERVE_MS more, and a budget too small to leave
    anything is due at once (the play-outs stop after min_worlds worlds)."""
    from lcanalysis.agents import SearchAgent
    from lcanalysis.agents.protocol import answer

    asked = []
    pos = _mid_round(seed=9)
    monkeypatch.setattr(SearchAgent, "choose", lambda self, view, seed=None, time_ms=None, deadline=None:
                        asked.append(deadline) or pos.legal_moves()[0])
    agent = make_agent("best")
    for time_ms in (50, 3):
        reply, keep = answer(agent, {"type": "turn", "position": pos.view().to_json(), "time_ms": time_ms},
                             received=1000.0)
        assert keep and pos.can_play(reply["move"])
    fifty, three = asked
    assert 1000.0 < fifty <= 1000.0 + 0.9 * 0.050 - 0.005 and three == 1000.0


def test_the_bot_keeps_back_what_its_last_answers_went_out_past_their_deadlines(monkeypatch):
    """On a machine whose cores are shared the bot waits for a core at any moment, past any check
    inside the turn: at 100 ms a turn under load 10, answers went out up to 15 ms after their
    deadline, and 3 of 73 came late. The bot now keeps back, on top of RESERVE_MS, the most its last
    LATE_TURNS answers went out after their deadlines: here each answer goes out 20 ms late, so
    from the second turn on the deadline is 20 ms earlier; answers on time add nothing, and a late
    one is forgotten after LATE_TURNS turns."""
    import types

    import lcanalysis.agents.protocol as P
    from lcanalysis.agents import SearchAgent

    now = [1000.0]
    late = [0.020]
    deadlines = []

    def choose(self, view, seed=None, time_ms=None, deadline=None):
        deadlines.append(round((deadline - now[0]) * 1000, 6))  # ms after the request's arrival
        now[0] = deadline + late[0]  # the answer is ready this long after the deadline
        return view.legal_moves()[0]

    monkeypatch.setattr(P, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(SearchAgent, "choose", choose)
    pos = _mid_round(seed=9)
    turn = {"type": "turn", "position": pos.view().to_json(), "time_ms": 100}
    status, replies = _run([turn, turn, {"type": "turn", "position": "nonsense"}, turn], "best")
    assert status == 0 and [("move" in r) for r in replies] == [True, True, False, True]
    assert deadlines == [85.0, 65.0, 65.0]  # 90% of 100 ms less 5 ms; then 20 ms more kept back
    late[0] = -0.010
    status, replies = _run([turn] * 3, "best")
    assert status == 0 and deadlines[3:] == [85.0] * 3  # answers on time keep nothing back
    clock = P.TurnClock()
    for _ in range(3):
        clock.deadline = 5.0
        clock.written(5.020)
    for _ in range(P.LATE_TURNS):
        assert clock.reserve_ms() == pytest.approx(P.RESERVE_MS + 20)
        clock.deadline = 6.0
        clock.written(5.990)  # on time
    assert clock.reserve_ms() == P.RESERVE_MS


def test_a_request_without_a_type_or_with_a_byte_order_mark_is_answered_saying_so():
    """Found by trying the protocol by hand: a turn request that left out "type" was answered
    "unknown request type None", as if None had been sent; and a first line starting with a byte
    order mark (a Windows referee's UTF-8) was refused in Python's words ("decode using utf-8-sig")
    where a file with one reads (test_parsers_refuse): the mark before a line's JSON is dropped."""
    view = _mid_round().view(0).to_json()
    status, replies = _run([{"position": view}, "\ufeff" + json.dumps({"type": "turn", "position": view}),
                            '\ufeff{"type": "quit"}', {"type": "turn", "position": view}])
    assert status == 0 and len(replies) == 2  # the second BOM line quit: the last request is never read
    assert replies[0] == {"error": "a request needs 'type': 'turn' or 'quit'"}
    assert Move.parse(replies[1]["move"]) == make_agent("heuristic").choose(_mid_round().view(0), 10)


def test_a_request_cut_short_is_placed_on_its_own_line_not_the_next():
    """Found by sending a request cut short: the error placed the end at "line 2 column 1", the
    line's own newline counted as JSON, where the request was one line."""
    text = json.dumps({"type": "turn", "position": _mid_round().view(0).to_json()})[:-1]
    status, replies = _run([text])
    assert status == 0 and "ends early" in replies[0]["error"]
    assert f"line 1 column {len(text) + 1} (char {len(text)})" in replies[0]["error"], replies[0]["error"]


def test_a_quit_request_with_another_key_is_refused_naming_it_and_the_bot_keeps_serving():
    """Found by a review of the entry points: {"type": "quit", "extra": 1} stopped the bot, while
    an unknown key in a turn request (or a position) is refused. A quit with more than its type was
    meant otherwise: it gets an error naming the key, and the next request is still answered."""
    pos = _mid_round()
    good = {"type": "turn", "position": pos.view(pos.to_move).to_json()}
    status, replies = _run([{"type": "quit", "extra": 1}, good, {"type": "quit"}, good])
    assert status == 0 and len(replies) == 2
    assert replies[0] == {"error": "unknown key(s) in a quit request: 'extra'; it takes type"}
    assert pos.can_play(replies[1]["move"])


@pytest.mark.parametrize("returned, problem", [
    (None, "not a move: None"),
    ("hello", "move 'hello' has no '/<source>'"),
    ("-Bw/D", "that card is not in the hand of the player to move"),  # (deal 3's hand holds no Bw)
])
def test_a_bot_authors_agent_that_answers_no_legal_turn_gets_an_error_not_a_move(returned, problem):
    """answer(), the bot loop of docs/agents.md's own agent, sent what the agent returned as its move:
    None went out as {"move": "None"}, which the referee could only call unreadable. It now replies
    with an error saying it was the agent's answer, and why it is no legal turn."""
    from lcanalysis.agents import Agent
    from lcanalysis.agents.protocol import answer

    class Mine(Agent):
        name = "mine"

        def choose(self, view, rng_or_seed=None, time_ms=None):
            return returned

    pos = Position.deal(seed=3)
    assert "Bw" not in pos.hand(0)
    reply, keep = answer(Mine(), {"type": "turn", "position": pos.view(0).to_json()})
    assert keep and list(reply) == ["error"] and reply["error"].startswith(f"the agent 'mine' answered {returned!r}")
    assert f"answered {returned!r}, not a legal turn here: {problem}" in reply["error"], reply
    legal = pos.legal_moves()[0]
    Mine.choose = lambda self, view, rng_or_seed=None, time_ms=None: str(legal)  # its text is a turn too
    assert answer(Mine(), {"type": "turn", "position": pos.view(0).to_json()}) == ({"move": str(legal)}, True)


def test_a_bot_answer_with_a_bad_source_is_quoted_as_the_bot_wrote_it():
    """The source of a turn that cannot be read was quoted upper-cased ("source 'D X'"), not as written."""
    bot = [sys.executable, "-c", "import json, sys\nfor line in sys.stdin: print(json.dumps({'move': '+yw/d x'}), "
           "flush=True)"]
    ext = make_agent("external", cmd=bot, timeout=60)
    pos = Position.deal(3)
    try:
        with pytest.raises(BotError) as raised:
            ext.choose(pos.view(pos.to_move))
        assert "source 'd x' is neither D (draw pile) nor a colour letter" in str(raised.value)
        assert "'D X'" not in str(raised.value)
    finally:
        ext.close()
