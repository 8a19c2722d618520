"""Late answers of ``lcanalysis bot``: how many turns answer after the request's ``time_ms``, and where the time goes.

A referee (this script) plays rounds against the real bot program over its pipes and times each
turn as a referee does, from writing the request line to reading the answer line; a turn is late
when that takes longer than its ``time_ms``. The rows count the late turns of each budget, apart
for the turns with 2 cards or fewer in the draw pile (the exact endgame solver's) and the others,
with the median and the largest ratio of the time taken to the time allowed, so that runs on a
noisy shared machine compare by counts and ratios, not by seconds.

The bot runs under a thin wrapper that notes, on the same clock (``time.perf_counter`` is the
system's monotonic clock, shared by both processes), when it read the line, when its answer was
ready and when it began to write it: the breakdown then says how long each part outside the bot's
own deadline took (the pipe in, the answer's overshoot of the deadline, encoding it, the pipe out).

    python benchmarks/bench_bot_deadline.py [--agent best] [--time-ms 20,50,100] [--deals 4]
                                            [--phase all|endgame] [--load 0] [--compare]

``--phase endgame`` asks only turns with 2 cards or fewer left (both seats, the rounds played to
there by the heuristic), where the solver runs; ``--load N`` keeps N busy processes running
beside the bot for the whole run (the machine of the reports: 7 on 2 cores); ``--compare`` plays
each budget a second time with the deadline of ``RESERVE_MS`` alone, without the reserve the bot
learns from its own lateness (``agents.protocol.TurnClock``), on the same deals.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: the bot program, with timestamps: read (the bot's clock starts), answered (the reply built), writing
#: (the reply line handed to the pipe); kept in memory and printed to standard error when the bot ends
WRAPPED_BOT = """
import atexit, json, sys, time
import lcanalysis.agents.protocol as P
from lcanalysis.cli.bot import _option_value

marks = []
real = P.answer

def answer(agent, request, seed=0, received=None, *clock):
    out = real(agent, request, seed, received, *clock)
    marks.append([received, time.perf_counter()])
    return out

class Out:
    def write(self, text):
        if marks and len(marks[-1]) == 2:
            marks[-1].append(time.perf_counter())
        return sys.stdout.write(text)
    def flush(self):
        sys.stdout.flush()

P.answer = answer
if sys.argv[1] == "--fixed-reserve":  # RESERVE_MS alone, not what the last turns' lateness adds (to compare)
    sys.argv.pop(1)
    P.TurnClock.reserve_ms = lambda self: P.RESERVE_MS
atexit.register(lambda: print(json.dumps(marks), file=sys.stderr, flush=True))
sys.exit(P.serve(sys.argv[1], sys.stdin, Out(), True, seed=0,
                 **{k: _option_value(v) for k, v in (a.split("=", 1) for a in sys.argv[2:])}))
