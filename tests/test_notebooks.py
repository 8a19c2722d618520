"""Every notebook runs top to bottom with the small parameters of its first cell, holds no
logic of its own and says how its published run is made."""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXPECTED = {"decision_explorer.ipynb", "wager_study.ipynb", "article_first_player_advantage.ipynb",
            "article_opening_a_colour.ipynb", "article_stalling.ipynb"}


def test_the_notebooks_are_all_there():
    assert {p.name for p in NOTEBOOKS} >= EXPECTED


#: notebooks that take the longest end to end: run in the slow set (CI runs it), the others here
HEAVY = {"article_skill_and_luck.ipynb"}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.name in HEAVY else p for p in NOTEBOOKS],
                         ids=lambda p: p.name)
def test_notebook_runs_top_to_bottom(path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError naming the cell on any error
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    shown = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert any("image/png" in o.get("data", {}) or "application/vnd.jupyter.widget-view+json" in o.get("data", {})
               for o in shown), "a notebook shows at least one figure or explorer"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_first_cell_holds_the_parameters_and_the_published_command(path):
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "code" and first.source.startswith("# Parameters")
    tree = ast.parse(first.source)
    assert all(isinstance(node, ast.Assign) for node in tree.body), "the first cell only sets parameters"
    assert "lcanalysis studies data" in first.source or "jupyter nbconvert" in first.source


#: pandas' ways of making a new table from others: a notebook that needs one calls lcanalysis instead
WRANGLING = {"concat", "merge", "join", "groupby", "pivot", "pivot_table", "agg", "aggregate", "apply", "melt"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_holds_no_logic_of_its_own(path):
    """No function or class definitions, loops, branches, comprehensions or row selections by a
    mask, no tables stacked, joined or grouped: everything is a call into lcanalysis (a comprehension
    is a loop, a selection such as ``colours[colours["opened"]]`` and ``pd.concat`` of two studies'
    tables computations of the notebook's own)."""
    nb = nbformat.read(path, as_version=4)
    logic = (ast.FunctionDef, ast.ClassDef, ast.For, ast.While, ast.If, ast.Lambda, ast.comprehension)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            assert not isinstance(node, logic), (
                f"{path.name}: logic belongs in lcanalysis, found {type(node).__name__} in:\n{cell.source}")
            assert not (isinstance(node, ast.Subscript) and isinstance(node.slice, (ast.Compare, ast.Subscript))), (
                f"{path.name}: a selection belongs in lcanalysis, found {ast.unparse(node)} in:\n{cell.source}")
            assert not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in WRANGLING), (
                f"{path.name}: tables are stacked, joined and grouped in lcanalysis, found {ast.unparse(node.func)} "
                f"in:\n{cell.source}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_are_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")


def _data_read(path: Path) -> list[Path]:
    """The files a notebook reads from ``DATA`` (``f"{DATA}/NAME"``), as paths in the repository."""
    nb = nbformat.read(path, as_version=4)
    params: dict = {}
    exec(nb.cells[0].source, params)  # the first cell only sets parameters (tested above)
    files = []
    for cell in nb.cells[1:]:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.JoinedStr) and len(node.values) == 2 \
                    and isinstance(node.values[0], ast.FormattedValue) \
                    and isinstance(node.values[0].value, ast.Name) and node.values[0].value.id == "DATA":
                files.append((path.parent / params["DATA"] / node.values[1].value.lstrip("/")).resolve())
    return files


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_first_cell_names_the_command_of_every_data_file_the_notebook_reads(path):
    """The first cell says how the published data are made: each file read from ``DATA`` has its
    command there (the one its ``.cmd`` sidecar holds: the file's, or for a tournament's ``.csv``
    the ``.jsonl``'s), named by its ``--out`` file, or by its part of ``lcanalysis studies data``."""
    first = nbformat.read(path, as_version=4).cells[0].source
    for data in _data_read(path):
        cmd = next((c for c in (Path(f"{data}.cmd"), data.with_suffix(".jsonl.cmd")) if c.exists()), None)
        assert cmd is not None, f"{path.name} reads {data.name}, which has no .cmd sidecar"
        command = cmd.read_text(encoding="utf-8")
        named = (f"--only {command.split('--only ')[1].split()[0]}" if "studies data --only " in command
                 else str(data.relative_to(ROOT)))
        assert named.split()[-1] in first, (f"{path.name} reads {data.relative_to(ROOT)}: its first cell should give "
                                            f"its command, {command.strip()!r}")


def _figure_calls(source: str) -> tuple[list[str], list[ast.Call]]:
    """A cell's drawings (calls of ``figures.CHART``, by name) and its ``figures.publish`` calls."""
    drawn, published = [], []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "figures":
            (published if node.func.attr == "publish" else drawn).append(node)
    return [c.func.attr for c in drawn], published


def test_every_figure_of_a_notebook_is_saved_as_files():
    """A publication figure is kept as a file, not only shown: each figure a notebook draws is
    handed to ``figures.publish(fig, FIGURES, NAME)`` in its cell (PDF and PNG in the folder the
    first cell names), each NAME once across the notebooks, so no figure writes over another's."""
    names = []
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        cells = [c.source for c in nb.cells if c.cell_type == "code"]
        drawn_anywhere = False
        for source in cells[1:]:
            drawn, published = _figure_calls(source)
            drawn_anywhere |= bool(drawn)
            assert len(drawn) == len(published), f"{path.name}: {drawn} drawn, {len(published)} saved in:\n{source}"
            for call in published:
                folder, name = call.args[1], call.args[2]
                assert isinstance(folder, ast.Name) and folder.id == "FIGURES", f"{path.name}: {ast.unparse(call)}"
                assert isinstance(name, ast.Constant) and isinstance(name.value, str), ast.unparse(call)
                names.append(name.value)
        if drawn_anywhere:
            assert "FIGURES = " in cells[0], f"{path.name}: the first cell names the folder of the figures"
    assert len(names) == len(set(names)) and len(names) >= 27, sorted(names)


def test_the_decision_explorer_says_when_the_endgame_search_answers():
    from lcanalysis.advisor import ENDGAME_CARDS, FULL_POSITION_ENDGAME_CARDS

    nb = nbformat.read(ROOT / "notebooks" / "decision_explorer.ipynb", as_version=4)
    intro = " ".join(nb.cells[1].source.split())  # the first markdown cell, lines joined
    assert f"With {ENDGAME_CARDS} cards or fewer in the draw pile" in intro
    assert f"{FULL_POSITION_ENDGAME_CARDS} or fewer for a full position" in intro
