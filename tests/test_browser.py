"""The decision explorer served by Voila, driven in Debian's headless Chromium with Playwright.

Needs /usr/bin/chromium (``apt-get install -y chromium``; ``.ci/run`` installs it). Without it
the test is skipped with that reason, unless ``LCANALYSIS_REQUIRE_BROWSER=1`` is set (``.ci/run``
sets it): then a missing browser is a failure, so CI cannot skip it silently. No browser is
downloaded: Playwright launches the system Chromium through ``executable_path``. The screenshot
goes to pytest's temporary directory, and also to ``$LC_SCREENSHOTS`` when that is set
(``LC_SCREENSHOTS=data/screenshots python -m pytest tests/test_browser.py`` refreshes the one in
the repository).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from lcanalysis.game.examples import example_text
from lcanalysis.game.notation import read_position

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "decision_explorer.ipynb"
TUTOR = ROOT / "notebooks" / "tutor.ipynb"
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

REQUIRE = "LCANALYSIS_REQUIRE_BROWSER"


def check_browser(path: str | None = None, env=None) -> None:
    """Return if ``path`` (default CHROMIUM) is an executable browser; otherwise skip the calling
    test with the reason, or fail it when ``env`` (default ``os.environ``) sets
    LCANALYSIS_REQUIRE_BROWSER=1."""
    path = CHROMIUM if path is None else path
    env = os.environ if env is None else env
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return
    reason = f"needs Debian's chromium at {path}: apt-get install chromium"
    if env.get(REQUIRE) == "1":
        pytest.fail(f"{reason} ({REQUIRE}=1: a missing browser is a failure)", pytrace=False)
    pytest.skip(reason)


def test_a_missing_browser_skips_with_the_reason_or_fails_when_required(tmp_path, monkeypatch):
    missing = str(tmp_path / "no-chromium")
    monkeypatch.delenv(REQUIRE, raising=False)
    with pytest.raises(pytest.skip.Exception,
                       match=r"needs Debian's chromium at .*no-chromium: apt-get install chromium"):
        check_browser(missing)
    for value in ("0", ""):
        with pytest.raises(pytest.skip.Exception):
            check_browser(missing, {REQUIRE: value})
    monkeypatch.setenv(REQUIRE, "1")
    with pytest.raises(pytest.fail.Exception, match=f"needs Debian's chromium.*{REQUIRE}=1"):
        check_browser(missing)
    with pytest.raises(pytest.fail.Exception):
        check_browser(missing, {REQUIRE: "1"})
    not_executable = tmp_path / "chromium-text"
    not_executable.write_text("")
    with pytest.raises(pytest.fail.Exception):
        check_browser(str(not_executable))
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    assert check_browser(str(browser)) is None  # present: the browser test goes ahead
    monkeypatch.delenv(REQUIRE)
    assert check_browser(str(browser)) is None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _voila(notebook: Path, log: Path):
    """``voila NOTEBOOK`` on a free localhost port; yields its URL once the port answers, and
    stops voila afterwards."""
    check_browser()  # before starting voila: no browser, nothing to serve
    port = _free_port()
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
            cwd=ROOT, stdout=fh, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"voila exited with status {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:  # the port answers once voila is up (a GET of / would start a kernel)
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"voila did not serve {url} within 120 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def served_explorer(tmp_path_factory):
    """``voila notebooks/decision_explorer.ipynb`` on a free localhost port; yields its URL and
    the path of voila's log."""
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    with _voila(NOTEBOOK, log) as url:
        yield url, log


def with_parameters(notebook: Path, folder: Path, **values) -> Path:
    """A copy of ``notebook`` in ``folder`` whose first cell (the parameters) sets ``values``
    instead (what papermill does): each ``NAME = ...`` line named is replaced."""
    nb = nbformat.read(notebook, as_version=4)
    lines = nb.cells[0].source.splitlines()
    for name, value in values.items():
        hits = [i for i, line in enumerate(lines) if re.match(rf"{name}\s*=", line)]
        assert len(hits) == 1, f"{notebook.name}: no parameter {name} in the first cell"
        lines[hits[0]] = f"{name} = {value!r}"
    nb.cells[0].source = "\n".join(lines)
    out = folder / notebook.name
    nbformat.write(nb, out)
    return out


def test_with_parameters_replaces_exactly_the_named_parameters(tmp_path):
    copy = with_parameters(TUTOR, tmp_path, AGENT="greedy", TIME_BUDGET=0.05)
    first = nbformat.read(copy, as_version=4).cells[0].source
    original = nbformat.read(TUTOR, as_version=4).cells[0].source
    assert "AGENT = 'greedy'" in first and "TIME_BUDGET = 0.05" in first
    assert first.count("\n") == original.count("\n")
    assert [ln for ln in first.splitlines() if not ln.startswith(("AGENT", "TIME_BUDGET"))] == \
        [ln for ln in original.splitlines() if not ln.startswith(("AGENT", "TIME_BUDGET"))]
    with pytest.raises(AssertionError, match="no parameter NOPE"):
        with_parameters(TUTOR, tmp_path, NOPE=1)


@pytest.fixture(scope="module")
def served_tutor(tmp_path_factory):
    """``voila notebooks/tutor.ipynb`` with fast settings: the greedy agent, a small tutor budget."""
    folder = tmp_path_factory.mktemp("tutor")
    notebook = with_parameters(TUTOR, folder, AGENT="greedy", SEED=3, ROUNDS=1, TIME_BUDGET=0.05)
    log = folder / "voila.log"
    with _voila(notebook, log) as url:
        yield url, log