"""


def run_budget(agent: str, options: list[str], time_ms: float, deals: int, phase: str, fixed: bool = False) -> dict:
    from lcanalysis.agents import make_agent
    from lcanalysis.game.moves import Move
    from lcanalysis.game.position import Position

    heuristic = make_agent("heuristic")
    proc = subprocess.Popen([sys.executable, "-c", WRAPPED_BOT, *(["--fixed-reserve"] if fixed else []), agent,
                             *options], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None

    def ask(view) -> tuple[str, float, float]:
        line = json.dumps({"type": "turn", "position": view.to_json(), "time_ms": time_ms}) + "\n"
        sent = time.perf_counter()
        proc.stdin.write(line)
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        got = time.perf_counter()
        if "move" not in reply:
            raise SystemExit(f"the bot answered {reply}")
        return reply["move"], sent, got

    ask(Position.deal(10**6).view(0))  # the bot is up (its warm-up done) before the clock counts
    turns = []  # (deck count, sent, got)
    for deal in range(deals):
        pos = Position.deal(deal)
        seat = deal % 2
        while not pos.is_over():
            view = pos.view(pos.to_move)
            if pos.deck_count > 2 if phase == "endgame" else pos.to_move != seat:  # not the bot's turn
                move = heuristic.choose(view, deal)
            else:
                text, sent, got = ask(view)
                turns.append((pos.deck_count, sent, got))
                move = Move.parse(text, view.colors)
            pos.push(move)
    proc.stdin.write('{"type": "quit"}\n')
    proc.stdin.flush()
    _, err = proc.communicate(timeout=60)
    # (the first answer was the untimed one; 'quit' is answered by no line)
    marks = [m for m in json.loads(err.strip().splitlines()[-1]) if len(m) == 3][1:]
    assert len(marks) == len(turns), (len(marks), len(turns))
    return {"turns": turns, "marks": marks}


def report(time_ms: float, found: dict, reserve_ms: float, share: float) -> None:
    turns, marks = found["turns"], found["marks"]
    allowed = time_ms / 1000
    deadline_after = max(share * time_ms - reserve_ms, 0.0) / 1000
    for name, keep in (("deck <= 2", lambda d: d <= 2), ("deck > 2", lambda d: d > 2)):
        rows = [(t, m) for t, m in zip(turns, marks) if keep(t[0])]
        if not rows:
            continue
        ratios = sorted((got - sent) / allowed for (_, sent, got), _ in rows)
        late = sum(r > 1 for r in ratios)
        print(f"{time_ms:>7g} {name:<10} {len(rows):>5} {late:>5} {100 * late / len(rows):>5.0f}% "
              f"{statistics.median(ratios):>7.2f} {ratios[int(0.9 * (len(ratios) - 1))]:>7.2f} {ratios[-1]:>7.2f}",
              flush=True)
    # where the time of the late turns goes, in ms at the median of the late turns (all phases)
    parts: dict[str, list[float]] = {"pipe in": [], "parse+choose past deadline": [],
                                     "encode": [], "pipe out": [], "total past allowed": []}
    for (_, sent, got), (read, answered, writing) in zip(turns, marks):
        if got - sent <= allowed:
            continue
        parts["pipe in"].append(read - sent)
        parts["parse+choose past deadline"].append(answered - (read + deadline_after))
        parts["encode"].append(writing - answered)
        parts["pipe out"].append(got - writing)
        parts["total past allowed"].append(got - sent - allowed)
    if parts["pipe in"]:
        print("        late turns, median (max) ms: " + "; ".join(
            f"{k} {1000 * statistics.median(v):.1f} ({1000 * max(v):.1f})" for k, v in parts.items()), flush=True)
    every = {"pipe in": [m[0] - t[1] for t, m in zip(turns, marks)],
             "encode": [m[2] - m[1] for m in marks],
             "pipe out": [t[2] - m[2] for t, m in zip(turns, marks)]}
    print("        all turns, median (p90) ms: " + "; ".join(
        f"{k} {1000 * statistics.median(v):.1f} ({1000 * sorted(v)[int(0.9 * (len(v) - 1))]:.1f})"
        for k, v in every.items()), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="best", help="the agent the bot serves (default best)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="an agent option for the bot, as 'lcanalysis bot' takes them (repeatable; default none)")
    ap.add_argument("--time-ms", default="20,50,100",
                    help="the turn budgets asked, comma-separated (default 20,50,100)")
    ap.add_argument("--deals", type=int, default=4, help="rounds played at each budget (default 4)")
    ap.add_argument("--phase", choices=("all", "endgame"), default="all",
                    help="all: every turn of one seat; endgame: only turns with 2 cards or fewer left, both seats "
                         "(default all)")
    ap.add_argument("--compare", action="store_true",
                    help="play each budget twice, the second time with the deadline of RESERVE_MS alone, not "
                         "what the bot's last answers went out late added (agents.protocol.TurnClock; default: off)")
    ap.add_argument("--load", type=int, default=0, help="busy processes kept running beside the bot (default 0)")
    args = ap.parse_args()
    if args.deals < 1:
        ap.error(f"--deals must be at least 1, got {args.deals}")
    if args.load < 0:
        ap.error(f"--load must be 0 or more, got {args.load}")
    try:
        budgets = [float(x) for x in args.time_ms.split(",")]
    except ValueError:
        ap.error(f"--time-ms must be numbers separated by commas, got {args.time_ms!r}")
    if not budgets or any(not 0 < b <= 3_600_000 for b in budgets):
        ap.error(f"--time-ms must be numbers above 0 and at most 3,600,000, got {args.time_ms!r}")
    from lcanalysis.agents import protocol as P

    subprocess.run([sys.executable, "-m", "lcanalysis", "warm-up"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        print(f"bot {args.agent} {' '.join(args.option)}, phase {args.phase}, {args.load} busy processes; "
              f"deadline {P.CLOCK_SHARE:g} x time_ms - {getattr(P, 'RESERVE_MS', 0):g} ms")
        print(f"{'time_ms':>7} {'turns':<10} {'asked':>5} {'late':>5} {'late%':>6} {'median':>7} {'p90':>7} "
              f"{'max':>7}   (time taken / time_ms)")
        for budget in budgets:
            for fixed in (False, True) if args.compare else (False,):
                if args.compare:
                    print(f"        {'RESERVE_MS alone' if fixed else 'with the reserve learnt from lateness'}:")
                found = run_budget(args.agent, args.option, budget, args.deals, args.phase, fixed)
                report(budget, found, getattr(P, "RESERVE_MS", 0.0), P.CLOCK_SHARE)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
