"""Every notebook in notebooks/ runs top to bottom and shows what it is for (DESIGN: notebooks
mirror the tests).

The committed notebooks carry their outputs from a run top to bottom: every figure an embedded
PNG image, no error, no plot backend forced, and the lines each notebook exists to print. A
fresh run (at a small N, ``DRAGONSIM_NOTEBOOK_N``) shows the same, cell by cell: the same
number of figures and of tables (HTML data frames) as the committed notebook, the same lines,
and no error."""

from __future__ import annotations

import base64
import os
import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ALL = sorted((ROOT / "notebooks").glob("*.ipynb"))

#: what each notebook must print, whatever its N: the lines that answer its questions
SHOWS = {
    "build_comparison": [
        "games per build and preset:",
        "basic rules (",
        "pairing cut the variance of a difference",
    ],
    "design_point_prices": [
        "Fair design-point prices at 15 DP",
        "option pairs beyond the model (Holm 5%)",
        "The best build at 15 DP",
        "one printed design point buys",
        "the model is calibrated to slope",
    ],
    "dice": [
        "Dragon Dice attack: red-wyrm attacking goblin-thug x6, goblin-pelter x4",
        "defender lost",
    ],
    "krynn": [
        "without token",
        "with token",
        "smallest pool reaching 90%",
        "Warriors of Krynn conflict, difficulty 3",
    ],
    "lords_balance": [
        "Dragon Lords duel: Reaper (hunter) vs Skyblazer (hunter)",
        "Dragon Lords round robin",
    ],
    "lords_odds": ["Stalwyrm", "Tankerous"],  # the roster table, every ready-made dragon
}


def test_every_notebook_has_what_it_must_show():
    assert sorted(SHOWS) == [p.stem for p in ALL], "a notebook without its list in SHOWS"


def kernel_env(monkeypatch) -> None:
    """What a test's notebook kernel runs under: Jupyter's own inline backend (no display
    needed; it embeds each figure as a PNG, as Jupyter shows it, where Agg would show none;
    a notebook sets no backend itself), this checkout's dragonsim first on the path (not
    whichever one is installed), and a small N for the notebooks that read
    DRAGONSIM_NOTEBOOK_N (their committed outputs come from the full size)."""
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("DRAGONSIM_NOTEBOOK_N", "2000")
    path = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + path if path else ""))


def _code(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def _count(cell, mime: str) -> int:
    return sum(mime in o.get("data", {}) for o in cell.get("outputs", []))


def _printed(nb) -> str:
    """The text a notebook shows: its printed lines and its results' plain-text forms."""
    parts = []
    for c in _code(nb):
        for o in c.get("outputs", []):
            parts.append(o.get("text", ""))
            parts.append(o.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def _errors(nb):
    return [o for c in _code(nb) for o in c.get("outputs", []) if o.get("output_type") == "error"]


def _png_size(data: str) -> tuple[int, int]:
    """Width and height of a base64 PNG (its IHDR chunk); fails on anything but a PNG."""
    raw = base64.b64decode(data)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR", "not a PNG image"
    return struct.unpack(">II", raw[16:24])


@pytest.mark.slow
@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_notebook_runs_and_shows_its_figures_tables_and_answers(path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    kernel_env(monkeypatch)
    committed = nbformat.read(path, as_version=4)
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    assert not _errors(nb)
    for i, (c, was) in enumerate(zip(_code(nb), _code(committed), strict=True)):
        for mime in ("image/png", "text/html"):
            assert _count(c, mime) == _count(was, mime), f"cell {i}: {mime} {c.source[:60]!r}"
        for o in c.outputs:
            if "image/png" in o.get("data", {}):
                assert min(_png_size(o["data"]["image/png"])) >= 200, f"cell {i}: a tiny figure"
    text = _printed(nb)
    missing = [s for s in SHOWS[path.stem] if s not in text]
    assert not missing, f"{path.name} no longer shows {missing}"


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_committed_notebook_has_outputs_and_forces_no_backend(path):
    """In Jupyter every figure shows: no cell picks a backend (the tests set MPLBACKEND to
    Jupyter's inline one instead), and the committed notebook holds every code cell's output,
    each figure as an embedded PNG image, from a run top to bottom, and the lines it exists to
    print."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    code = _code(nb)
    assert not [c for c in code if "matplotlib.use(" in c.source or "%matplotlib" in c.source]
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), "executed top to bottom, once"
    assert not _errors(nb)
    assert all(c.outputs for c in code[1:]), "every cell after the imports shows its result"
    for c in code:
        draws = ".plot(" in c.source or "subplots(" in c.source or "plt.figure(" in c.source
        figures = _count(c, "image/png")
        assert figures >= draws, f"a figure this cell draws is missing: {c.source[:60]!r}"
        for o in c.outputs:
            if "image/png" in o.get("data", {}):
                assert min(_png_size(o["data"]["image/png"])) >= 200, "a tiny or broken figure"
    assert sum(_count(c, "image/png") for c in code) >= 1, "a notebook without a figure"
    text = _printed(nb)
    missing = [s for s in SHOWS[path.stem] if s not in text]
    assert not missing, f"{path.name} does not show {missing}"