@contextlib.contextmanager
def _voila_log_on_failure(log: Path):
    """A browser-side failure (a timeout says little) also shows the end of voila's log."""
    try:
        yield
    except Exception as exc:
        tail = log.read_text(errors="replace")[-4000:] if log.exists() else "(no log)"
        raise AssertionError(f"{type(exc).__name__}: {exc}\n--- voila's log, last lines:\n{tail}") from exc


@contextlib.contextmanager
def _served_page(url: str, log: Path, height: int, ready: str):
    """A headless chromium page on the served notebook, once the widget ``ready`` is drawn; voila's
    log is shown when the test fails."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, _voila_log_on_failure(log):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": height})
            page.goto(url, timeout=240_000)
            page.wait_for_selector(ready, timeout=240_000)
            yield page
        finally:
            browser.close()


@pytest.mark.browser
def test_served_explorer_ranks_turns_after_a_widget_change_and_analyze(served_explorer, tmp_path):
    url, log = served_explorer
    with _served_page(url, log, 1600, ".lc-analyze") as page:
        mid = read_position(example_text("midround"))  # the notebook's POSITION
        assert f"{mid.deck_count} cards in the draw pile" in page.inner_text(".lc-msg")
        assert page.inner_text(".lc-table").strip() == ""  # nothing ranked before Analyze

        # change a widget: pick the opening example
        opening = read_position(example_text("opening"))
        hand = [str(c) for c in opening.hand]
        page.select_option(".lc-example select", "opening")
        page.wait_for_function(
            f"document.querySelector('.lc-msg').innerText.includes('{opening.deck_count} cards in the draw pile')",
            timeout=60_000)
        assert page.input_value(".lc-hand input") == " ".join(hand)
        page.wait_for_selector(".lc-position svg", timeout=30_000)

        page.click(".lc-analyze")
        page.wait_for_selector(".lc-table table", timeout=240_000)
        rows = page.query_selector_all(".lc-table table tr")
        moves = [r.query_selector_all("td")[1].inner_text() for r in rows[1:]]
        assert len(moves) >= 16, moves  # 8 cards x (play or discard), each with a draw source
        assert all(m[0] in "+-" and "/" in m for m in moves)
        assert {m[1:].split("/")[0] for m in moves} <= set(hand)
        assert "turns ranked" in page.inner_text(".lc-msg")

        _screenshot(page, tmp_path / "decision_explorer.png")


def _screenshot(page, shot: Path) -> None:
    """A picture of the whole page, not empty; kept in $LC_SCREENSHOTS when set (data/screenshots)."""
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("LC_SCREENSHOTS"):
        dest = Path(os.environ["LC_SCREENSHOTS"])
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, dest / shot.name)


def _turns_played(page) -> int:
    return int(page.inner_text(".lc-tutor-progress").rsplit(":", 1)[1])


def _choose_and_play(page, place: str) -> None:
    """Click the first card of the hand, ``place`` ("play" or "discard"), the deck, then Play."""
    page.locator(".lc-tutor-card button").first.click()
    page.locator(".lc-tutor-place button", has_text=place).click()
    page.locator(".lc-tutor-source button", has_text="deck").click()
    page.click(".lc-tutor-play")


@pytest.mark.browser
@pytest.mark.slow  # a whole round by clicks; the explorer's browser test is in the default run
def test_served_tutor_plays_a_whole_round_by_clicks_and_shows_the_review(served_tutor, tmp_path):
    """A scripted click sequence: each turn, the first card of the hand, played on its expedition
    (discarded when the rules refuse that), drawing from the deck; until the round is over."""
    url, log = served_tutor
    with _served_page(url, log, 1400, ".lc-tutor-play") as page:
        page.wait_for_selector(".lc-tutor-board svg", timeout=60_000)
        assert "round 1: you 0, opponent (greedy) 0" in page.inner_text(".lc-tutor-score")
        assert page.inner_text(".lc-tutor-review").strip() == ""
        played, refused = 0, 0
        progress = "document.querySelector('.lc-tutor-progress').innerText.endsWith(': ' + n)"
        refusal = "document.querySelector('.lc-tutor-comment').innerText.includes('not legal here')"
        done, done_or_refused = f"([n]) => {progress}", f"([n]) => {progress} || {refusal}"
        while page.locator(".lc-tutor-review h4").count() == 0:
            assert played < 60, "a round has fewer turns than this"
            _choose_and_play(page, "play")
            page.wait_for_function(done_or_refused, arg=[played + 1], timeout=60_000)
            if _turns_played(page) != played + 1:  # the rules refused to play that card: discard it
                refused += 1
                _choose_and_play(page, "discard")
                page.wait_for_function(done, arg=[played + 1], timeout=60_000)
            played += 1
        assert _turns_played(page) == played
        review = page.inner_text(".lc-tutor-review")
        assert review.startswith("Round over: round 1: you "), review
        assert f"{played} decisions" in review
        rows = page.query_selector_all(".lc-tutor-review table.lc-review-table tbody tr")
        assert len(rows) == played > 10
        assert page.is_disabled(".lc-tutor-play")
        assert review.splitlines()[0].removeprefix("Round over: ") == page.inner_text(".lc-tutor-score").strip()

        _screenshot(page, tmp_path / "tutor.png")
