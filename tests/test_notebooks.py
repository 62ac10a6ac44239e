"""Every notebook in notebooks/ runs top to bottom (DESIGN: notebooks mirror the tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent
# a notebook with a dedicated test (tests/test_<name>_notebook.py) is run there, once
NOTEBOOKS = sorted(
    p
    for p in (HERE.parent / "notebooks").glob("*.ipynb")
    if not (HERE / f"test_{p.stem}_notebook.py").exists()
)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("MPLBACKEND", "Agg")
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
