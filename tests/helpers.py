"""Small independent helpers for the tests: a from-scratch scorer and random play."""

from __future__ import annotations

import random

import numpy as np

from lcanalysis.game.cards import Card
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules


def score_from_scratch(cards: list[Card]) -> int:
    """docs/spec/rules.md scoring, written without the kernel."""
    if not cards:
        return 0
    wagers = sum(1 for c in cards if c.is_wager)
    total = sum(c.number for c in cards if not c.is_wager)
    return (total - 20) * (1 + wagers) + (20 if len(cards) >= 8 else 0)


def random_round_positions(seed: int, rules: Rules, deck_bias: float = 0.5, max_turns: int = 10_000):
    """Yield the position after every turn of one random round (each move uniformly random,
    except that with probability ``deck_bias`` the turn is restricted to draw-pile draws)."""
    rng = random.Random(seed)
    pos = Position.deal(seed=seed, rules=rules, starter=seed % 2)
    yield pos
    while not pos.is_over() and pos.turn < max_turns:
        moves = pos.legal_moves()
        if rng.random() < deck_bias:
            moves = [m for m in moves if m.draws_from_deck] or moves
        pos.push(rng.choice(moves))
        yield pos


def played_down(seed: int, deck: int, colors: int = 5, no_redraw: bool = True, stall_rate: float = 0.15):
    """A dealt round played at random (mostly draw-pile draws) until ``deck`` cards are left."""
    rng = random.Random(seed)
    pos = Position.deal(seed=seed, rules=Rules(colors=colors, no_redraw=no_redraw))
    while pos.deck_count > deck:
        moves = pos.legal_moves()
        if rng.random() > stall_rate:
            moves = [m for m in moves if m.draws_from_deck]
        pos.push(rng.choice(moves))
    return pos


def other_world(pos: Position, player: int, seed: int) -> Position:
    """The same view for ``player``, with the opponent's unknown cards and the deck reshuffled:
    an agent or advisor that reads only its view answers both positions alike."""
    view = pos.view(player)
    unseen = view.unseen()
    order = np.random.default_rng(seed).permutation(len(unseen))
    cards = [unseen[i] for i in order]
    u = view.opponent_unknown
    return view.complete(cards[:u], cards[u:])


def full_disk_after(monkeypatch, path, writes: int) -> None:
    """The disk fills while ``path`` is written: its first ``writes`` writes (``os.write``) go
    through, and the next writes half its bytes and fails as a full disk does (ENOSPC); every
    other file is written as usual."""
    import errno
    import os

    real = os.write
    target = os.path.realpath(path)
    seen = [0]

    def write(fd, data):
        if os.path.realpath(f"/proc/self/fd/{fd}") != target:
            return real(fd, data)
        seen[0] += 1
        if seen[0] > writes:
            real(fd, bytes(data)[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)


def recording_bar(refreshed: list, made: list) -> type:
    """A stand-in for tqdm's bar: each bar made goes into ``made``, each redraw adds to ``refreshed``,
    and a redraw after the bar was closed fails the test."""
    import threading

    class Bar:
        def __init__(self, *args: object, **kwargs: object) -> None:
            made.append(self)
            self.closed = threading.Event()

        def update(self, n: int) -> None:
            pass

        def refresh(self) -> None:
            assert not self.closed.is_set()  # never drawn after it was closed
            refreshed.append(1.0)

        def close(self) -> None:
            self.closed.set()

    return Bar


def dealt_view(seed: int, match: dict | None = None):
    """A view some turns into a dealt round (``seed * 5`` turns played by a fixed rule); with
    ``match``, a round of a 3-round match at that score (``Position.match``)."""
    pos = Position.deal(seed=seed, rules=Rules(rounds=3) if match else None)
    for t in range(seed * 5):
        moves = pos.legal_moves()
        pos.push(moves[(t * 7 + seed) % len(moves)])
    pos.match = match
    return pos.view(pos.to_move)


def count_playouts(monkeypatch) -> list[int]:
    """A counter of the play-outs ``Rollouts`` asks the compiled play-out for (turns times worlds of
    each call), not of what an answer reports: ``spent[0]``, which a test may reset."""
    from lcanalysis.rollouts import Rollouts

    spent = [0]
    play = Rollouts._flat_mc

    def counted(self, base, pool, unknown, opp, w, codes, first, last, out):
        spent[0] += len(codes) * (last - first)
        return play(self, base, pool, unknown, opp, w, codes, first, last, out)

    monkeypatch.setattr(Rollouts, "_flat_mc", counted)
    return spent


def refusal_line(prog: str, message: str) -> str:
    """The line a command refuses an argument with, written out from docs/spec/interchange.md: the
    command, the problem, and where its options are listed, in brackets; after a problem that ends in
    a bracket of its own, as a clause (``... (did you mean d=27?); see lcanalysis advise --help``)."""
    see = f"; see {prog} --help" if message.endswith(")") else f" (see {prog} --help)"
    return f"{prog}: error: {message}{see}\n"


def ends_pointing_to_help(err: str, prog: str) -> bool:
    """Whether ``err`` ends as ``refusal_line`` ends a line, whatever the problem."""
    clause = f"; see {prog} --help\n"
    return err.endswith(f" (see {prog} --help)\n") or (err.endswith(clause) and err[:-len(clause)].endswith(")"))


def hear_still_working(monkeypatch):
    """A ``threading.Event`` set once a command's stage line (``cli.common.progress_line``) says it is still
    working, each line still printed: the tests of a long wait hold the work until the command has spoken."""
    import threading

    import lcanalysis.cli.common as common

    heard = threading.Event()
    spoken = common.progress_line

    def listening(line):
        spoken(line)
        if "still working" in line:
            heard.set()

    monkeypatch.setattr(common, "progress_line", listening)
    return heard
