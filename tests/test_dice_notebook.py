"""notebooks/dice.ipynb runs top to bottom and its Monte Carlo agrees with its exact column."""

from __future__ import annotations

from pathlib import Path

import pytest

NB = Path(__file__).parent.parent / "notebooks" / "dice.ipynb"


def test_dice_notebook_runs(monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NB, as_version=4)
    nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(NB.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                   for o in outputs)
    assert "red-wyrm attacking" in text and "exact p(slain)" in text
