"""Every notebook in notebooks/ runs top to bottom (DESIGN: notebooks mirror the tests); the
committed notebooks carry their outputs, figures included, and force no plot backend."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
ALL = sorted((ROOT / "notebooks").glob("*.ipynb"))
# a notebook with a dedicated test (tests/core/test_<name>_notebook.py) is run there, once
NOTEBOOKS = sorted(
    p
    for p in (ROOT / "notebooks").glob("*.ipynb")
    if not (HERE / f"test_{p.stem}_notebook.py").exists()
)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    kernel_env(monkeypatch)
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors


def kernel_env(monkeypatch) -> None:
    """What a test's notebook kernel runs under: no display (the Agg backend from the
    environment, as a notebook sets none itself), this checkout's dragonsim first on the path
    (not whichever one is installed), and a small N for the notebooks that read
    DRAGONSIM_NOTEBOOK_N (their committed outputs come from the full size)."""
    import os

    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("DRAGONSIM_NOTEBOOK_N", "2000")
    path = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + path if path else ""))


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_committed_notebook_has_outputs_and_forces_no_backend(path):
    """In Jupyter every figure shows: no cell picks a backend (the tests set MPLBACKEND
    instead), and the committed notebook holds every code cell's output, each figure as a
    PNG, from a run top to bottom."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert not [c for c in code if "matplotlib.use(" in c.source or "%matplotlib" in c.source]
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), "executed top to bottom, once"
    assert not [o for c in code for o in c.outputs if o.get("output_type") == "error"]
    assert all(c.outputs for c in code[1:]), "every cell after the imports shows its result"
    for c in code:
        draws = ".plot(" in c.source or "subplots(" in c.source
        figures = sum("image/png" in o.get("data", {}) for o in c.outputs)
        assert figures >= draws, f"a figure this cell draws is missing: {c.source[:60]!r}"
